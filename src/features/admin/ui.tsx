import type { LucideIcon } from 'lucide-react';
import { AlertTriangle, ChevronLeft, ChevronRight, RotateCw } from 'lucide-react';
import { type ReactNode, type SelectHTMLAttributes, forwardRef, useId } from 'react';
import { toast } from 'sonner';
import { Spinner } from '../../components/Spinner';
import { Button } from '../../components/ui/Button';
import { FieldShell, controlClasses } from '../../components/ui/Field';
import { isHandled } from '../../lib/auth-client';
import { errorMessage } from '../../lib/errors';
import { useDocumentTitle } from '../../lib/use-document-title';

/** The console's building blocks, one look for every screen. */

export function Page({
  title,
  lead,
  actions,
  before,
  children,
  width = 'max-w-6xl',
}: {
  title: string;
  lead?: ReactNode;
  actions?: ReactNode;
  before?: ReactNode;
  children: ReactNode;
  width?: string;
}) {
  useDocumentTitle(`${title} · Console`);
  return (
    <div className={`mx-auto w-full ${width}`}>
      {before}
      <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
          {lead && <p className="mt-1 text-sm text-slate-600 sm:text-base">{lead}</p>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
      {children}
    </div>
  );
}

export function Card({
  children,
  className = '',
  title,
  actions,
}: {
  children: ReactNode;
  className?: string;
  title?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className={`min-w-0 rounded-2xl border border-slate-200 bg-white shadow-sm ${className}`}>
      {(title || actions) && (
        <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-4 py-3 sm:px-5">
          {title && <h2 className="text-lg font-semibold text-slate-900">{title}</h2>}
          {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}

export function EmptyState({ Icon, children, testId }: { Icon: LucideIcon; children: ReactNode; testId?: string }) {
  return (
    <div className="flex flex-col items-center justify-center gap-3 px-4 py-12 text-center" data-testid={testId}>
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Icon className="h-6 w-6" aria-hidden="true" />
      </span>
      <p className="font-semibold text-slate-700">{children}</p>
    </div>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <div className="flex justify-center py-12">
      <Spinner label={label} />
    </div>
  );
}

export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className="flex flex-col items-center gap-3 px-4 py-10 text-center" role="alert">
      <AlertTriangle className="h-8 w-8 text-amber-600" aria-hidden="true" />
      <p className="max-w-md text-slate-700">{errorMessage(error)}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        <RotateCw className="h-4 w-4" aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}

/** Every failed call shows the server's message (once, even if several calls fail alike). */
export function toastError(error: unknown) {
  if (isHandled(error)) return;
  const message = errorMessage(error);
  toast.error(message, { id: `error:${message}` });
}

/** Zero-based server paging: "21–40 of 95" with previous and next. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
  label = 'items',
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  label?: string;
}) {
  const last = Math.max(0, Math.ceil(total / pageSize) - 1);
  const from = total === 0 ? 0 : page * pageSize + 1;
  const to = Math.min(total, (page + 1) * pageSize);
  return (
    <nav
      aria-label={`Pages of ${label}`}
      className="flex items-center justify-between gap-3 border-t border-slate-100 px-4 py-3 text-sm text-slate-600"
    >
      <span aria-live="polite" data-testid="pager-status">
        {from}–{to} of {total} {label}
      </span>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" onClick={() => onPage(page - 1)} disabled={page <= 0} aria-label="Previous page">
          <ChevronLeft className="h-4 w-4" aria-hidden="true" />
        </Button>
        <Button variant="secondary" size="sm" onClick={() => onPage(page + 1)} disabled={page >= last} aria-label="Next page">
          <ChevronRight className="h-4 w-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}

const TONES = {
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  amber: 'bg-amber-50 text-amber-800 ring-amber-200',
  red: 'bg-red-50 text-red-800 ring-red-200',
  slate: 'bg-slate-100 text-slate-700 ring-slate-200',
  teal: 'bg-brand-50 text-brand-800 ring-brand-200',
  blue: 'bg-blue-50 text-blue-800 ring-blue-200',
} as const;
export type Tone = keyof typeof TONES;

export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ${TONES[tone]}`}>
      {children}
    </span>
  );
}

/** Filter chips: one choice of a few, as a radio group. */
export function Segmented<T extends string>({
  value,
  options,
  onChange,
  label,
}: {
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  label: string;
}) {
  return (
    <div role="radiogroup" aria-label={label} className="inline-flex flex-wrap gap-1 rounded-xl bg-slate-100 p-1">
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={value === o.value}
          onClick={() => onChange(o.value)}
          className={`rounded-lg px-3 py-1.5 text-sm font-medium ${value === o.value ? 'bg-white text-brand-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'}`}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & { label: ReactNode; error?: string; hint?: ReactNode; hideLabel?: boolean };

export const SelectField = forwardRef<HTMLSelectElement, SelectProps>(function SelectField(
  { label, error, hint, hideLabel, id, className = '', children, ...rest },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <FieldShell label={label} error={error} hint={hint} id={inputId} hideLabel={hideLabel}>
      <select
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined}
        className={`${controlClasses(Boolean(error))} ${className}`}
        {...rest}
      >
        {children}
      </select>
    </FieldShell>
  );
});

/** Label/value rows for a record's details. */
export function Facts({ items }: { items: [ReactNode, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">
      {items.map(([label, value], i) => (
        <div key={i} className="min-w-0">
          <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
          <dd className="mt-0.5 break-words text-slate-900">{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A table that scrolls sideways on phones instead of squeezing its columns. */
export function Table({ children, label }: { children: ReactNode; label: string }) {
  return (
    // relative: absolutely positioned descendants (sr-only labels) scroll with the table instead of widening the page.
    <div className="relative overflow-x-auto">
      <table className="w-full min-w-[640px] text-left text-sm" aria-label={label}>
        {children}
      </table>
    </div>
  );
}
export const th = 'px-4 py-2.5 text-xs font-semibold tracking-wide text-slate-500 uppercase bg-slate-50';
export const td = 'px-4 py-3 align-top text-slate-800';
