import { zodResolver } from '@hookform/resolvers/zod';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, IndianRupee, Plus, Settings } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  type BillingSettings,
  type BillingSettingsInput,
  billingSettingsInput,
  DEFAULT_SAC,
  financialYearOf,
  PAID_VIA_LABEL,
  reasonForm,
  TAX_RATES_BP,
} from '../../../../server/payments/schema';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/Field';
import { Modal } from '../../../components/ui/Modal';
import { formatDay, localToday } from '../../../lib/format';
import { toastError } from '../../../lib/notify';
import { applyServerErrors } from '../../../lib/server-errors';
import { toast } from '../../../lib/toast';
import { useTRPC } from '../../../lib/trpc';
import { useLiveInvoices } from '../../payments/use-live-invoices';
import { IssueInvoiceDialog } from './IssueInvoiceDialog';
import { ConfirmPaymentDialog, RecordPaymentDialog } from './PaymentDialogs';
import { StateOptions, useRefreshPayments } from './shared';
import { formatPaise, type InvoiceView, STATUS_LABEL, statusOf, statusTone } from '../../payments/format';
import { EmptyState, LoadError, Loading, Page, Pager, Segmented, Table, td, th } from '../ui';

const PAGE_SIZE = 25;
const FILTERS = [
  { value: 'claimed', label: 'Claimed' },
  { value: 'issued', label: 'Issued' },
  { value: 'overdue', label: 'Overdue' },
  { value: 'paid', label: 'Paid' },
  { value: 'void', label: 'Void' },
  { value: 'all', label: 'All' },
] as const;
type Filter = (typeof FILTERS)[number]['value'];

