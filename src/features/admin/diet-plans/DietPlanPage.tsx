import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Download, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { Link, useLocation, useParams } from 'wouter';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button, buttonClasses } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { Modal } from '../../../components/ui/Modal';
import { formatDay } from '../../../lib/format';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { formatBytes, formatMoment, openPdf } from '../format';
import { Badge, Facts, LoadError, Loading, Page, Table, td, th } from '../ui';
import { type DietPlanView, portionText, timeText } from '../../../../server/diet-plan/schema';
import type { Total } from '../../../../server/nutrition/compute';
import type { NutrientKey } from '../../../../server/nutrition/nutrients';
import { NutrientTotalsRow } from '../../nutrition/NutrientTotals';
import { unlinkedNote } from './PlanSumsView';

export function DietPlanPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const [, navigate] = useLocation();
  const id = Number(useParams<{ id: string }>().id);
  const plan = useQuery({ ...trpc.admin.dietPlans.get.queryOptions({ id }), staleTime: 0 });
  // What each day adds up to (the plan's read, the same sums as the builder and the PDF).
  const sums = useQuery({ ...trpc.dietPlan.get.queryOptions({ id }), enabled: plan.data?.source === 'composed' });
  const remove = useMutation(trpc.admin.dietPlans.remove.mutationOptions());
  const [confirm, setConfirm] = useState(false);

  const back = (
    <Link
      href={plan.data ? `/clients/${plan.data.client.id}` : '/diet-plans'}
      className="mb-3 inline-flex items-center gap-1 text-sm font-semibold text-brand-800 hover:underline"
    >
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      {plan.data ? plan.data.client.fullName : 'Diet plans'}
    </Link>
  );
  if (plan.isPending) return <Loading label="Loading the plan" />;
  if (plan.isError)
    return (
      <Page title="Diet plan" before={back}>
        <LoadError error={plan.error} onRetry={() => void plan.refetch()} />
      </Page>
    );
  const p = plan.data;

  const openVersion = async (version: number) => {
    const win = window.open('', '_blank');
    try {
      const file = await overlay.run(queryClient.fetchQuery(trpc.admin.dietPlans.versionPdf.queryOptions({ id: p.id, version })));
      openPdf(file.base64, win);
    } catch (error) {
      win?.close();
      toastError(error);
    }
  };

  const onDelete = async () => {
    try {
      const answer = await overlay.run(remove.mutateAsync({ id: p.id }));
      await queryClient.invalidateQueries(trpc.admin.pathFilter());
      toast.success(answer.message);
      navigate(`/clients/${p.client.id}`);
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <Page
      title={p.title}
      before={back}
      lead={
        <span className="flex flex-wrap items-center gap-2">
          {p.source === 'composed' ? <Badge tone="teal">Composed</Badge> : <Badge tone="slate">Uploaded PDF</Badge>}
          <span>
            Version {p.version} · {formatDay(p.from)} – {formatDay(p.to)}
          </span>
        </span>
      }
      actions={
        <>
          <a href={p.pdfURL} target="_blank" rel="noopener" className={buttonClasses('secondary', 'sm')}>
            <Download className="h-4 w-4" aria-hidden="true" />
            Open PDF
          </a>
          <Link href={`/diet-plans/${p.id}/edit`} className={buttonClasses('primary', 'sm')}>
            <Pencil className="h-4 w-4" aria-hidden="true" />
            Edit
          </Link>
          <Button variant="danger" size="sm" onClick={() => setConfirm(true)}>
            <Trash2 className="h-4 w-4" aria-hidden="true" />
            Delete
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-5">
        <Card title="Details">
          <div className="p-4 sm:p-5">
            <Facts
              items={[
                [
                  'Client',
                  <Link key="c" href={`/clients/${p.client.id}`} className="text-brand-800 hover:underline">
                    {p.client.fullName}
                  </Link>,
                ],
                ['Period', `${formatDay(p.from)} – ${formatDay(p.to)}`],
                ['PDF', formatBytes(p.bytes)],
                ['Last saved', formatMoment(p.updatedAt)],
              ]}
            />
          </div>
        </Card>
        {p.content && (
          <Card title="Meals">
            <div className="flex flex-col gap-4 p-4 sm:p-5" data-testid="plan-meals">
              {p.content.days.map((day, d) => (
                <section key={d}>
                  <h3 className="mb-2 font-semibold text-brand-900">{day.label}</h3>
                  <ul className="flex flex-col gap-1.5 text-sm">
                    {day.meals.map((meal, m) => (
                      <li key={m} className="flex flex-col gap-0.5 sm:flex-row sm:gap-3">
                        <span className="w-36 shrink-0 font-medium text-slate-700">
                          {timeText(meal.time)} · {meal.name}
                        </span>
                        <span className="text-slate-900">
                          {meal.items.map((item) => `${item.food} — ${portionText(item.portion)}`).join('; ')}
                          {meal.notes && <span className="block text-slate-500">{meal.notes}</span>}
                        </span>
                      </li>
                    ))}
                  </ul>
                  <DayTotal view={sums.data} d={d} />
                </section>
              ))}
            </div>
          </Card>
        )}
        <Card title="Versions">
          <Table label="Versions">
            <thead>
              <tr>
                <th className={th}>Version</th>
                <th className={th}>Title and period</th>
                <th className={th}>Kind</th>
                <th className={th}>Saved</th>
                <th className={th}>
                  <span className="sr-only">PDF</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100" data-testid="plan-versions">
              {p.versions.map((v) => (
                <tr key={v.version}>
                  <td className={td}>
                    v{v.version} {v.current && <Badge tone="green">Client sees this</Badge>}
                  </td>
                  <td className={td} data-label="Title and period">
                    {v.title}
                    <span className="block text-xs text-slate-500">
                      {formatDay(v.from)} – {formatDay(v.to)}
                    </span>
                  </td>
                  <td className={td} data-label="Kind">
                    {v.source === 'composed' ? 'Composed' : 'Uploaded'}
                  </td>
                  <td className={td} data-label="Saved">
                    {formatMoment(v.createdAt)}
                    {v.createdBy && <span className="block text-xs text-slate-500">by {v.createdBy}</span>}
                  </td>
                  <td className={`${td} text-right`}>
                    <Button size="sm" variant="ghost" onClick={() => void openVersion(v.version)}>
                      Open
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Card>
      </div>
      <Modal
        open={confirm}
        onOpenChange={setConfirm}
        title="Delete this plan?"
        description={`${p.title} and all ${p.versions.length} of its versions will be gone, for the client too.`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirm(false)}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void onDelete()}>
              Delete plan
            </Button>
          </>
        }
      >
        {null}
      </Modal>
    </Page>
  );
}

/** A composed day's totals on one line, when any of its foods is linked to the library. */
function DayTotal({ view, d }: { view: DietPlanView | undefined; d: number }) {
  const total = view?.days?.[d]?.total;
  if (!view || !total || total.items === 0) return null;
  return (
    <div className="mt-2 rounded-lg bg-slate-50 px-3 py-2" data-testid="plan-day-total">
      <NutrientTotalsRow
        total={total as Total}
        nutrients={view.nutrients as NutrientKey[]}
        label={`${view.days?.[d]?.label ?? `Day ${d + 1}`} adds up to`}
      />
      {total.unlinked > 0 && <p className="mt-0.5 text-xs text-slate-600">{unlinkedNote(total)}</p>}
    </div>
  );
}
