import { PhoneOff } from 'lucide-react';
import type { ReactNode } from 'react';

/** Why the call cannot be shown: its HTTP-like status in words (404 no such call, 403 not open). */
export function CallNotice({ status, message, children }: { status: number; message: string; children?: ReactNode }) {
  const heading = status === 404 ? 'Call not found' : status === 403 ? 'This call is not open' : 'Join your call';
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 px-6 text-center" data-status={status}>
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <PhoneOff className="h-7 w-7" aria-hidden="true" />
      </span>
      <h1 className="text-2xl font-bold text-slate-900">{heading}</h1>
      <p className="text-slate-700" role={status === 401 ? undefined : 'alert'}>
        {message} {status !== 401 && <span className="text-slate-500">({status})</span>}
      </p>
      {children}
    </main>
  );
}