/** The console's Payments: the figures, invoices by status with their decisions, issuing, billing details and the CSV. */
export function PaymentsPage() {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(0);
  const [issuing, setIssuing] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const summary = useQuery(trpc.admin.payments.summary.queryOptions());
  const list = useQuery({
    ...trpc.invoice.list.queryOptions({ status: filter, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  // A claim, a payment online, a change by another dietitian: the list and the figures follow live.
  useLiveInvoices([trpc.admin.payments.summary.queryKey()]);
  return (
    <Page
      title="Payments"
      lead="Invoices, UPI payments to confirm, and the accountant’s export."
      actions={
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setSettingsOpen(true)}>
            <Settings className="h-4 w-4" aria-hidden="true" />
            Billing details
          </Button>
          <Button onClick={() => setIssuing(true)}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Issue an invoice
          </Button>
        </div>
      }
    >
      <div className="mb-5 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Figure label="Collected this month" value={summary.data ? formatPaise(summary.data.collectedThisMonthPaise) : '…'} />
        <Figure label="Outstanding" value={summary.data ? formatPaise(summary.data.outstandingPaise) : '…'} />
        <Figure label="Claimed, to confirm" value={summary.data ? String(summary.data.counts.claimed) : '…'} />
        <Figure label="Overdue" value={summary.data ? String(summary.data.counts.overdue) : '…'} />
      </div>
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 p-4">
          <Segmented
            label="Which invoices"
            value={filter}
            options={FILTERS}
            onChange={(f) => {
              setFilter(f);
              setPage(0);
            }}
          />
          <CsvExport />
        </div>
        {list.isPending ? (
          <Loading label="Loading invoices" />
        ) : list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.items.length === 0 ? (
          <EmptyState Icon={IndianRupee}>No invoices here.</EmptyState>
        ) : (
          <>
            <InvoiceTable items={list.data.items} />
            <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} label="invoices" />
          </>
        )}
      </Card>
      {issuing && <IssueInvoiceDialog onClose={() => setIssuing(false)} />}
      {settingsOpen && <BillingSettingsDialog onClose={() => setSettingsOpen(false)} />}
    </Page>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Card className="p-4">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 text-xl font-bold text-slate-900">{value}</p>
    </Card>
  );
}

function InvoiceTable({ items }: { items: InvoiceView[] }) {
  const [deciding, setDeciding] = useState<{ invoice: InvoiceView; action: 'reject' | 'void' } | null>(null);
  const [confirming, setConfirming] = useState<InvoiceView | null>(null);
  const [recording, setRecording] = useState<InvoiceView | null>(null);
  return (
    <>
      <Table label="Invoices">
        <thead>
          <tr>
            <th className={th}>Number</th>
            <th className={th}>Client</th>
            <th className={th}>Issued</th>
            <th className={`${th} text-right`}>Total</th>
            <th className={th}>Status</th>
            <th className={th}>Action</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((inv) => {
            const s = statusOf(inv);
            return (
              <tr key={inv.id} data-testid="invoice-row">
                <td className={`${td} font-semibold whitespace-nowrap`}>{inv.number}</td>
                <td className={td}>{inv.client.name}</td>
                <td className={`${td} whitespace-nowrap`}>{formatDay(inv.issuedOn)}</td>
                <td className={`${td} text-right whitespace-nowrap`}>{formatPaise(inv.totalPaise)}</td>
                <td className={td}>
                  <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${statusTone(s)}`}>
                    {STATUS_LABEL[s]}
                  </span>
                  {inv.status === 'claimed' && inv.claim && <p className="mt-1 text-xs text-slate-600">UTR {inv.claim.utr}</p>}
                  {inv.status === 'paid' && inv.paidVia && (
                    <p className="mt-1 text-xs text-slate-600">
                      {PAID_VIA_LABEL[inv.paidVia]}
                      {inv.paymentReference ? ` · Ref ${inv.paymentReference}` : ''}
                    </p>
                  )}
                  {inv.status === 'issued' && inv.payOnlineUrl && (
                    // The gateway's payment link, to share with a client who asks for it again.
                    <a
                      href={inv.payOnlineUrl}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="mt-1 block text-xs font-semibold text-brand-800 underline"
                    >
                      Pay online link
                    </a>
                  )}
                </td>
                <td className={td}>
                  <div className="flex flex-wrap gap-2">
                    {inv.status === 'claimed' && (
                      <>
                        <Button size="sm" onClick={() => setConfirming(inv)}>
                          Confirm
                        </Button>
                        <Button size="sm" variant="secondary" onClick={() => setDeciding({ invoice: inv, action: 'reject' })}>
                          Reject
                        </Button>
                      </>
                    )}
                    {(inv.status === 'issued' || inv.status === 'claimed') && (
                      <>
                        <Button size="sm" variant="secondary" onClick={() => setRecording(inv)}>
                          Record a payment
                        </Button>
                        <Button size="sm" variant="ghost" onClick={() => setDeciding({ invoice: inv, action: 'void' })}>
                          Void
                        </Button>
                      </>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </Table>
      {deciding && <ReasonDialog {...deciding} onClose={() => setDeciding(null)} />}
      {confirming && <ConfirmPaymentDialog invoice={confirming} onClose={() => setConfirming(null)} />}
      {recording && <RecordPaymentDialog invoice={recording} onClose={() => setRecording(null)} />}
    </>
  );
}

function ReasonDialog({ invoice, action, onClose }: { invoice: InvoiceView; action: 'reject' | 'void'; onClose: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefreshPayments();
  const reject = useMutation(trpc.admin.payments.reject.mutationOptions());
  const voidIt = useMutation(trpc.admin.payments.void.mutationOptions());
  const form = useForm<z.input<typeof reasonForm>, unknown, z.output<typeof reasonForm>>({
    resolver: zodResolver(reasonForm),
    defaultValues: { reason: '' },
  });
  const onSubmit = form.handleSubmit(async ({ reason }) => {
    try {
      const res = await (action === 'reject' ? reject : voidIt).mutateAsync({ id: invoice.id, reason });
      toast.success(res.message);
      await refresh();
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, error, ['reason'])) toastError(error);
    }
  });
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={action === 'reject' ? `Reject the payment for ${invoice.number}` : `Void ${invoice.number}`}
      footer={
        <Button type="submit" form="invoice-reason" disabled={form.formState.isSubmitting}>
          {action === 'reject' ? 'Reject payment' : 'Void invoice'}
        </Button>
      }
    >
      <form id="invoice-reason" method="post" onSubmit={onSubmit} noValidate>
        <TextAreaField
          label={action === 'reject' ? 'Reason (the client reads it)' : 'Reason'}
          rows={3}
          error={form.formState.errors.reason?.message}
          {...form.register('reason')}
        />
      </form>
    </Modal>
  );
}

const SETTINGS_FIELDS = [
  'legalName',
  'address',
  'stateCode',
  'gstin',
  'sacCode',
  'taxRateBp',
  'upiVpa',
  'payeeName',
  'invoicePrefix',
] as const satisfies readonly (keyof BillingSettingsInput)[];

function BillingSettingsDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const current = useQuery(trpc.admin.payments.settings.queryOptions());
  return current.isPending ? null : <BillingSettingsForm current={current.data ?? null} onClose={onClose} />;
}

function BillingSettingsForm({ current: d, onClose }: { current: BillingSettings | null; onClose: () => void }) {
  const trpc = useTRPC();
  const save = useMutation(trpc.admin.payments.saveSettings.mutationOptions());
  const queryClient = useQueryClient();
  const form = useForm<BillingSettingsInput, unknown, z.output<typeof billingSettingsInput>>({
    resolver: zodResolver(billingSettingsInput),
    defaultValues: {
      legalName: d?.legalName ?? '',
      address: d?.address ?? '',
      stateCode: (d?.stateCode ?? '27') as BillingSettingsInput['stateCode'],
      gstin: d?.gstin ?? '',
      sacCode: d?.sacCode ?? DEFAULT_SAC,
      taxRateBp: d?.taxRateBp ?? 1800,
      upiVpa: d?.upiVpa ?? '',
      payeeName: d?.payeeName ?? '',
      invoicePrefix: d?.invoicePrefix ?? 'PSN',
    },
  });
  const { errors } = form.formState;
  // A rate saved through the API that the list does not have stays choosable.
  const rates = [...new Set<number>([...TAX_RATES_BP, d?.taxRateBp ?? 1800])].sort((a, b) => a - b);
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const res = await save.mutateAsync(values);
      toast.success(res.message);
      await queryClient.invalidateQueries({ queryKey: trpc.admin.payments.settings.queryKey() });
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, error, SETTINGS_FIELDS)) toastError(error);
    }
  });
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title="Billing details"
      wide
      footer={
        <Button type="submit" form="billing-settings" disabled={form.formState.isSubmitting}>
          Save
        </Button>
      }
    >
      <form id="billing-settings" method="post" className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <TextField label="Legal name" error={errors.legalName?.message} {...form.register('legalName')} />
        <TextAreaField label="Address" rows={2} error={errors.address?.message} {...form.register('address')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField label="State" error={errors.stateCode?.message} {...form.register('stateCode')}>
            <StateOptions />
          </SelectField>
          <TextField label="GSTIN (blank if not registered)" error={errors.gstin?.message} {...form.register('gstin')} />
          <TextField label="SAC" inputMode="numeric" error={errors.sacCode?.message} {...form.register('sacCode')} />
          <SelectField label="GST rate" error={errors.taxRateBp?.message} {...form.register('taxRateBp', { setValueAs: Number })}>
            {rates.map((bp) => (
              <option key={bp} value={bp}>
                {bp / 100}%
              </option>
            ))}
          </SelectField>
          <TextField label="UPI id (VPA)" error={errors.upiVpa?.message} {...form.register('upiVpa')} />
          <TextField label="Payee name" error={errors.payeeName?.message} {...form.register('payeeName')} />
          <TextField label="Invoice prefix" error={errors.invoicePrefix?.message} {...form.register('invoicePrefix')} />
        </div>
        <p className="text-sm text-slate-600">Confirm the SAC and the rate with your accountant.</p>
      </form>
    </Modal>
  );
}

function CsvExport() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const today = localToday();
  const fy = financialYearOf(today);
  const from = `20${fy.slice(0, 2)}-04-01`;
  const download = async () => {
    try {
      const file = await queryClient.fetchQuery(trpc.admin.payments.exportCsv.queryOptions({ from, to: today }));
      const url = URL.createObjectURL(new Blob([file.csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file.filename;
      a.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      toastError(error);
    }
  };
  return (
    <Button variant="secondary" size="sm" onClick={() => void download()}>
      <Download className="h-4 w-4" aria-hidden="true" />
      CSV for this financial year
    </Button>
  );
}
