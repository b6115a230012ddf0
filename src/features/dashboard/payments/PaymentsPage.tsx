import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, CreditCard, Download, IndianRupee, Smartphone } from 'lucide-react';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { claimForm } from '../../../../server/payments/schema';
import { Button, buttonClasses } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextField } from '../../../components/ui/Field';
import { Page } from '../../../components/ui/Page';
import { EmptyState, LoadError, Loading } from '../../../components/ui/States';
import { formatDay } from '../../../lib/format';
import { toastError } from '../../../lib/notify';
import { toast } from '../../../lib/toast';
import { useTRPC, useTRPCClient } from '../../../lib/trpc';
import { formatPaise, type InvoiceView, STATUS_LABEL, statusOf, statusTone } from '../../payments/format';
import { UpiQr } from '../../payments/UpiQr';

/**
 * The client's invoices: the open ones with a UPI QR code, a "Pay with a UPI
 * app" button on phones and the UTR form; then the history with receipts.
 * Live: the dashboard's frame follows the client's invoices (use-live-invoices.ts).
 */
export function PaymentsPage() {
  const trpc = useTRPC();
  const list = useQuery({ ...trpc.invoice.list.queryOptions({ pageSize: 50 }), staleTime: 0 });
  const items = list.data?.items ?? [];
  const open = items.filter((i) => i.status === 'issued' || i.status === 'claimed');
  const past = items.filter((i) => i.status === 'paid' || i.status === 'void');

  return (
    <Page title="Payments" lead="Your invoices: pay by UPI, then tell us the UTR your app shows." width="max-w-3xl">
      {list.isPending ? (
        <Loading label="Loading your invoices" />
      ) : list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : items.length === 0 ? (
        <Card>
          <EmptyState Icon={IndianRupee} testId="payments-empty">
            You have no invoices yet.
          </EmptyState>
        </Card>
      ) : (
        <div className="flex flex-col gap-6">
          {open.map((inv) => (
            <OpenInvoice key={inv.id} invoice={inv} />
          ))}
          {past.length > 0 && (
            <section aria-labelledby="past-invoices">
              <h2 id="past-invoices" className="mb-3 text-lg font-bold text-slate-900">
                Past invoices
              </h2>
              <Card>
                <ul className="divide-y divide-slate-100">
                  {past.map((inv) => (
                    <li key={inv.id} className="flex flex-wrap items-center justify-between gap-3 p-4" data-testid="past-invoice">
                      <div>
                        <p className="font-semibold text-slate-900">{inv.number}</p>
                        <p className="text-sm text-slate-600">
                          {formatDay(inv.issuedOn)} · {formatPaise(inv.totalPaise)}
                        </p>
                      </div>
                      <div className="flex items-center gap-3">
                        <StatusPill invoice={inv} />
                        <PdfButton invoice={inv} kind={inv.status === 'paid' ? 'receipt' : 'invoice'} />
                      </div>
                    </li>
                  ))}
                </ul>
              </Card>
            </section>
          )}
        </div>
      )}
    </Page>
  );
}

function StatusPill({ invoice }: { invoice: InvoiceView }) {
  const s = statusOf(invoice);
  return <span className={`rounded-full px-3 py-0.5 text-sm font-semibold ${statusTone(s)}`}>{STATUS_LABEL[s]}</span>;
}

function PdfButton({ invoice, kind }: { invoice: InvoiceView; kind: 'invoice' | 'receipt' }) {
  const client = useTRPCClient();
  const open = async () => {
    // A tab opened now (inside the tap) is not blocked as a pop-up; it is pointed at the signed link once it arrives.
    const tab = window.open('', '_blank');
    try {
      const links = await client.invoice.pdfLinks.query({ id: invoice.id });
      const url = kind === 'receipt' ? links.receiptUrl : links.invoiceUrl;
      if (tab && url) tab.location.href = url;
    } catch (error) {
      tab?.close();
      toastError(error);
    }
  };
  return (
    <Button variant="secondary" size="sm" onClick={() => void open()}>
      <Download className="h-4 w-4" aria-hidden="true" />
      {kind === 'receipt' ? 'Receipt' : 'Invoice'} PDF
    </Button>
  );
}

