import { execFileSync } from 'node:child_process';
import type { DietPlanPdfInput } from '../../server/pdf/diet-plan.js';

/** The text of a PDF, as poppler reads it (layout flattened). */
export const pdfText = (pdf: Uint8Array) => execFileSync('pdftotext', ['-', '-'], { input: Buffer.from(pdf), encoding: 'utf8' });

/** The smallest file that is a PDF by content: a header, one empty page, and the end marker. */
export function tinyPdf(note = 'uploaded'): Uint8Array {
  return new TextEncoder().encode(
    `%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj\n% ${note}\ntrailer <</Root 1 0 R>>\n%%EOF\n`,
  );
}

export const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** A plan long enough to take pdfkit a good while: two weeks, five meals a day. */
export const longDietPlan: DietPlanPdfInput = {
  title: 'Four weeks of balanced meals',
  from: '2026-11-02',
  to: '2026-11-15',
  clientName: 'Asha Verma',
  dietitian: { firstName: 'Meera', lastName: 'Iyer' },
  issuedOn: '2026-11-01',
  days: Array.from({ length: 14 }, (_, d) => ({
    label: `Day ${d + 1}`,
    meals: ['07:30', '10:30', '13:00', '17:00', '20:00'].map((time, m) => ({
      time,
      name: ['Breakfast', 'Mid-morning', 'Lunch', 'Evening', 'Dinner'][m]!,
      items: [
        { food: `Vegetable poha (पोहा), day ${d + 1}`, portion: { quantity: 1, unit: 'katori' as const, grams: 150 } },
        { food: 'Toned milk', portion: { quantity: 1, unit: 'glass' as const, ml: 200 } },
        { food: 'Seasonal fruit', portion: { quantity: 1, unit: 'piece' as const, grams: 100 } },
      ],
      notes: 'Chew slowly; a glass of water half an hour before.',
    })),
  })),
};
