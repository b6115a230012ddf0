import type { LucideIcon } from 'lucide-react';
import { AlertTriangle, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Spinner } from '../../components/Spinner';
import { Button } from '../../components/ui/Button';
import { errorMessage } from '../../lib/errors';
import { useDocumentTitle } from '../../lib/use-document-title';

/** A dashboard screen: its title (also the document title), optional lead text and actions. */
export function Page({
  title,
  lead,
  actions,
  before,
  children,
  width = 'max-w-4xl',
}: {
  title: string;
  lead?: ReactNode;
  actions?: ReactNode;
  /** Shown above the title, e.g. a back link. */
  before?: ReactNode;
  children: ReactNode;
  width?: string;
}) {
  useDocumentTitle(title);
  return (
    <div className={`mx-auto w-full ${width}`}>
      {before}
      <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
          {lead && <p className="mt-1 text-sm text-slate-600 sm:text-base">{lead}</p>}
        </div>
        {actions}
      </div>
      {children}
    </div>
  );
}

export function Card({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <section className={`rounded-2xl border border-slate-200 bg-white shadow-sm ${className}`}>{children}</section>;
}

/** The spec's empty texts ('No updated feed', 'No weight history!', ...). */
export function EmptyState({ Icon, children, testId }: { Icon: LucideIcon; children: ReactNode; testId?: string }) {
  return (
    <div className="flex flex-col items-center justify-center gap-3 px-4 py-14 text-center" data-testid={testId}>
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Icon className="h-7 w-7" aria-hidden="true" />
      </span>
      <p className="text-lg font-semibold text-slate-700">{children}</p>
    </div>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <div className="flex justify-center py-14">
      <Spinner label={label} />
    </div>
  );
}

/** A failed load, with the server's message and a way to try again. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className="flex flex-col items-center gap-3 px-4 py-12 text-center" role="alert">
      <AlertTriangle className="h-8 w-8 text-amber-600" aria-hidden="true" />
      <p className="max-w-md text-slate-700">{errorMessage(error)}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        <RotateCw className="h-4 w-4" aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}
