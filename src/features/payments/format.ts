import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/root';

export type InvoiceView = inferRouterOutputs<AppRouter>['invoice']['get'];

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 });
/** Paise as '₹19,469.00' (the server computes every amount; the browser only shows them). */
export const formatPaise = (paise: number) => inr.format(paise / 100);

export const STATUS_LABEL: Record<InvoiceView['status'] | 'overdue', string> = {
  issued: 'To pay',
  claimed: 'Payment claimed',
  paid: 'Paid',
  void: 'Void',
  overdue: 'Overdue',
};

export function statusOf(inv: Pick<InvoiceView, 'status' | 'overdue'>): keyof typeof STATUS_LABEL {
  return inv.overdue && inv.status === 'issued' ? 'overdue' : inv.status;
}

const TONE: Record<keyof typeof STATUS_LABEL, string> = {
  issued: 'bg-amber-100 text-amber-900',
  claimed: 'bg-sky-100 text-sky-900',
  paid: 'bg-green-100 text-green-800',
  void: 'bg-slate-200 text-slate-700',
  overdue: 'bg-red-100 text-red-800',
};
export const statusTone = (s: keyof typeof STATUS_LABEL) => TONE[s];
