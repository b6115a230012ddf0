import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Download, FileText } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import type { DietPlanRow } from '../../../../server/diet-plan/schema';
import { buttonClasses } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { Page } from '../../../components/ui/Page';
import { PagerArrows } from '../../../components/ui/PagerArrows';
import { EmptyState, LoadError, Loading } from '../../../components/ui/States';
import { formatDay } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';

/** Signed PDF links live 15 minutes; the list refreshes every 10 so a link on screen always works. */
const PDF_LINK_REFRESH_MS = 10 * 60_000;

/** '1 – 28 Dec 2026': a plan's dates in the one date format, the shared month and year written once. */
export function formatDayRange(from: string, to: string): string {
  const a = formatDay(from);
  const b = formatDay(to);
  if (from.slice(0, 7) === to.slice(0, 7) && a !== 'Invalid date' && b !== 'Invalid date') return `${a.split(' ')[0]} – ${b}`;
  return `${a} – ${b}`;
}

/** Page sizes 10, 25 and 100; 10 by default. Pages are zero-based on the server. */
export const PAGE_SIZES = [10, 25, 100] as const;
type PageSize = (typeof PAGE_SIZES)[number];

export function DietPlansPage() {
  const trpc = useTRPC();
  const [page, setPage] = useState(0);
  const [count, setCount] = useState<PageSize>(10);
  // PDF links are signed for 15 minutes (docs/decisions/013): refresh them well before they lapse.
  const plans = useQuery({
    ...trpc.dietPlan.list.queryOptions({ page, count }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: PDF_LINK_REFRESH_MS,
  });
  const sizeId = useId();

  const total = plans.data?.count ?? 0;
  const rows = plans.data?.data ?? [];
  const lastPage = Math.max(0, Math.ceil(total / count) - 1);
  // Plans can disappear between visits: never stay on a page past the end.
  useEffect(() => {
    if (plans.data && !plans.isPlaceholderData && page > lastPage) setPage(lastPage);
  }, [plans.data, plans.isPlaceholderData, page, lastPage]);

  const first = total === 0 ? 0 : page * count + 1;
  const last = Math.min(total, (page + 1) * count);

  return (
    <Page title="My Diet Plans" lead="Every plan your dietitian has prepared for you. Download any of them as a PDF." width="max-w-4xl">
      <Card className="overflow-hidden">
        {plans.isPending ? (
          <Loading label="Loading your diet plans" />
        ) : plans.isError && !plans.data ? (
          <LoadError error={plans.error} onRetry={() => void plans.refetch()} />
        ) : total === 0 ? (
          <EmptyState Icon={FileText} testId="plans-empty">
            No updated plans!
          </EmptyState>
        ) : (
          <>
            <ul className={`divide-y divide-slate-100 sm:hidden ${plans.isPlaceholderData ? 'opacity-60' : ''}`} data-testid="plans-cards">
              {rows.map((plan) => (
                <li key={plan.id} className="flex items-center justify-between gap-3 px-4 py-3">
                  <div className="min-w-0 text-sm">
                    <p className="font-semibold break-words text-slate-900" data-testid="plan-title">
                      {plan.title}
                    </p>
                    <p className="text-slate-700">
                      {formatDayRange(plan.from, plan.to)} <span className="text-slate-500">· ID {plan.id}</span>
                    </p>
                  </div>
                  <PdfLink plan={plan} />
                </li>
              ))}
            </ul>
            <div className="hidden overflow-x-auto sm:block">
              <table className="w-full text-left text-base" data-testid="plans-table">
                <caption className="sr-only">Your diet plans, newest first</caption>
                <thead className="bg-brand-50 text-xs font-semibold tracking-wide text-brand-900 uppercase">
                  <tr>
                    <th scope="col" className="px-4 py-3">
                      ID
                    </th>
                    <th scope="col" className="px-4 py-3">
                      FROM
                    </th>
                    <th scope="col" className="px-4 py-3">
                      TO
                    </th>
                    <th scope="col" className="px-4 py-3">
                      DIET PLAN
                    </th>
                  </tr>
                </thead>
                <tbody className={`divide-y divide-slate-100 ${plans.isPlaceholderData ? 'opacity-60' : ''}`}>
                  {rows.map((plan) => (
                    <tr key={plan.id} className="hover:bg-slate-50">
                      <td className="px-4 py-3 font-medium text-slate-900 tabular-nums">{plan.id}</td>
                      <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDay(plan.from)}</td>
                      <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDay(plan.to)}</td>
                      <td className="px-4 py-2">
                        <div className="flex items-center justify-between gap-4">
                          <span className="min-w-0 font-medium break-words text-slate-900" data-testid="plan-title">
                            {plan.title}
                          </span>
                          <PdfLink plan={plan} />
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="flex flex-wrap items-center justify-end gap-x-6 gap-y-2 border-t border-slate-100 px-4 py-3 text-sm text-slate-700">
              <label htmlFor={sizeId} className="flex items-center gap-2">
                Rows per page
                <select
                  id={sizeId}
                  value={count}
                  onChange={(e) => {
                    setCount(Number(e.target.value) as PageSize);
                    setPage(0);
                  }}
                  className="rounded-md border border-slate-300 bg-white px-2 py-1"
                >
                  {PAGE_SIZES.map((size) => (
                    <option key={size} value={size}>
                      {size}
                    </option>
                  ))}
                </select>
              </label>
              <span aria-live="polite" data-testid="plans-range">
                {first}–{last} of {total}
              </span>
              <PagerArrows
                hasPrevious={page > 0}
                hasNext={page < lastPage}
                onPrevious={() => setPage((p) => Math.max(0, p - 1))}
                onNext={() => setPage((p) => Math.min(lastPage, p + 1))}
              />
            </div>
          </>
        )}
      </Card>
    </Page>
  );
}

/** The PDF opens in a new tab through its short-lived signed link (no bearer header needed). */
function PdfLink({ plan }: { plan: DietPlanRow }) {
  return (
    <a
      href={plan.pdfURL}
      target="_blank"
      rel="noopener noreferrer"
      className={buttonClasses('secondary', 'sm', 'shrink-0 whitespace-nowrap')}
      aria-label={`Download PDF of “${plan.title}”, ${formatDay(plan.from)} to ${formatDay(plan.to)} (opens in a new tab)`}
    >
      <Download className="h-4 w-4" aria-hidden="true" />
      Download PDF
    </a>
  );
}