function OpenInvoice({ invoice }: { invoice: InvoiceView }) {
  const claimed = invoice.status === 'claimed';
  return (
    <div data-testid="open-invoice">
      <Card className="overflow-hidden">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-5 py-4 sm:px-6">
          <div>
            <h2 className="text-lg font-bold text-slate-900">{invoice.number}</h2>
            <p className="text-sm text-slate-600">
              Issued {formatDay(invoice.issuedOn)} · due {formatDay(invoice.dueOn)}
            </p>
          </div>
          <StatusPill invoice={invoice} />
        </div>
        <div className="grid gap-6 p-5 sm:grid-cols-[auto_1fr] sm:p-6">
          {invoice.upiLink && !claimed && (
            <div className="flex flex-col items-center gap-3">
              <UpiQr link={invoice.upiLink} label={`UPI QR code to pay ${formatPaise(invoice.totalPaise)} for ${invoice.number}`} />
              <a href={invoice.upiLink} className={buttonClasses('primary', 'md', 'w-full md:hidden')} data-testid="upi-button">
                <Smartphone className="h-5 w-5" aria-hidden="true" />
                Pay with a UPI app
              </a>
              {invoice.payOnlineUrl && (
                <a
                  href={invoice.payOnlineUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={buttonClasses('secondary', 'md', 'w-full')}
                  data-testid="pay-online"
                >
                  <CreditCard className="h-5 w-5" aria-hidden="true" />
                  Pay online
                </a>
              )}
            </div>
          )}
          <div className="flex flex-col gap-4">
            <dl className="grid grid-cols-2 gap-y-1 text-sm">
              {invoice.lines.map((l) => (
                <div key={l.description} className="contents">
                  <dt className="text-slate-600">{l.quantity > 1 ? `${l.description} × ${l.quantity}` : l.description}</dt>
                  <dd className="text-right text-slate-900">{formatPaise(l.amountPaise)}</dd>
                </div>
              ))}
              {invoice.discountPaise > 0 && (
                <>
                  <dt className="text-slate-600">Discount</dt>
                  <dd className="text-right text-slate-900">−{formatPaise(invoice.discountPaise)}</dd>
                </>
              )}
              {invoice.cgstPaise > 0 && (
                <>
                  <dt className="text-slate-600">CGST + SGST</dt>
                  <dd className="text-right text-slate-900">{formatPaise(invoice.cgstPaise + invoice.sgstPaise)}</dd>
                </>
              )}
              {invoice.igstPaise > 0 && (
                <>
                  <dt className="text-slate-600">IGST</dt>
                  <dd className="text-right text-slate-900">{formatPaise(invoice.igstPaise)}</dd>
                </>
              )}
              {invoice.roundOffPaise !== 0 && (
                <>
                  <dt className="text-slate-600">Round off</dt>
                  <dd className="text-right text-slate-900">{formatPaise(invoice.roundOffPaise)}</dd>
                </>
              )}
              <dt className="mt-2 border-t border-slate-200 pt-2 text-base font-bold text-slate-900">Total</dt>
              <dd className="mt-2 border-t border-slate-200 pt-2 text-right text-base font-bold text-slate-900" data-testid="invoice-total">
                {formatPaise(invoice.totalPaise)}
              </dd>
            </dl>
            {claimed ? (
              <p className="flex items-start gap-2 rounded-lg bg-sky-50 p-3 text-sm text-sky-900" data-testid="claim-pending">
                <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
                Thank you! Your payment (UTR {invoice.claim?.utr}) is waiting for your dietitian to confirm it.
              </p>
            ) : (
              <ClaimForm invoice={invoice} />
            )}
            <div>
              <PdfButton invoice={invoice} kind="invoice" />
            </div>
          </div>
        </div>
      </Card>
    </div>
  );
}

type ClaimValues = { utr: string };

function ClaimForm({ invoice }: { invoice: InvoiceView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const claim = useMutation(trpc.invoice.claim.mutationOptions());
  const form = useForm<ClaimValues, unknown, ClaimValues>({ resolver: zodResolver(claimForm), defaultValues: { utr: '' } });
  const busy = useRef(false);
  const rejected = invoice.claim?.state === 'rejected' ? invoice.claim : null;
  const onSubmit = form.handleSubmit(async ({ utr }) => {
    if (busy.current) return;
    busy.current = true;
    try {
      await claim.mutateAsync({ id: invoice.id, utr });
      toast.success('Thank you! Your dietitian will confirm the payment soon.');
      form.reset();
      await queryClient.invalidateQueries({ queryKey: trpc.invoice.list.queryKey() });
    } catch (error) {
      toastError(error);
    } finally {
      busy.current = false;
    }
  });
  return (
    <form method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
      {rejected && (
        <p className="rounded-lg bg-red-50 p-3 text-sm text-red-800" role="status">
          Your dietitian could not confirm UTR {rejected.utr}
          {rejected.reason ? `: ${rejected.reason}` : '.'} Check the number in your UPI app and enter it again.
        </p>
      )}
      <TextField
        label="UTR / UPI reference (12 digits)"
        inputMode="numeric"
        autoComplete="off"
        placeholder="e.g., 412345678901"
        error={form.formState.errors.utr?.message}
        {...form.register('utr')}
      />
      <Button type="submit" disabled={claim.isPending}>
        I have paid
      </Button>
    </form>
  );
}
