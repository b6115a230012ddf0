import { BRAND } from '../brand.js';
import { formatDay, formatMoment } from '../format.js';
import { SERVICE_TIME_ZONE } from '../time.js';
import { formatPaise } from '../payments/money.js';
import type { Invoice } from '../payments/schema.js';
import { stateName } from '../payments/states.js';
import { A4, type FontWeight, inBottomMargin, renderPdf } from './document.js';
import { pdfPool } from './pool.js';

/**
 * An invoice, or its receipt once paid, as an A4 PDF: the clinic, the client,
 * the lines, the tax split, the total in words and how to pay (or how it was
 * paid). A pure function of its input; rendered in the PDF pool.
 */
export type InvoiceDrawing = { kind: 'invoice' | 'receipt'; invoice: Invoice };

const COLOR = {
  brand: '#0f766e',
  onBrand: '#ffffff',
  onBrandMuted: '#ccfbf1',
  ink: '#1e293b',
  muted: '#64748b',
  rule: '#e2e8f0',
  tint: '#f0fdfa',
  void: '#b91c1c',
};
const M = { top: 48, bottom: 56, left: 48, right: 48 } as const;
const W = A4.width - M.left - M.right;

const ONES = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

function belowHundred(n: number): string {
  if (n < 20) return ONES[n]!;
  return `${TENS[Math.floor(n / 10)]}${n % 10 ? `-${ONES[n % 10]}` : ''}`;
}
function belowThousand(n: number): string {
  const h = Math.floor(n / 100);
  const rest = n % 100;
  return [h ? `${ONES[h]} Hundred` : '', rest ? belowHundred(rest) : ''].filter(Boolean).join(' ');
}

/** Whole rupees in words, Indian style (lakh, crore): 1946900 paise → 'Rupees Nineteen Thousand Four Hundred Sixty-Nine only'. */
export function rupeesInWords(paise: number): string {
  let n = Math.floor(paise / 100);
  const p = paise % 100;
  if (n === 0 && p === 0) return 'Rupees Zero only';
  const parts: string[] = [];
  const crore = Math.floor(n / 10_000_000);
  n %= 10_000_000;
  const lakh = Math.floor(n / 100_000);
  n %= 100_000;
  const thousand = Math.floor(n / 1000);
  n %= 1000;
  if (crore) parts.push(`${belowThousand(crore)} Crore`);
  if (lakh) parts.push(`${belowHundred(lakh)} Lakh`);
  if (thousand) parts.push(`${belowHundred(thousand)} Thousand`);
  if (n) parts.push(belowThousand(n));
  const rupees = parts.length ? `Rupees ${parts.join(' ')}` : 'Rupees Zero';
  return `${rupees}${p ? ` and ${belowHundred(p)} Paise` : ''} only`;
}

const pct = (bp: number) => `${(bp / 100).toLocaleString('en-IN', { maximumFractionDigits: 2 })}%`;

