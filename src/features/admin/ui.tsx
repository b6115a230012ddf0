import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Page as BasePage, type PageProps } from '../../components/ui/Page';
import { Card } from '../../components/ui/Card';
import { PagerArrows } from '../../components/ui/PagerArrows';
import {
  EmptyState as BaseEmptyState,
  LoadError as BaseLoadError,
  Loading as BaseLoading,
  type EmptyStateProps,
  type LoadErrorProps,
  type LoadingProps,
} from '../../components/ui/States';

/**
 * The console's building blocks, one look for every screen: the shared
 * primitives at the console's width and density, and what only the console uses.
 */

/** A console screen: wider than the client's, and its tab says Console. */
export function Page(props: PageProps) {
  return <BasePage {...props} width={props.width ?? 'max-w-6xl'} documentTitle={`${props.title} · Console`} />;
}

export const EmptyState = (props: EmptyStateProps) => <BaseEmptyState compact {...props} />;
export const Loading = (props: LoadingProps) => <BaseLoading compact {...props} />;
export const LoadError = (props: LoadErrorProps) => <BaseLoadError compact {...props} />;

/**
 * The states every paged console list goes through: loading, failed (with
 * retry), empty, then the list itself, which `children` renders from the page.
 */
export function QueryStates<T extends { items: readonly unknown[] }>({
  query,
  loadingLabel,
  empty,
  children,
}: {
  query: UseQueryResult<T, unknown>;
  loadingLabel: string;
  empty: ReactNode;
  children: (result: T) => ReactNode;
}) {
  if (query.isPending) return <Loading label={loadingLabel} />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.items.length === 0) return <>{empty}</>;
  return <>{children(query.data)}</>;
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
      <PagerArrows hasPrevious={page > 0} hasNext={page < last} onPrevious={() => onPage(page - 1)} onNext={() => onPage(page + 1)} />
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
    // On a phone the chips fill the row they are on, so a wrapped one is a full segment, not a loose label.
    <div role="radiogroup" aria-label={label} className="flex flex-wrap gap-1 rounded-xl bg-slate-100 p-1 sm:w-fit">
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={value === o.value}
          onClick={() => onChange(o.value)}
          className={`grow rounded-lg px-3 py-1.5 text-center text-sm font-medium ${value === o.value ? 'bg-white text-brand-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'}`}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

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

/**
 * A console table. On phones (below 640 px) each row becomes a stacked card
 * (styles.css, .stack-table): the headings are read out but not shown, and
 * each cell is a line headed by its `data-label`; a cell without one (the
 * row's name, its actions) stands alone. Every column, Status and the
 * actions included, stays on screen without scrolling sideways.
 */
export function Table({ children, label }: { children: ReactNode; label: string }) {
  return (
    // relative: absolutely positioned descendants (sr-only labels) stay inside instead of widening the page.
    <div className="relative overflow-x-auto">
      <table className="stack-table w-full text-left text-sm sm:min-w-[640px]" aria-label={label}>
        {children}
      </table>
    </div>
  );
}
export const th = 'px-4 py-2.5 text-xs font-semibold tracking-wide text-slate-500 uppercase bg-slate-50';
export const td = 'px-4 py-3 align-top text-slate-800';

/** A filter and the page of its list: choosing another filter goes back to the first page. */
export function useFilteredPages<T extends string>(initial: T) {
  const [filter, setFilter] = useState<T>(initial);
  const [page, setPage] = useState(0);
  const choose = (next: T) => {
    setFilter(next);
    setPage(0);
  };
  return { filter, choose, page, setPage };
}

/**
 * A paged list of cards under a row of filter chips (Bookings, Support): the
 * filter, the loading, error and empty states, one card per item and the pager.
 */
export function FilteredCardList<F extends string, T extends { items: readonly { id: number }[]; total: number }>({
  filterLabel,
  filters,
  pages,
  query,
  loadingLabel,
  empty,
  testId,
  pageSize,
  pagerLabel,
  children,
}: {
  filterLabel: string;
  filters: readonly { value: F; label: string }[];
  pages: ReturnType<typeof useFilteredPages<F>>;
  query: UseQueryResult<T, unknown>;
  loadingLabel: string;
  /** What an empty list says, inside its card. */
  empty: ReactNode;
  testId: string;
  pageSize: number;
  pagerLabel: string;
  children: (item: T['items'][number]) => ReactNode;
}) {
  return (
    <>
      <div className="mb-4">
        <Segmented label={filterLabel} value={pages.filter} options={filters} onChange={pages.choose} />
      </div>
      <QueryStates query={query} loadingLabel={loadingLabel} empty={<Card>{empty}</Card>}>
        {(result) => (
          <div className="flex flex-col gap-4" data-testid={testId}>
            {result.items.map((item) => children(item))}
            <Card>
              <Pager page={pages.page} pageSize={pageSize} total={result.total} onPage={pages.setPage} label={pagerLabel} />
            </Card>
          </div>
        )}
      </QueryStates>
    </>
  );
}
