import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeInvoice, formatPaise, MAX_INVOICE_PAISE, mulDivRoundHalfUp, paiseToDecimal, type TaxMode } from './money.js';

const line = fc.record({
  description: fc.constant('line'),
  quantity: fc.integer({ min: 1, max: 12 }),
  unitPaise: fc.integer({ min: 0, max: 2_000_000 }),
});
const tax: fc.Arbitrary<TaxMode> = fc.oneof(
  fc.constant({ kind: 'none' } as const),
  fc.record({ kind: fc.constant('intra' as const), rateBp: fc.integer({ min: 0, max: 2800 }) }),
  fc.record({ kind: fc.constant('inter' as const), rateBp: fc.integer({ min: 0, max: 2800 }) }),
);
/** Lines, a discount no larger than their sum, and a tax mode. */
const invoice = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 5 }), fc.double({ min: 0, max: 1, noNaN: true }), tax)
  .map(([lines, share, mode]) => {
    const subtotal = lines.reduce((s, l) => s + l.quantity * l.unitPaise, 0);
    return { lines, discountPaise: Math.floor(subtotal * share), tax: mode };
  })
  .filter((i) => i.lines.reduce((s, l) => s + l.quantity * l.unitPaise, 0) - i.discountPaise <= MAX_INVOICE_PAISE);

describe('computeInvoice (properties)', () => {
  it('the total is the lines less the discount plus every tax line and the round-off, to the paisa', () => {
    fc.assert(
      fc.property(invoice, (input) => {
        const t = computeInvoice(input);
        const lines = input.lines.reduce((s, l) => s + l.quantity * l.unitPaise, 0);
        expect(t.subtotalPaise).toBe(lines);
        expect(t.lines.reduce((s, l) => s + l.amountPaise, 0)).toBe(t.subtotalPaise);
        expect(t.taxablePaise).toBe(lines - input.discountPaise);
        expect(t.totalPaise).toBe(t.taxablePaise + t.cgstPaise + t.sgstPaise + t.igstPaise + t.roundOffPaise);
      }),
    );
  });

  it('every amount is a whole number of paise and the total a whole rupee, rounded to the nearest', () => {
    fc.assert(
      fc.property(invoice, (input) => {
        const t = computeInvoice(input);
        for (const v of [t.subtotalPaise, t.taxablePaise, t.cgstPaise, t.sgstPaise, t.igstPaise, t.totalPaise, t.roundOffPaise]) {
          expect(Number.isSafeInteger(v)).toBe(true);
        }
        expect(t.totalPaise % 100).toBe(0);
        expect(t.roundOffPaise).toBeGreaterThanOrEqual(-49);
        expect(t.roundOffPaise).toBeLessThanOrEqual(50);
      }),
    );
  });

  it('taxes by the mode: CGST = SGST within the state, IGST across, nothing unregistered; each within half a paisa of the rate', () => {
    fc.assert(
      fc.property(invoice, (input) => {
        const t = computeInvoice(input);
        const exact = (t.taxablePaise * t.taxRateBp) / 10_000;
        if (input.tax.kind === 'none') {
          expect([t.cgstPaise, t.sgstPaise, t.igstPaise, t.taxRateBp]).toEqual([0, 0, 0, 0]);
        } else if (input.tax.kind === 'intra') {
          expect(t.cgstPaise).toBe(t.sgstPaise);
          expect(t.igstPaise).toBe(0);
          expect(Math.abs(t.cgstPaise - exact / 2)).toBeLessThanOrEqual(0.5);
        } else {
          expect(t.cgstPaise + t.sgstPaise).toBe(0);
          expect(Math.abs(t.igstPaise - exact)).toBeLessThanOrEqual(0.5);
        }
      }),
    );
  });

  it('rounds half up exactly, for any integers', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.integer({ min: 0, max: 2800 }),
        fc.integer({ min: 1, max: 20_000 }),
        (v, n, d) => {
          const r = mulDivRoundHalfUp(v, n, d);
          // r is the nearest integer to v·n/d, halves going up: 2(v·n) lies in [d(2r−1), d(2r+1)).
          expect(2 * v * n).toBeGreaterThanOrEqual(d * (2 * r - 1));
          expect(2 * v * n).toBeLessThan(d * (2 * r + 1));
        },
      ),
    );
  });
});

describe('computeInvoice (examples)', () => {
  it('₹16,499 at 18% within the state: ₹1,485 CGST + SGST less 18 paise, rounded to ₹19,469', () => {
    const t = computeInvoice({
      lines: [{ description: 'WL 1 year', quantity: 1, unitPaise: 1_649_900 }],
      tax: { kind: 'intra', rateBp: 1800 },
    });
    expect(t).toMatchObject({ cgstPaise: 148_491, sgstPaise: 148_491, igstPaise: 0, roundOffPaise: 18, totalPaise: 1_946_900 });
  });
  it('the same across states: ₹2,969.82 IGST', () => {
    const t = computeInvoice({
      lines: [{ description: 'WL 1 year', quantity: 1, unitPaise: 1_649_900 }],
      tax: { kind: 'inter', rateBp: 1800 },
    });
    expect(t).toMatchObject({ cgstPaise: 0, igstPaise: 296_982, roundOffPaise: 18, totalPaise: 1_946_900 });
  });
  it('a discount comes off before tax', () => {
    const t = computeInvoice({
      lines: [{ description: 'x', quantity: 2, unitPaise: 100_000 }],
      discountPaise: 50_000,
      tax: { kind: 'inter', rateBp: 1800 },
    });
    expect(t).toMatchObject({ subtotalPaise: 200_000, taxablePaise: 150_000, igstPaise: 27_000, totalPaise: 177_000 });
  });
  it('refuses a discount above the lines, a fraction of a paisa and an empty invoice', () => {
    expect(() =>
      computeInvoice({ lines: [{ description: 'x', quantity: 1, unitPaise: 100 }], discountPaise: 101, tax: { kind: 'none' } }),
    ).toThrow(RangeError);
    expect(() => computeInvoice({ lines: [{ description: 'x', quantity: 1, unitPaise: 1.5 }], tax: { kind: 'none' } })).toThrow(RangeError);
    expect(() => computeInvoice({ lines: [], tax: { kind: 'none' } })).toThrow(RangeError);
  });
  it('formats paise for people and for CSV', () => {
    expect(formatPaise(1_946_900)).toBe('₹19,469.00');
    expect(formatPaise(-18)).toBe('−₹0.18');
    expect(paiseToDecimal(296_982)).toBe('2969.82');
    expect(paiseToDecimal(-18)).toBe('-0.18');
  });
});