export function drawInvoicePdf({ kind, invoice: inv }: InvoiceDrawing): Promise<Uint8Array> {
  const registered = Boolean(inv.seller.gstin);
  const title = kind === 'receipt' ? 'PAYMENT RECEIPT' : registered ? 'TAX INVOICE' : 'INVOICE';
  return renderPdf(
    { title: `${title} ${inv.number}`, author: inv.seller.legalName, subject: `${title} ${inv.number} for ${inv.client.name}` },
    M,
    (doc) => {
      const font = (w: FontWeight, size: number, color = COLOR.ink) => doc.font(w).fontSize(size).fillColor(color);
      // Header band.
      doc.rect(0, 0, A4.width, 84).fill(COLOR.brand);
      font('semibold', 22, COLOR.onBrand).text(BRAND.name, M.left, 22, { width: 250 });
      font('regular', 9, COLOR.onBrandMuted).text(BRAND.tagline, M.left, 54, { width: 300 });
      font('semibold', 14, COLOR.onBrand).text(title, A4.width - M.right - 240, 24, { width: 240, align: 'right' });
      font('regular', 10, COLOR.onBrandMuted).text(inv.number, A4.width - M.right - 240, 46, { width: 240, align: 'right' });

      // Seller and invoice facts.
      let y = 108;
      const half = W / 2 - 10;
      font('semibold', 11).text(inv.seller.legalName, M.left, y, { width: half });
      font('regular', 9, COLOR.muted).text(inv.seller.address, M.left, doc.y + 2, { width: half });
      const sellerLines = [
        `State: ${stateName(inv.seller.stateCode)} (${inv.seller.stateCode})`,
        registered ? `GSTIN: ${inv.seller.gstin}` : 'Not registered under GST',
      ];
      for (const l of sellerLines) font('regular', 9, COLOR.muted).text(l, M.left, doc.y + 1, { width: half });
      const leftBottom = doc.y;

      const facts: Array<[string, string]> = [
        ['Invoice number', inv.number],
        ['Invoice date', formatDay(inv.issuedOn)],
        kind === 'receipt' && inv.paidAt ? ['Paid on', formatMoment(inv.paidAt, SERVICE_TIME_ZONE)] : ['Due date', formatDay(inv.dueOn)],
        ...(registered
          ? ([['Place of supply', `${stateName(inv.client.stateCode)} (${inv.client.stateCode ?? '—'})`]] as Array<[string, string]>)
          : []),
      ];
      let fy = y;
      for (const [label, value] of facts) {
        font('regular', 9, COLOR.muted).text(label, M.left + W / 2 + 10, fy, { width: 110 });
        font('semibold', 9.5).text(value, M.left + W / 2 + 120, fy, { width: W / 2 - 130, align: 'right' });
        fy += 16;
      }
      y = Math.max(leftBottom, fy) + 14;

      // Bill to.
      doc.rect(M.left, y, W, 44).fill(COLOR.tint);
      font('regular', 8.5, COLOR.muted).text(kind === 'receipt' ? 'RECEIVED FROM' : 'BILL TO', M.left + 10, y + 8);
      font('semibold', 11).text(inv.client.name, M.left + 10, y + 21, { width: W - 20 });
      y += 58;

      // Lines.
      const cols = [
        { title: '#', w: 24, align: 'left' as const },
        { title: 'Description', w: W - 24 - 56 - 36 - 90 - 95, align: 'left' as const },
        { title: 'SAC', w: 56, align: 'left' as const },
        { title: 'Qty', w: 36, align: 'right' as const },
        { title: 'Rate', w: 90, align: 'right' as const },
        { title: 'Amount', w: 95, align: 'right' as const },
      ];
      const row = (cells: string[], weight: FontWeight, color = COLOR.ink) => {
        let x = M.left;
        let h = 0;
        cells.forEach((text, i) => {
          const c = cols[i]!;
          font(weight, 9.5, color);
          h = Math.max(h, doc.heightOfString(text, { width: c.w - 8 }));
          doc.text(text, x + 4, y + 6, { width: c.w - 8, align: c.align });
          x += c.w;
        });
        y += h + 12;
        doc
          .moveTo(M.left, y)
          .lineTo(M.left + W, y)
          .lineWidth(0.6)
          .strokeColor(COLOR.rule)
          .stroke();
      };
      doc
        .moveTo(M.left, y)
        .lineTo(M.left + W, y)
        .lineWidth(1)
        .strokeColor(COLOR.brand)
        .stroke();
      row(
        cols.map((c) => c.title),
        'semibold',
        COLOR.muted,
      );
      for (const [i, l] of inv.lines.entries()) {
        row(
          [String(i + 1), l.description, l.sac ?? '', String(l.quantity), formatPaise(l.unitPaise), formatPaise(l.amountPaise)],
          'regular',
        );
      }

      // Totals.
      y += 8;
      const totals: Array<[string, string, boolean?]> = [['Subtotal', formatPaise(inv.subtotalPaise)]];
      if (inv.discountPaise) totals.push(['Discount', `−${formatPaise(inv.discountPaise)}`]);
      if (registered) {
        totals.push(['Taxable value', formatPaise(inv.taxablePaise)]);
        if (inv.igstPaise || (inv.cgstPaise === 0 && inv.client.stateCode !== inv.seller.stateCode))
          totals.push([`IGST @ ${pct(inv.taxRateBp)}`, formatPaise(inv.igstPaise)]);
        else {
          totals.push([`CGST @ ${pct(inv.taxRateBp / 2)}`, formatPaise(inv.cgstPaise)]);
          totals.push([`SGST @ ${pct(inv.taxRateBp / 2)}`, formatPaise(inv.sgstPaise)]);
        }
      }
      if (inv.roundOffPaise) totals.push(['Round off', formatPaise(inv.roundOffPaise)]);
      totals.push([kind === 'receipt' ? 'Amount received' : 'Total payable', formatPaise(inv.totalPaise), true]);
      const tx = M.left + W - 250;
      for (const [label, value, strong] of totals) {
        if (strong) {
          doc.rect(tx, y - 4, 250, 26).fill(COLOR.brand);
          font('semibold', 11, COLOR.onBrand).text(label, tx + 10, y + 2, { width: 120 });
          font('semibold', 11, COLOR.onBrand).text(value, tx + 120, y + 2, { width: 120, align: 'right' });
          y += 30;
        } else {
          font('regular', 9.5, COLOR.muted).text(label, tx + 10, y, { width: 130 });
          font('regular', 9.5).text(value, tx + 120, y, { width: 120, align: 'right' });
          y += 17;
        }
      }
      font('regular', 9, COLOR.muted).text('Amount in words', M.left, y + 4);
      font('semibold', 9.5).text(rupeesInWords(inv.totalPaise), M.left, doc.y + 1, { width: W });
      y = doc.y + 18;

      // How to pay, or how it was paid.
      doc
        .moveTo(M.left, y)
        .lineTo(M.left + W, y)
        .lineWidth(0.6)
        .strokeColor(COLOR.rule)
        .stroke();
      y += 10;
      if (kind === 'receipt') {
        font('semibold', 10).text('Payment', M.left, y);
        const via = inv.paidVia === 'razorpay' ? 'Online payment (Razorpay)' : 'UPI';
        font('regular', 9.5).text(`${via} · reference ${inv.paymentReference ?? '—'}`, M.left, doc.y + 2, { width: W });
      } else if (inv.status === 'void') {
        font('semibold', 10, COLOR.void).text(
          `VOID — this invoice was cancelled${inv.voidReason ? `: ${inv.voidReason}` : ''}`,
          M.left,
          y,
          { width: W },
        );
      } else {
        font('semibold', 10).text('How to pay', M.left, y);
        font('regular', 9.5).text(
          `UPI to ${inv.seller.upiVpa} (${inv.seller.payeeName}), with the reference ${inv.number}. Then enter the 12-digit UTR on your Payments page.`,
          M.left,
          doc.y + 2,
          { width: W },
        );
      }
      if (inv.notes) {
        font('regular', 9, COLOR.muted).text(`Note: ${inv.notes}`, M.left, doc.y + 10, { width: W });
      }

      if (inv.status === 'void' && kind === 'invoice') {
        doc.save();
        doc.rotate(-30, { origin: [A4.width / 2, A4.height / 2] });
        font('semibold', 96, COLOR.void)
          .opacity(0.15)
          .text('VOID', 0, A4.height / 2 - 60, { width: A4.width, align: 'center' });
        doc.restore();
        doc.opacity(1);
      }

      inBottomMargin(doc, () => {
        font('regular', 8, COLOR.muted).text(
          `This is a computer-generated ${kind === 'receipt' ? 'receipt' : 'invoice'} and needs no signature. ${BRAND.name} · ${BRAND.supportEmail}`,
          M.left,
          A4.height - M.bottom + 18,
          { width: W, align: 'center' },
        );
      });
    },
  );
}

export function renderInvoicePdf(drawing: InvoiceDrawing): Promise<Uint8Array> {
  return pdfPool().render({ kind: 'invoice', drawing });
}
