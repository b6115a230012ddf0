import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, FilePlus2, FileText, FileUp, Mail, Pencil, Plus, Power, Star } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { Link, useParams } from 'wouter';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button, buttonClasses } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { Modal } from '../../../components/ui/Modal';
import { formatDay, formatPhone } from '../../../lib/format';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { WeightChart } from '../../../components/charts/WeightChart';
import { ClientCareRecord } from '../../care-record/ClientCareRecord';
import { DietPlanTable } from '../diet-plans/DietPlanTable';
import { formatMoment } from '../format';
import { AssignSubscriptionDialog } from '../subscriptions/AssignSubscriptionDialog';
import { SubscriptionTable } from '../subscriptions/SubscriptionTable';
import { Badge, EmptyState, Facts, LoadError, Loading, Page, Pager } from '../ui';
import { ClientSessionNotesCard } from '../../calls/ConsoleCallCards';
import { ClientJournalCard } from '../../journal/ClientJournalCard';
import { NutritionTargetsCard } from '../../nutrition/targets/TargetsPanel';
import { WeekIntakeChart } from '../../journal/WeekIntakeChart';
import { MessageClientButton } from '../messages/MessageClientButton';

const PLANS_PAGE = 10;

export function ClientPage() {
  const trpc = useTRPC();
  const id = Number(useParams<{ id: string }>().id);
  const client = useQuery(trpc.admin.clients.get.queryOptions({ id }));
  const back = (
    <Link href="/clients" className="mb-3 inline-flex items-center gap-1 text-sm font-semibold text-brand-800 hover:underline">
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      Clients
    </Link>
  );
  if (client.isPending) return <Loading label="Loading the client" />;
  if (client.isError)
    return (
      <Page title="Client" before={back}>
        <LoadError error={client.error} onRetry={() => void client.refetch()} />
      </Page>
    );
  const c = client.data;
  const bmi = c.heightM && c.weightKg ? (c.weightKg / (c.heightM * c.heightM)).toFixed(1) : null;
  return (
    <Page
      title={c.fullName}
      before={back}
      lead={
        <span className="flex flex-wrap items-center gap-2">
          {c.isActive ? <Badge tone="green">Active</Badge> : <Badge tone="red">Deactivated</Badge>}
          {!c.hasPassword && <Badge tone="amber">Has not set a password yet</Badge>}
          <span>Client since {formatDay(c.createdAt.toISOString().slice(0, 10))}</span>
        </span>
      }
      actions={<ClientActions id={c.id} name={c.fullName} isActive={c.isActive} hasPassword={c.hasPassword} />}
    >
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
        <Card title="Profile">
          <div className="p-4 sm:p-5">
            <Facts
              items={[
                ['Email', c.email],
                ['Phone', c.phone ? formatPhone(c.phone) : null],
                ['Height', c.heightM ? `${c.heightM} m` : null],
                ['Weight', c.weightKg ? `${c.weightKg} kg${bmi ? ` · BMI ${bmi}` : ''}` : null],
                ['Condition notes', c.conditionNotes ? <span className="whitespace-pre-line">{c.conditionNotes}</span> : null],
                [
                  'From booking',
                  c.bookingId ? (
                    <Link href="/bookings" className="text-brand-800 hover:underline">
                      #{c.bookingId}
                    </Link>
                  ) : null,
                ],
              ]}
            />
          </div>
        </Card>
        <WeightCard id={c.id} />
        <NutritionTargetsCard clientId={c.id} />
        <ClientJournalCard clientId={c.id} />
        <WeekIntakeChart clientId={c.id} />
        <PlansCard id={c.id} />
        <SubscriptionsCard id={c.id} name={c.fullName} />
        <ClientSessionNotesCard clientId={c.id} />
        <Card title="Rating">
          <div className="p-4 sm:p-5" data-testid="client-rating">
            {c.rating ? (
              <div className="flex flex-col gap-2">
                <p className="flex items-center gap-2 text-lg font-semibold text-slate-900">
                  <Star className="h-5 w-5 fill-amber-400 text-amber-500" aria-hidden="true" />
                  {c.rating.stars} of 5
                  {c.rating.isPublished ? <Badge tone="teal">On the home page</Badge> : <Badge tone="slate">Not published</Badge>}
                </p>
                <p className="text-slate-700">{c.rating.comment || <em className="text-slate-500">No comment.</em>}</p>
                <p className="text-xs text-slate-500">{formatMoment(c.rating.createdAt)}</p>
              </div>
            ) : (
              <p className="text-slate-600">Has not rated the service yet.</p>
            )}
          </div>
        </Card>
      </div>
      <ClientCareRecord clientId={c.id} />
    </Page>
  );
}

