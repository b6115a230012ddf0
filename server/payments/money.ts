/**
 * Invoice arithmetic, in integer paise only (never floats). Pure, so the
 * property tests (money.test.ts) can run it on any input, and the one place
 * totals, tax and rounding are computed: the server calls it when it issues
 * an invoice, and the console's form calls the same functions to preview the
 * totals before Issue (this module imports nothing, so the browser may load
 * it). Nothing a browser sends is trusted as an amount.
 */

/** The largest invoice total we accept: ₹10,00,000 (10 lakh), far above any plan, far below 2^53 after multiplying by a rate. */
export const MAX_INVOICE_PAISE = 100_000_000;
/** GST rates go up to 28%; in basis points (1800 = 18%). */
export const MAX_TAX_RATE_BP = 2800;

export type LineInput = { description: string; quantity: number; unitPaise: number };
export type PricedLine = LineInput & { amountPaise: number };

export type TaxMode =
  /** Not registered for GST: no tax lines. */
  | { kind: 'none' }
  /** Supply within the clinic's state: CGST and SGST, half the rate each. */
  | { kind: 'intra'; rateBp: number }
  /** Supply to another state: IGST at the whole rate. */
  | { kind: 'inter'; rateBp: number };

export type InvoiceTotals = {
  lines: PricedLine[];
  subtotalPaise: number;
  discountPaise: number;
  taxablePaise: number;
  taxRateBp: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  /** Added to reach a whole rupee (−49 … +50 paise: 50 paise round up). */
  roundOffPaise: number;
  /** Payable, a whole number of rupees. */
  totalPaise: number;
};

const assertPaise = (value: number, label: string) => {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${label} must be a whole, non-negative number of paise`);
};

/**
 * `value × numerator / denominator`, rounded half up, for non-negative
 * integers (all stay below 2^53 at our limits): the rounding GST uses for tax
 * to the paisa.
 */
export function mulDivRoundHalfUp(value: number, numerator: number, denominator: number): number {
  const product = value * numerator;
  if (!Number.isSafeInteger(product)) throw new RangeError('amount too large');
  const quotient = Math.floor(product / denominator);
  const remainder = product - quotient * denominator;
  return remainder * 2 >= denominator ? quotient + 1 : quotient;
}

/** Rounds paise to the nearest whole rupee, 50 paise up. */
export const toNearestRupee = (paise: number) => mulDivRoundHalfUp(paise, 1, 100) * 100;

/**
 * Everything an invoice shows, from its lines, its discount and how it is
 * taxed. The discount comes off before tax (GST is charged on the value
 * after discount). Under CGST + SGST each half is computed on its own at half
 * the rate, so the two are always equal, as printed invoices show them.
 */
export function computeInvoice(input: { lines: LineInput[]; discountPaise?: number; tax: TaxMode }): InvoiceTotals {
  if (input.lines.length === 0) throw new RangeError('An invoice needs at least one line');
  const lines = input.lines.map((line) => {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) throw new RangeError('quantity must be a whole number of at least 1');
    assertPaise(line.unitPaise, 'unit price');
    return { ...line, amountPaise: line.quantity * line.unitPaise };
  });
  const subtotalPaise = lines.reduce((sum, l) => sum + l.amountPaise, 0);
  const discountPaise = input.discountPaise ?? 0;
  assertPaise(discountPaise, 'discount');
  if (discountPaise > subtotalPaise) throw new RangeError('The discount cannot be more than the lines add up to');
  const taxablePaise = subtotalPaise - discountPaise;
  if (taxablePaise > MAX_INVOICE_PAISE) throw new RangeError('amount too large');

  const { tax } = input;
  const rateBp = tax.kind === 'none' ? 0 : tax.rateBp;
  if (!Number.isInteger(rateBp) || rateBp < 0 || rateBp > MAX_TAX_RATE_BP) throw new RangeError('tax rate out of range');
  let cgstPaise = 0;
  let sgstPaise = 0;
  let igstPaise = 0;
  if (tax.kind === 'intra') {
    cgstPaise = mulDivRoundHalfUp(taxablePaise, rateBp, 20_000);
    sgstPaise = cgstPaise;
  } else if (tax.kind === 'inter') {
    igstPaise = mulDivRoundHalfUp(taxablePaise, rateBp, 10_000);
  }
  const beforeRounding = taxablePaise + cgstPaise + sgstPaise + igstPaise;
  const totalPaise = toNearestRupee(beforeRounding);
  return {
    lines,
    subtotalPaise,
    discountPaise,
    taxablePaise,
    taxRateBp: rateBp,
    cgstPaise,
    sgstPaise,
    igstPaise,
    roundOffPaise: totalPaise - beforeRounding,
    totalPaise,
  };
}

/** A catalogue plan as an invoice line needs it. */
export type PlanForLine = { name: string; duration: string; sellPrice: number };

/**
 * An invoice's lines: the plan first (its name with its length, at its
 * selling price in rupees from the catalogue), then the dietitian's own
 * lines, in order.
 */
export function invoiceLines(plan: PlanForLine | undefined, custom: readonly LineInput[]): LineInput[] {
  const lines: LineInput[] = [];
  if (plan)
    lines.push({
      description: plan.name.includes(plan.duration) ? plan.name : `${plan.name} (${plan.duration})`,
      quantity: 1,
      unitPaise: plan.sellPrice * 100,
    });
  for (const l of custom) lines.push({ description: l.description, quantity: l.quantity, unitPaise: l.unitPaise });
  return lines;
}

/** How the clinic taxes a supply to this state: no GSTIN, no tax; within its own state CGST + SGST; else IGST. */
export function taxModeFor(
  settings: { gstin: string | null; stateCode: string; taxRateBp: number },
  clientStateCode: string | null,
): TaxMode {
  if (!settings.gstin) return { kind: 'none' };
  return clientStateCode === settings.stateCode
    ? { kind: 'intra', rateBp: settings.taxRateBp }
    : { kind: 'inter', rateBp: settings.taxRateBp };
}

/** '₹16,499.00' style, from paise, for PDFs, mails and CSV readers (the browser formats with Intl too). */
export function formatPaise(paise: number, opts: { symbol?: boolean } = {}): string {
  const negative = paise < 0;
  const abs = Math.abs(paise);
  const rupees = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, '0');
  const grouped = rupees.toLocaleString('en-IN');
  return `${negative ? '−' : ''}${opts.symbol === false ? '' : '₹'}${grouped}.${rest}`;
}

/** Paise as rupees with two decimals, no grouping ('16499.00'): for CSV files. */
export function paiseToDecimal(paise: number): string {
  const negative = paise < 0;
  const abs = Math.abs(paise);
  return `${negative ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
