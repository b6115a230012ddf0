import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { recordPaymentForm } from '../../../../server/payments/schema';
import { Button } from '../../../components/ui/Button';
import { SelectField, TextField } from '../../../components/ui/Field';
import { Modal } from '../../../components/ui/Modal';
import { fieldErrors } from '../../../lib/errors';
import { formatDay, localToday } from '../../../lib/format';
import { toastError } from '../../../lib/notify';
import { newRequestKey } from '../../../lib/request-key';
import { applyServerErrors } from '../../../lib/server-errors';
import { toast } from '../../../lib/toast';
import { useTRPC } from '../../../lib/trpc';
import { formatPaise, type InvoiceView } from '../../payments/format';
import { useRefreshPayments } from './shared';

/** What paying the invoice will start, said before the dietitian commits to it. */
function PlanOnPayment({ invoice }: { invoice: InvoiceView }) {
  const trpc = useTRPC();
  const plan = useQuery({ ...trpc.admin.payments.planOnPayment.queryOptions({ id: invoice.id }), staleTime: 0 });
  if (!invoice.plan) return <p className="text-slate-700">This invoice has no plan: nothing else changes.</p>;
  if (plan.isPending) return <p className="text-slate-700">Working out when the plan starts…</p>;
  if (plan.isError || !plan.data) return <p className="text-slate-700">This also starts the invoice’s plan for {invoice.client.name}.</p>;
  return (
    <p className="rounded-lg bg-brand-50 p-3 text-slate-900" data-testid="plan-on-payment">
      This starts <strong>{plan.data.planName}</strong> for {invoice.client.name}, from <strong>{formatDay(plan.data.startDate)}</strong> to{' '}
      {formatDay(plan.data.endDate)}.
    </p>
  );
}

/** Confirm asks first: the UTR to look for in the bank account, and the plan it starts. Then it says what it did. */
export function ConfirmPaymentDialog({ invoice, onClose }: { invoice: InvoiceView; onClose: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefreshPayments();
  const confirm = useMutation(trpc.admin.payments.confirm.mutationOptions());
  const onConfirm = async () => {
    try {
      const res = await confirm.mutateAsync({ id: invoice.id });
      toast.success(res.message);
      await refresh();
      onClose();
    } catch (error) {
      toastError(error);
    }
  };
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Confirm the payment for ${invoice.number}?`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Not yet
          </Button>
          <Button onClick={() => void onConfirm()} disabled={confirm.isPending}>
            {invoice.plan ? 'Confirm and start the plan' : 'Confirm payment'}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3 text-sm">
        <p className="text-slate-800">
          {invoice.client.name} says they paid <strong>{formatPaise(invoice.totalPaise)}</strong> by UPI
          {invoice.claim ? (
            <>
              {' '}
              with UTR <strong className="tabular-nums">{invoice.claim.utr}</strong>
            </>
          ) : null}
          . Confirm only once you see it in the clinic’s account.
        </p>
        <PlanOnPayment invoice={invoice} />
      </div>
    </Modal>
  );
}

/** Cash or a bank transfer the clinic received for an invoice: it pays the invoice whole, like a confirmed claim. */
export function RecordPaymentDialog({ invoice, onClose }: { invoice: InvoiceView; onClose: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefreshPayments();
  const record = useMutation(trpc.admin.payments.recordPayment.mutationOptions());
  const [key] = useState(newRequestKey);
  const form = useForm<z.input<typeof recordPaymentForm>, unknown, z.output<typeof recordPaymentForm>>({
    resolver: zodResolver(recordPaymentForm),
    defaultValues: { method: 'cash', amount: (invoice.totalPaise / 100).toFixed(2), reference: '', receivedOn: localToday() },
  });
  const { errors } = form.formState;
  const method = form.watch('method');
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const res = await record.mutateAsync({ ...values, id: invoice.id, clientRequestId: key });
      toast.success(res.message);
      await refresh();
      onClose();
    } catch (error) {
      // The server names the amount in paise; the form holds it in rupees.
      const amountError = fieldErrors(error).amountPaise?.[0];
      if (amountError) form.setError('amount', { message: amountError }, { shouldFocus: true });
      else if (!applyServerErrors(form, error, ['method', 'reference', 'receivedOn'])) toastError(error);
    }
  });
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Record a payment for ${invoice.number}`}
      footer={
        <Button type="submit" form="record-payment" disabled={form.formState.isSubmitting}>
          Record payment
        </Button>
      }
    >
      <form id="record-payment" method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-4 text-sm">
        <p className="text-slate-800">
          For payments that reached the clinic outside the app: cash, or a bank transfer. {invoice.client.name} owes{' '}
          <strong>{formatPaise(invoice.totalPaise)}</strong>.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField label="How it was paid" error={errors.method?.message} {...form.register('method')}>
            <option value="cash">Cash</option>
            <option value="bank_transfer">Bank transfer</option>
          </SelectField>
          <TextField label="Amount received (₹)" inputMode="decimal" error={errors.amount?.message} {...form.register('amount')} />
          <TextField
            label={method === 'bank_transfer' ? 'Bank reference (UTR)' : 'Receipt number (optional)'}
            autoComplete="off"
            error={errors.reference?.message}
            {...form.register('reference')}
          />
          <TextField
            label="Day received"
            type="date"
            max={localToday()}
            error={errors.receivedOn?.message}
            {...form.register('receivedOn')}
          />
        </div>
        <PlanOnPayment invoice={invoice} />
      </form>
    </Modal>
  );
}
