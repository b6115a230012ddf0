import { findPlan, type PlanType } from '../../../../server/catalogue/plans';
import { computeInvoice, type InvoiceTotals, invoiceLines, taxModeFor } from '../../../../server/payments/money';
import { type BillingSettings, rupeesTextToPaise } from '../../../../server/payments/schema';
import { formatPaise } from '../../payments/format';

/** What the "Issue an invoice" form holds, as typed. */
export type InvoiceDraft = {
  planType: PlanType;
  planId: string;
  lineDescription: string;
  linePrice: string;
  discount: string;
  clientStateCode: string;
};

type Preview = { totals: InvoiceTotals; taxPending: boolean } | { message: string };

/**
 * The invoice as the server will issue it, worked out with the server's own
 * functions (payments/money.ts: the catalogue plan's line, the tax mode for
 * the client's state, the rounding), from what the form holds now.
 */
export function previewInvoice(draft: InvoiceDraft, settings: BillingSettings | null): Preview {
  if (!settings) return { message: 'Set the billing details to see the total.' };
  const plan = draft.planId ? findPlan(draft.planType, draft.planId) : undefined;
  const linePaise = rupeesTextToPaise(draft.linePrice);
  const discountPaise = rupeesTextToPaise(draft.discount);
  if (linePaise === null) return { message: 'Enter the line’s price in rupees to see the total.' };
  if (discountPaise === null) return { message: 'Enter the discount in rupees to see the total.' };
  const custom =
    draft.lineDescription.trim() && linePaise > 0 ? [{ description: draft.lineDescription.trim(), quantity: 1, unitPaise: linePaise }] : [];
  const lines = invoiceLines(plan, custom);
  if (lines.length === 0) return { message: 'Choose a plan or add a line to see the total.' };
  const stateCode = draft.clientStateCode || null;
  try {
    const totals = computeInvoice({ lines, discountPaise, tax: taxModeFor(settings, stateCode) });
    return { totals, taxPending: Boolean(settings.gstin) && !stateCode };
  } catch (error) {
    return { message: error instanceof RangeError ? sentence(error.message) : 'These amounts cannot make an invoice.' };
  }
}

const sentence = (message: string) => `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
const percent = (bp: number) => `${(bp / 100).toLocaleString('en-IN')}%`;

/** The live preview beside Issue: lines, discount, the tax split and the total. */
export function InvoicePreview({ draft, settings }: { draft: InvoiceDraft; settings: BillingSettings | null }) {
  const preview = previewInvoice(draft, settings);
  return (
    <section
      aria-label="Invoice preview"
      aria-live="polite"
      className="rounded-lg border border-slate-200 bg-slate-50 p-4"
      data-testid="invoice-preview"
    >
      <h3 className="text-sm font-semibold text-slate-800">Preview</h3>
      {'message' in preview ? <p className="mt-2 text-sm text-slate-700">{preview.message}</p> : <PreviewTable {...preview} />}
    </section>
  );
}

function PreviewTable({ totals: t, taxPending }: { totals: InvoiceTotals; taxPending: boolean }) {
  const half = percent(t.taxRateBp / 2);
  return (
    <dl className="mt-2 flex flex-col gap-1 text-sm text-slate-800">
      {t.lines.map((line, i) => (
        <Row
          key={i}
          label={line.quantity > 1 ? `${line.description} × ${line.quantity}` : line.description}
          value={formatPaise(line.amountPaise)}
        />
      ))}
      {t.discountPaise > 0 && (
        <>
          <Row label="Subtotal" value={formatPaise(t.subtotalPaise)} />
          <Row label="Discount" value={`−${formatPaise(t.discountPaise)}`} testId="preview-discount" />
        </>
      )}
      <Row label="Taxable value" value={formatPaise(t.taxablePaise)} />
      {taxPending ? (
        <p className="text-amber-900">Choose the client’s state to work out GST (CGST + SGST or IGST).</p>
      ) : t.cgstPaise > 0 || t.sgstPaise > 0 ? (
        <>
          <Row label={`CGST ${half}`} value={formatPaise(t.cgstPaise)} testId="preview-cgst" />
          <Row label={`SGST ${half}`} value={formatPaise(t.sgstPaise)} testId="preview-sgst" />
        </>
      ) : t.igstPaise > 0 ? (
        <Row label={`IGST ${percent(t.taxRateBp)}`} value={formatPaise(t.igstPaise)} testId="preview-igst" />
      ) : (
        <Row label="GST" value="None (not registered)" />
      )}
      {t.roundOffPaise !== 0 && !taxPending && (
        <Row label="Round off" value={`${t.roundOffPaise < 0 ? '−' : '+'}${formatPaise(Math.abs(t.roundOffPaise))}`} />
      )}
      {!taxPending && (
        <div className="mt-1 flex items-baseline justify-between gap-3 border-t border-slate-300 pt-2 text-base font-bold text-slate-900">
          <dt>Total</dt>
          <dd data-testid="preview-total">{formatPaise(t.totalPaise)}</dd>
        </div>
      )}
    </dl>
  );
}

function Row({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <dt className="min-w-0">{label}</dt>
      <dd className="shrink-0 tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
