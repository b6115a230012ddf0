import { AlertTriangle, CloudOff, type LucideIcon, RotateCw } from 'lucide-react';
import { type ReactNode, useSyncExternalStore } from 'react';
import { connection } from '../../lib/connection';
import { errorMessage } from '../../lib/errors';
import { Spinner } from '../Spinner';
import { Button } from './Button';

/**
 * What a screen shows instead of its data: nothing yet, loading, or a failed
 * load. `compact` is the console's denser spacing.
 */

export type EmptyStateProps = { Icon: LucideIcon; children: ReactNode; testId?: string; compact?: boolean };

/** The spec's empty texts ('No updated feed', 'No weight history!', ...). */
export function EmptyState({ Icon, children, testId, compact = false }: EmptyStateProps) {
  return (
    <div className={`flex flex-col items-center justify-center gap-3 px-4 text-center ${compact ? 'py-12' : 'py-14'}`} data-testid={testId}>
      <span className={`flex items-center justify-center rounded-full bg-brand-50 text-brand-700 ${compact ? 'h-12 w-12' : 'h-14 w-14'}`}>
        <Icon className={compact ? 'h-6 w-6' : 'h-7 w-7'} aria-hidden="true" />
      </span>
      <p className={`font-semibold text-slate-700 ${compact ? '' : 'text-lg'}`}>{children}</p>
    </div>
  );
}

export type LoadingProps = { label: string; compact?: boolean };

const subscribeOffline = (l: () => void) => {
  window.addEventListener('online', l);
  window.addEventListener('offline', l);
  const stop = connection.subscribe(l);
  return () => {
    window.removeEventListener('online', l);
    window.removeEventListener('offline', l);
    stop();
  };
};
const isOffline = () => navigator.onLine === false || connection.isUnreachable();

/**
 * Loading, or, without a connection, why nothing shows yet: a screen's data waits for the connection
 * (a screen with data saved on this device shows that instead of loading).
 */
export function Loading({ label, compact = false }: LoadingProps) {
  const offline = useSyncExternalStore(subscribeOffline, isOffline, () => false);
  if (offline)
    return (
      <div className={`flex flex-col items-center gap-3 px-4 text-center ${compact ? 'py-10' : 'py-12'}`} data-testid="offline-not-saved">
        <CloudOff className="h-8 w-8 text-slate-500" aria-hidden="true" />
        <p className="max-w-md text-slate-700">Not saved on this phone yet. It shows as soon as you are back online.</p>
      </div>
    );
  return (
    <div className={`flex justify-center ${compact ? 'py-12' : 'py-14'}`}>
      <Spinner label={label} />
    </div>
  );
}

export type LoadErrorProps = { error: unknown; onRetry: () => void; compact?: boolean };

/** A failed load, with the server's message and a way to try again. */
export function LoadError({ error, onRetry, compact = false }: LoadErrorProps) {
  return (
    <div className={`flex flex-col items-center gap-3 px-4 text-center ${compact ? 'py-10' : 'py-12'}`} role="alert">
      <AlertTriangle className="h-8 w-8 text-amber-600" aria-hidden="true" />
      <p className="max-w-md text-slate-700">{errorMessage(error)}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        <RotateCw className="h-4 w-4" aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}