function ClientActions({ id, name, isActive, hasPassword }: { id: number; name: string; isActive: boolean; hasPassword: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const setActive = useMutation(trpc.admin.clients.setActive.mutationOptions());
  const resend = useMutation(trpc.admin.clients.resendInvite.mutationOptions());
  const [confirm, setConfirm] = useState(false);

  const run = async (work: Promise<{ message: string }>) => {
    try {
      const answer = await overlay.run(work);
      await queryClient.invalidateQueries(trpc.admin.pathFilter());
      toast.success(answer.message);
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <>
      {isActive && <MessageClientButton clientId={id} />}
      <Link href={`/clients/${id}/edit`} className={buttonClasses('secondary', 'sm')}>
        <Pencil className="h-4 w-4" aria-hidden="true" />
        Edit
      </Link>
      {isActive && !hasPassword && (
        <Button variant="secondary" size="sm" onClick={() => void run(resend.mutateAsync({ id }))}>
          <Mail className="h-4 w-4" aria-hidden="true" />
          Resend set-password link
        </Button>
      )}
      {isActive ? (
        <Button variant="dangerSecondary" size="sm" onClick={() => setConfirm(true)}>
          <Power className="h-4 w-4" aria-hidden="true" />
          Deactivate
        </Button>
      ) : (
        <Button size="sm" onClick={() => void run(setActive.mutateAsync({ id, active: true }))}>
          <Power className="h-4 w-4" aria-hidden="true" />
          Reactivate
        </Button>
      )}
      <Modal
        open={confirm}
        onOpenChange={setConfirm}
        title={`Deactivate ${name}?`}
        description="They are signed out everywhere at once and cannot sign in until you reactivate the account. Their plans and history are kept."
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirm(false)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                setConfirm(false);
                void run(setActive.mutateAsync({ id, active: false }));
              }}
            >
              Deactivate
            </Button>
          </>
        }
      >
        {null}
      </Modal>
    </>
  );
}

function WeightCard({ id }: { id: number }) {
  const trpc = useTRPC();
  const weights = useQuery(trpc.admin.clients.weights.queryOptions({ id }));
  // The target weight of the client's current goals draws the chart's target line (as on the client's own page).
  const goals = useQuery(trpc.careRecord.goals.get.queryOptions({ clientId: id }));
  const goal = goals.data?.current;
  return (
    <Card title="Weight">
      <div className="p-4 sm:p-5">
        {weights.isPending ? (
          <Loading label="Loading weights" />
        ) : weights.isError ? (
          <LoadError error={weights.error} onRetry={() => void weights.refetch()} />
        ) : (
          <WeightChart
            entries={weights.data}
            caption
            empty="No weights recorded yet."
            target={goal?.targetWeightKg != null ? { weight: goal.targetWeightKg, date: goal.targetDate } : null}
          />
        )}
      </div>
    </Card>
  );
}

function PlansCard({ id }: { id: number }) {
  const trpc = useTRPC();
  const [page, setPage] = useState(0);
  const plans = useQuery({
    ...trpc.admin.dietPlans.list.queryOptions({ clientId: id, page, pageSize: PLANS_PAGE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Card
      title="Diet plans"
      className="lg:col-span-2"
      actions={
        <>
          <Link href={`/diet-plans/new?client=${id}&mode=compose`} className={buttonClasses('primary', 'sm')}>
            <FilePlus2 className="h-4 w-4" aria-hidden="true" />
            Compose plan
          </Link>
          <Link href={`/diet-plans/new?client=${id}&mode=upload`} className={buttonClasses('secondary', 'sm')}>
            <FileUp className="h-4 w-4" aria-hidden="true" />
            Upload PDF
          </Link>
        </>
      }
    >
      {plans.isPending ? (
        <Loading label="Loading plans" />
      ) : plans.isError ? (
        <LoadError error={plans.error} onRetry={() => void plans.refetch()} />
      ) : plans.data.items.length === 0 ? (
        <EmptyState Icon={FileText}>No diet plans yet.</EmptyState>
      ) : (
        <>
          <DietPlanTable items={plans.data.items} showClient={false} />
          {plans.data.total > PLANS_PAGE && (
            <Pager page={page} pageSize={PLANS_PAGE} total={plans.data.total} onPage={setPage} label="plans" />
          )}
        </>
      )}
    </Card>
  );
}

function SubscriptionsCard({ id, name }: { id: number; name: string }) {
  const trpc = useTRPC();
  const [page, setPage] = useState(0);
  const [assigning, setAssigning] = useState(false);
  const subs = useQuery({
    ...trpc.admin.subscriptions.list.queryOptions({ clientId: id, page, pageSize: 10 }),
    placeholderData: keepPreviousData,
  });
  return (
    <Card
      title="Subscriptions"
      className="lg:col-span-2"
      actions={
        <Button size="sm" onClick={() => setAssigning(true)}>
          <Plus className="h-4 w-4" aria-hidden="true" />
          Assign a plan
        </Button>
      }
    >
      {subs.isPending ? (
        <Loading label="Loading subscriptions" />
      ) : subs.isError ? (
        <LoadError error={subs.error} onRetry={() => void subs.refetch()} />
      ) : subs.data.items.length === 0 ? (
        <EmptyState Icon={FileText}>No subscriptions yet.</EmptyState>
      ) : (
        <>
          <SubscriptionTable items={subs.data.items} showClient={false} />
          {subs.data.total > 10 && <Pager page={page} pageSize={10} total={subs.data.total} onPage={setPage} label="subscriptions" />}
        </>
      )}
      <AssignSubscriptionDialog open={assigning} onOpenChange={setAssigning} client={{ id, fullName: name }} />
    </Card>
  );
}
