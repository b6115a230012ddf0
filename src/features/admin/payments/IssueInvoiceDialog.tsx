import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { PLAN_TYPE_LABELS, PLAN_TYPES, type PlanType, plansOfType } from '../../../../server/catalogue/plans';
import { issueInvoiceForm } from '../../../../server/payments/schema';
import { Button } from '../../../components/ui/Button';
import { SelectField, TextField } from '../../../components/ui/Field';
import { Modal } from '../../../components/ui/Modal';
import { toastError } from '../../../lib/notify';
import { newRequestKey } from '../../../lib/request-key';
import { applyServerErrors } from '../../../lib/server-errors';
import { toast } from '../../../lib/toast';
import { useTRPC } from '../../../lib/trpc';
import { formatPaise } from '../../payments/format';
import { ClientPicker, type PickedClient } from '../clients/ClientPicker';
import { InvoicePreview } from './InvoicePreview';
import { StateOptions, useRefreshPayments } from './shared';

/**
 * Issue an invoice: a client found by name, email or phone, a catalogue plan
 * and/or a custom line, a discount, the client's state, and beside them the
 * invoice as it will be issued (lines, discount, tax split, total), worked
 * out live with the server's own arithmetic.
 */
export function IssueInvoiceDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefreshPayments();
  const settings = useQuery(trpc.admin.payments.settings.queryOptions());
  const create = useMutation(trpc.admin.payments.issue.mutationOptions());
  const [key] = useState(newRequestKey);
  const [client, setClient] = useState<PickedClient>();
  const form = useForm<z.input<typeof issueInvoiceForm>, unknown, z.output<typeof issueInvoiceForm>>({
    resolver: zodResolver(issueInvoiceForm),
    defaultValues: { clientId: '', planType: 'WL', planId: '', lineDescription: '', linePrice: '', discount: '', clientStateCode: '' },
  });
  const { errors } = form.formState;
  const draft = form.watch();
  const planType = draft.planType as PlanType;
  const registered = Boolean(settings.data?.gstin);
  const choose = (picked?: PickedClient) => {
    setClient(picked);
    form.setValue('clientId', picked ? String(picked.id) : '', { shouldValidate: form.formState.isSubmitted });
  };
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const made = await create.mutateAsync({ ...values, clientRequestId: key });
      toast.success(`Invoice ${made.number} issued for ${formatPaise(made.totalPaise)}.`);
      await refresh();
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, error, ['clientId', 'clientStateCode'])) toastError(error);
    }
  });
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title="Issue an invoice"
      wide
      footer={
        <Button type="submit" form="issue-invoice" disabled={form.formState.isSubmitting}>
          Issue invoice
        </Button>
      }
    >
      <form id="issue-invoice" method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {settings.data === null && <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">Set the billing details first.</p>}
        <ClientPicker value={client} onChange={choose} error={errors.clientId?.message} />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Plan type"
            error={errors.planType?.message}
            {...form.register('planType', { onChange: () => form.setValue('planId', '') })}
          >
            {PLAN_TYPES.map((t) => (
              <option key={t} value={t}>
                {PLAN_TYPE_LABELS[t]}
              </option>
            ))}
          </SelectField>
          <SelectField label="Plan (starts on payment)" error={errors.planId?.message} {...form.register('planId')}>
            <option value="">No plan</option>
            {plansOfType(planType).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} · {p.duration} · ₹{p.sellPrice.toLocaleString('en-IN')} before GST
              </option>
            ))}
          </SelectField>
        </div>
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <TextField label="Custom line (optional)" error={errors.lineDescription?.message} {...form.register('lineDescription')} />
          <TextField label="Its price (₹)" inputMode="decimal" error={errors.linePrice?.message} {...form.register('linePrice')} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Discount (₹, optional)" inputMode="decimal" error={errors.discount?.message} {...form.register('discount')} />
          <SelectField
            label={registered ? 'Client’s state (place of supply)' : 'Client’s state (optional)'}
            error={errors.clientStateCode?.message}
            {...form.register('clientStateCode')}
          >
            <StateOptions blank="Choose a state" />
          </SelectField>
        </div>
        <InvoicePreview
          draft={{
            planType,
            planId: draft.planId ?? '',
            lineDescription: draft.lineDescription ?? '',
            linePrice: draft.linePrice ?? '',
            discount: draft.discount ?? '',
            clientStateCode: draft.clientStateCode ?? '',
          }}
          settings={settings.data ?? null}
        />
      </form>
    </Modal>
  );
}
