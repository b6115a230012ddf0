import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAND } from '../brand.js';
import type { DietPlanPdfInput } from './diet-plan.js';
import { formatDateRange, formatPortion, formatQuantity, formatTime, renderDietPlanPdf } from './diet-plan.js';

const dir = mkdtempSync(path.join(tmpdir(), 'poshan-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the PDF and runs a poppler tool on it (pdftotext, pdffonts, pdfinfo). */
function poppler(tool: 'pdftotext' | 'pdffonts' | 'pdfinfo', pdf: Uint8Array, name: string): string {
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync(tool, tool === 'pdftotext' ? [file, '-'] : [file], { encoding: 'utf8' });
}

const plan: DietPlanPdfInput = {
  title: 'Weight loss, phase 1',
  from: '2026-11-02',
  to: '2026-11-29',
  clientName: 'Asha Verma',
  dietitian: { firstName: 'Meera', lastName: 'Iyer' },
  issuedOn: '2026-11-01',
  days: [
    {
      label: 'Monday',
      meals: [
        {
          time: '08:30',
          name: 'Breakfast',
          items: [
            { food: 'Vegetable poha (पोहा)', portion: { quantity: 1, unit: 'katori', grams: 150 } },
            { food: 'Toned milk', portion: { quantity: 1, unit: 'glass', ml: 200 } },
          ],
          notes: 'Add 1 tsp roasted peanuts.',
        },
        {
          time: '13:30',
          name: 'Lunch',
          items: [
            { food: 'Phulka', portion: { quantity: 2, unit: 'roti', grams: 60 } },
            { food: 'Moong dal', portion: { quantity: 1, unit: 'katori', grams: 150 } },
          ],
        },
      ],
    },
    {
      label: 'Tuesday',
      meals: [
        { time: '20:00', name: 'Dinner', items: [{ food: 'Moong dal khichdi', portion: { quantity: 1.5, unit: 'katori', grams: 225 } }] },
      ],
    },
  ],
  guidelines: ['Seasonal vegetables keep the week’s groceries near ₹1,200.'],
};

describe('renderDietPlanPdf', () => {
  // The first render starts a PDF worker thread (pool.ts): slow on a busy machine, so not inside a test's 5 s.
  beforeAll(() => renderDietPlanPdf(plan), 60_000);

  it('renders an A4 PDF whose text holds the brand, the people, the dates, every meal and ₹', async () => {
    const pdf = await renderDietPlanPdf(plan);
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = poppler('pdftotext', pdf, 'basic');
    for (const expected of [
      BRAND.name,
      'Asha Verma',
      'Meera Iyer',
      'Weight loss, phase 1',
      '2 Nov 2026 – 29 Nov 2026',
      'Monday',
      'Tuesday',
      '8:30 am',
      'Breakfast',
      'Vegetable poha (पोहा)',
      '1 katori (150 g)',
      '1 glass (200 ml)',
      '2 rotis (60 g)',
      '1½ katoris (225 g)',
      'Moong dal khichdi',
      'Add 1 tsp roasted peanuts.',
      '₹1,200',
      'Page 1 of 1',
    ]) {
      expect(text).toContain(expected);
    }
    expect(poppler('pdfinfo', pdf, 'basic')).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
  });

  it('embeds only Noto Sans (the built-in fonts cannot print ₹ or Devanagari)', async () => {
    const fonts = poppler('pdffonts', await renderDietPlanPdf(plan), 'fonts');
    const names = fonts
      .split('\n')
      .slice(2)
      .filter(Boolean)
      .map((line) => line.split(/\s+/)[0]);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toMatch(/NotoSans/);
  });

  // Draws several pages on this thread: about a second on a quiet machine, more than vitest's default 5 s on a busy one.
  it('flows a long plan over several pages, numbering them and repeating the day heading', async () => {
    const longDay = {
      label: 'Every day',
      meals: Array.from({ length: 12 }, (_, i) => ({
        time: `${String(6 + i).padStart(2, '0')}:00`,
        name: `Meal ${i + 1}`,
        items: Array.from({ length: 6 }, (_, j) => ({
          food: `Food ${i + 1}.${j + 1}`,
          portion: { quantity: 1, unit: 'bowl' as const, grams: 100 },
        })),
        notes: 'A note long enough to wrap onto a second line inside the notes column of the table.',
      })),
    };
    const pdf = await renderDietPlanPdf({ ...plan, days: [longDay, longDay] });
    const pages = Number(/Pages:\s+(\d+)/.exec(poppler('pdfinfo', pdf, 'long'))?.[1]);
    expect(pages).toBeGreaterThan(2);
    const text = poppler('pdftotext', pdf, 'long');
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text).toContain('Every day (continued)');
    expect(text).toContain('Food 12.6');
    expect(text).toContain('Diet plan for Asha Verma');
  }, 30_000);

  it('refuses an invalid plan with a 400 naming the problem', async () => {
    await expect(renderDietPlanPdf({ ...plan, to: '2026-10-01' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The end date cannot be before the start date',
    });
    await expect(renderDietPlanPdf({ ...plan, days: [] })).rejects.toMatchObject({ message: 'Add at least one day' });
    await expect(renderDietPlanPdf({ ...plan, clientName: ' ' })).rejects.toMatchObject({ message: 'Client name is required' });
    await expect(renderDietPlanPdf({ ...plan, issuedOn: '2026-02-30' })).rejects.toMatchObject({
      message: 'Use a real date in the form YYYY-MM-DD',
    });
  });
});

describe('formatting', () => {
  it('writes quantities with kitchen fractions', () => {
    expect([0.25, 0.5, 0.75, 1, 1.5, 2.25, 3].map(formatQuantity)).toEqual(['¼', '½', '¾', '1', '1½', '2¼', '3']);
  });

  it('writes portions in household units with the metric amount', () => {
    expect(formatPortion({ quantity: 1, unit: 'katori', grams: 150 })).toBe('1 katori (150 g)');
    expect(formatPortion({ quantity: 2, unit: 'roti', grams: 60 })).toBe('2 rotis (60 g)');
    expect(formatPortion({ quantity: 0.5, unit: 'glass', ml: 100 })).toBe('½ glass (100 ml)');
    expect(formatPortion({ quantity: 2, unit: 'glass', ml: 400 })).toBe('2 glasses (400 ml)');
    expect(formatPortion({ quantity: 2, unit: 'tsp', grams: 10 })).toBe('2 tsp (10 g)');
  });

  it('writes times on a 12-hour clock and dates as day, month, year', () => {
    expect(['00:15', '07:30', '12:00', '13:05', '23:59'].map(formatTime)).toEqual([
      '12:15 am',
      '7:30 am',
      '12:00 pm',
      '1:05 pm',
      '11:59 pm',
    ]);
    expect(formatDateRange('2026-12-31', '2027-01-27')).toBe('31 Dec 2026 – 27 Jan 2027');
  });
});
