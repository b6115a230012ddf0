import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import type { z } from 'zod';
import { assignForm } from '../../../../server/subscription/schema';
import { DEFAULT_PLAN_TYPE, findPlan, PLAN_TYPE_LABELS, PLAN_TYPES, type PlanType, plansOfType } from '../../../../server/catalogue/plans';
import { planEndDate } from '../../../../server/subscription/period';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { SelectField, TextField } from '../../../components/ui/Field';
import { Modal } from '../../../components/ui/Modal';
import { formatDay, formatRupees, localToday } from '../../../lib/format';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { ClientChoice, type PickedClient, useClientChoice } from '../clients/ClientPicker';

type FormInput = z.input<typeof assignForm>;
type FormValues = z.output<typeof assignForm>;

/**
 * Puts a client on a catalogue plan. The list price and the end date follow
 * from the plan (shown as you choose); the amount received is what was paid.
 */
export function AssignSubscriptionDialog({
  open,
  onOpenChange,
  client: fixedClient,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  client?: PickedClient;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Assign a plan" wide>
      {open && <AssignForm fixedClient={fixedClient} onDone={() => onOpenChange(false)} />}
    </Modal>
  );
}

function AssignForm({ fixedClient, onDone }: { fixedClient?: PickedClient; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const assign = useMutation(trpc.admin.subscriptions.assign.mutationOptions());
  const clientChoice = useClientChoice(fixedClient);
  const firstPlan = plansOfType(DEFAULT_PLAN_TYPE)[0]!;
  const form = useForm<FormInput, unknown, FormValues>({
    resolver: zodResolver(assignForm),
    defaultValues: {
      planType: DEFAULT_PLAN_TYPE,
      planId: firstPlan.id,
      startDate: localToday(),
      amountReceived: String(firstPlan.sellPrice),
    },
  });
  const { errors } = form.formState;
  const planType = form.watch('planType') as PlanType;
  const planId = form.watch('planId');
  const startDate = form.watch('startDate');
  const plan = findPlan(planType, planId ?? '');
  let endDate: string | null = null;
  try {
    endDate = plan && /^\d{4}-\d{2}-\d{2}$/.test(startDate ?? '') ? planEndDate(startDate!, plan) : null;
  } catch {
    endDate = null;
  }

  const onSubmit = form.handleSubmit(async (values) => {
    const client = clientChoice.required('Choose the client');
    if (!client) return;
    try {
      const answer = await overlay.run(assign.mutateAsync({ ...values, clientId: client.id }));
      await queryClient.invalidateQueries(trpc.admin.pathFilter());
      toast.success(answer.message);
      onDone();
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="assign-form">
      <ClientChoice
        choice={clientChoice}
        fixed={
          fixedClient && (
            <>
              Client: <strong>{fixedClient.fullName}</strong>
            </>
          )
        }
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField
          label="Plan type"
          error={errors.planType?.message}
          {...form.register('planType', {
            onChange: (e) => {
              const first = plansOfType(e.target.value as PlanType)[0];
              if (first) {
                form.setValue('planId', first.id);
                form.setValue('amountReceived', String(first.sellPrice));
              }
            },
          })}
        >
          {PLAN_TYPES.map((t) => (
            <option key={t} value={t}>
              {PLAN_TYPE_LABELS[t]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Plan"
          error={errors.planId?.message}
          {...form.register('planId', {
            onChange: (e) => {
              const chosen = findPlan(planType, e.target.value);
              if (chosen) form.setValue('amountReceived', String(chosen.sellPrice));
            },
          })}
        >
          {plansOfType(planType).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} ({p.duration})
            </option>
          ))}
        </SelectField>
        <TextField label="Start date" type="date" error={errors.startDate?.message} {...form.register('startDate')} />
        <TextField
          label="Amount received (₹)"
          inputMode="numeric"
          error={errors.amountReceived?.message}
          {...form.register('amountReceived')}
        />
      </div>
      {plan && (
        <p className="rounded-xl bg-slate-50 p-3 text-sm text-slate-700" data-testid="assign-summary">
          List price {formatRupees(plan.listPrice)} · selling price {formatRupees(plan.sellPrice)} ({plan.discount}% off) · {plan.duration}
          {endDate && (
            <>
              {' '}
              · ends <strong>{formatDay(endDate)}</strong>
            </>
          )}
        </p>
      )}
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit">Assign plan</Button>
      </div>
    </form>
  );
}
