import { formatDay } from '../format.js';
import { BRAND } from '../brand.js';
import { analysePlan, type DayAnalysis, type PlanFood, type PlanTotal } from '../diet-plan/nutrition.js';
import { portionText, timeText } from '../diet-plan/portion.js';
import { type ComposedDietPlan, type ComposedDietPlanInput, composedDietPlanSchema, type Meal } from '../diet-plan/schema.js';
import { quantityNumberText } from '../nutrition/measures.js';
import { formatNutrient, HEADLINE_NUTRIENTS, NUTRIENTS, type NutrientKey } from '../nutrition/nutrients.js';
import { badRequest, issueMessage, zodFieldErrors } from '../errors.js';
import { isCalendarDate } from '../validation.js';
import { pdfPool } from './pool.js';
import { A4, type FontWeight, inBottomMargin, type PdfDoc, renderPdf } from './document.js';

/**
 * A composed diet plan (days × meals) as a clean, branded A4 PDF. A pure
 * function of its input (it reads nothing but the font files and writes
 * nothing); the dietitian console composes plans through this input.
 */
export type DietPlanPdfInput = ComposedDietPlanInput & {
  clientName: string;
  /** The dietitian's account: the plan prints their name by dietitianOnPlan. */
  dietitian: { firstName: string; lastName: string };
  /** 'YYYY-MM-DD' printed as the issue date; defaults to today (UTC). */
  issuedOn?: string;
  /** The foods the plan links to: linked items print their grams, and each day its totals when the plan asks. */
  foods?: readonly PlanFood[];
  /** The nutrients a day's totals list (the headline five by default; a client's chosen micronutrients after them). */
  totals?: readonly NutrientKey[];
};

const COLOR = {
  brand: '#0f766e',
  brandDark: '#115e59',
  brandTint: '#f0fdfa',
  brandLine: '#99f6e4',
  onBrand: '#ffffff',
  onBrandMuted: '#ccfbf1',
  ink: '#1e293b',
  muted: '#64748b',
  rule: '#e2e8f0',
} as const;

const MARGIN = { top: 60, bottom: 60, left: 48, right: 48 } as const;
const CONTENT_WIDTH = A4.width - MARGIN.left - MARGIN.right;
const MAX_Y = A4.height - MARGIN.bottom;
const CELL_PAD_X = 6;
const CELL_PAD_Y = 7;
const ITEM_GAP = 4;
const DAY_HEADING_HEIGHT = 24;
const TABLE_HEADER_HEIGHT = 20;

const COLUMNS = (() => {
  const widths = { time: 76, food: 178, portion: 118 };
  const notes = CONTENT_WIDTH - widths.time - widths.food - widths.portion;
  let x = MARGIN.left;
  const col = (title: string, width: number) => {
    const c = { title, x, width, inner: width - 2 * CELL_PAD_X };
    x += width;
    return c;
  };
  return {
    time: col('Time', widths.time),
    food: col('Food', widths.food),
    portion: col('Portion', widths.portion),
    notes: col('Notes', notes),
  };
})();

const TYPE = {
  time: { weight: 'semibold', size: 9.5 },
  mealName: { weight: 'regular', size: 8.5 },
  food: { weight: 'regular', size: 9.5 },
  portion: { weight: 'regular', size: 9.5 },
  notes: { weight: 'regular', size: 8.5 },
} as const satisfies Record<string, { weight: FontWeight; size: number }>;

/* ------------------------------ formatting ------------------------------ */

/** The one wording of quantities, portions and times (server/diet-plan/portion.ts), under the names this module had. */
export const formatQuantity = quantityNumberText;
export const formatPortion = portionText;
export const formatTime = timeText;

export { formatDay };
export const formatDateRange = (from: string, to: string) => `${formatDay(from)} – ${formatDay(to)}`;

/**
 * Whose name a plan carries: the dietitian's account name, first and last, as the console and the
 * mails show it. No title is added: an account has no title to add, and a plan must not read
 * "Dr." on one PDF and not on the next. Every plan PDF (composed, previewed, seeded) gets it here.
 */
export const dietitianOnPlan = (d: { firstName: string; lastName: string }) =>
  `${d.firstName ?? ''} ${d.lastName ?? ''}`.replace(/\s+/g, ' ').trim();

/* -------------------------------- layout -------------------------------- */

type People = { clientName: string; dietitianName: string; issuedOn: string };
/** What the plan adds up to, per day (from the foods it links to), and which nutrients a day's total lists. */
type Sums = { days: DayAnalysis[]; totals: NutrientKey[] };

const TOTALS_HEIGHT_MIN = 26;

class DietPlanLayout {
  private y: number = MARGIN.top;

  constructor(
    private readonly doc: PdfDoc,
    private readonly plan: ComposedDietPlan,
    private readonly people: People,
    private readonly sums: Sums,
  ) {}

  draw() {
    this.coverHeader();
    for (const [d, day] of this.plan.days.entries()) {
      const first = day.meals[0];
      this.ensureSpace(DAY_HEADING_HEIGHT + TABLE_HEADER_HEIGHT + (first ? this.mealHeight(first, d, 0) : 0) + 12);
      this.y += 6;
      this.dayHeading(day.label);
      for (const [m, meal] of day.meals.entries()) {
        const height = this.mealHeight(meal, d, m);
        if (this.y + height > MAX_Y) {
          this.newPage();
          this.dayHeading(`${day.label} (continued)`);
        }
        this.mealRow(meal, height, d, m);
      }
      const total = this.sums.days[d]?.total;
      if (this.plan.showTotals && total) this.dayTotals(day.label, total);
      this.y += 10;
    }
    this.guidelines();
    this.signOff();
    this.runningHeadersAndFooters();
  }

  /* ---- text helpers: every measurement uses the font it is drawn with ---- */

  private font(weight: FontWeight, size: number) {
    return this.doc.font(weight).fontSize(size);
  }

  /** Text layout is the costly part of rendering, and each cell is measured more than once. */
  private readonly heights = new Map<string, number>();

  private measure(text: string, style: { weight: FontWeight; size: number }, width: number) {
    const key = `${style.weight}|${style.size}|${width}|${text}`;
    let height = this.heights.get(key);
    if (height === undefined) {
      height = this.font(style.weight, style.size).heightOfString(text, { width });
      this.heights.set(key, height);
    }
    return height;
  }

  private write(
    text: string,
    x: number,
    y: number,
    style: { weight: FontWeight; size: number; color: string; width: number; align?: 'left' | 'right' | 'center' },
  ) {
    this.font(style.weight, style.size)
      .fillColor(style.color)
      .text(text, x, y, { width: style.width, align: style.align ?? 'left' });
  }

  private ensureSpace(height: number) {
    if (this.y + height > MAX_Y) this.newPage();
  }

  private newPage() {
    this.doc.addPage();
    this.y = MARGIN.top;
  }

  /* ------------------------------- blocks ------------------------------- */

  private coverHeader() {
    const doc = this.doc;
    const band = 96;
    doc.rect(0, 0, A4.width, band).fill(COLOR.brand);
    this.write(BRAND.name, MARGIN.left, 24, { weight: 'semibold', size: 24, color: COLOR.onBrand, width: 260 });
    this.write(BRAND.tagline, MARGIN.left, 60, { weight: 'regular', size: 9.5, color: COLOR.onBrandMuted, width: 300 });
    const right = { width: 220, align: 'right' as const };
    const rightX = A4.width - MARGIN.right - right.width;
    this.write('PERSONAL DIET PLAN', rightX, 30, { weight: 'semibold', size: 10, color: COLOR.onBrand, ...right });
    this.write(BRAND.supportEmail, rightX, 48, { weight: 'regular', size: 9, color: COLOR.onBrandMuted, ...right });
    this.write(BRAND.phoneDisplay, rightX, 61, { weight: 'regular', size: 9, color: COLOR.onBrandMuted, ...right });

    this.y = band + 26;
    const titleStyle = { weight: 'semibold' as const, size: 18 };
    this.write(this.plan.title, MARGIN.left, this.y, { ...titleStyle, color: COLOR.ink, width: CONTENT_WIDTH });
    this.y += this.measure(this.plan.title, titleStyle, CONTENT_WIDTH) + 12;

    const facts: [string, string][] = [
      ['Prepared for', this.people.clientName],
      ['Dietitian', this.people.dietitianName],
      ['Plan period', formatDateRange(this.plan.from, this.plan.to)],
      ['Issued on', formatDay(this.people.issuedOn)],
    ];
    const pad = 12;
    const cellWidth = (CONTENT_WIDTH - 2 * pad) / 2;
    const valueStyle = { weight: 'semibold' as const, size: 11 };
    const rowHeights = [0, 2].map((i) =>
      Math.max(...facts.slice(i, i + 2).map(([, value]) => 14 + this.measure(value, valueStyle, cellWidth - 12))),
    );
    const boxHeight = pad * 2 + rowHeights.reduce((a, b) => a + b, 0) + 8;
    doc.roundedRect(MARGIN.left, this.y, CONTENT_WIDTH, boxHeight, 6).fillAndStroke(COLOR.brandTint, COLOR.brandLine);
    let rowY = this.y + pad;
    facts.forEach(([label, value], i) => {
      const x = MARGIN.left + pad + (i % 2) * cellWidth;
      this.write(label.toUpperCase(), x, rowY, { weight: 'semibold', size: 7.5, color: COLOR.muted, width: cellWidth - 12 });
      this.write(value, x, rowY + 12, { ...valueStyle, color: COLOR.ink, width: cellWidth - 12 });
      if (i % 2 === 1) rowY += (rowHeights[(i - 1) / 2] ?? 0) + 8;
    });
    this.y += boxHeight + 16;
  }

  private dayHeading(label: string) {
    const doc = this.doc;
    doc.rect(MARGIN.left, this.y, CONTENT_WIDTH, DAY_HEADING_HEIGHT).fill(COLOR.brandDark);
    this.write(label, MARGIN.left + CELL_PAD_X + 2, this.y + 5, {
      weight: 'semibold',
      size: 11,
      color: COLOR.onBrand,
      width: CONTENT_WIDTH - 2 * CELL_PAD_X,
    });
    this.y += DAY_HEADING_HEIGHT;
    doc.rect(MARGIN.left, this.y, CONTENT_WIDTH, TABLE_HEADER_HEIGHT).fill(COLOR.brandTint);
    for (const col of Object.values(COLUMNS)) {
      this.write(col.title.toUpperCase(), col.x + CELL_PAD_X, this.y + 5.5, {
        weight: 'semibold',
        size: 7.5,
        color: COLOR.brandDark,
        width: col.inner,
      });
    }
    this.y += TABLE_HEADER_HEIGHT;
    this.rule(COLOR.brandLine);
  }

  /** An item's portion: a linked item without weighed grams prints the grams its food's measure gives. */
  private portionOf(item: Meal['items'][number], d: number, m: number, i: number): string {
    const grams = this.sums.days[d]?.meals[m]?.items[i]?.grams;
    const known = item.portion.grams === undefined && item.foodId !== undefined && grams != null ? Math.round(grams) : item.portion.grams;
    return formatPortion({ ...item.portion, grams: known });
  }

  private mealHeight(meal: Meal, d: number, m: number): number {
    const time =
      this.measure(formatTime(meal.time), TYPE.time, COLUMNS.time.inner) + 2 + this.measure(meal.name, TYPE.mealName, COLUMNS.time.inner);
    const items = meal.items.reduce(
      (sum, item, i) =>
        sum +
        (i > 0 ? ITEM_GAP : 0) +
        Math.max(
          this.measure(item.food, TYPE.food, COLUMNS.food.inner),
          this.measure(this.portionOf(item, d, m, i), TYPE.portion, COLUMNS.portion.inner),
        ),
      0,
    );
    const notes = meal.notes ? this.measure(meal.notes, TYPE.notes, COLUMNS.notes.inner) : 0;
    return Math.max(time, items, notes) + 2 * CELL_PAD_Y;
  }

  private mealRow(meal: Meal, height: number, d: number, m: number) {
    const top = this.y + CELL_PAD_Y;
    const { time, food, portion, notes } = COLUMNS;
    const timeText = formatTime(meal.time);
    this.write(timeText, time.x + CELL_PAD_X, top, { ...TYPE.time, color: COLOR.brandDark, width: time.inner });
    const nameY = top + this.measure(timeText, TYPE.time, time.inner) + 2;
    this.write(meal.name, time.x + CELL_PAD_X, nameY, { ...TYPE.mealName, color: COLOR.muted, width: time.inner });

    let itemY = top;
    for (const [i, item] of meal.items.entries()) {
      const portionText = this.portionOf(item, d, m, i);
      this.write(item.food, food.x + CELL_PAD_X, itemY, { ...TYPE.food, color: COLOR.ink, width: food.inner });
      this.write(portionText, portion.x + CELL_PAD_X, itemY, { ...TYPE.portion, color: COLOR.ink, width: portion.inner });
      itemY += Math.max(this.measure(item.food, TYPE.food, food.inner), this.measure(portionText, TYPE.portion, portion.inner)) + ITEM_GAP;
    }
    if (meal.notes) this.write(meal.notes, notes.x + CELL_PAD_X, top, { ...TYPE.notes, color: COLOR.muted, width: notes.inner });
    this.y += height;
    this.rule(COLOR.rule);
  }

  /**
   * A day's totals under its meals: each listed nutrient summed over the day's linked foods, and a
   * note of what is not counted (free-text items, nutrients some foods do not know).
   */
  private dayTotals(label: string, total: PlanTotal) {
    const amounts = this.sums.totals
      .filter((key) => total.values[key] !== undefined)
      .map((key) => `${NUTRIENTS[key].label} ${formatNutrient(key, total.values[key] ?? 0)}`);
    const parts = [amounts.length > 0 ? amounts.join(' · ') : 'No foods of this day are linked to the food library.'];
    if (total.unlinked > 0 && amounts.length > 0)
      parts.push(`Not counted: ${total.unlinked} ${total.unlinked === 1 ? 'item' : 'items'} without a linked food.`);
    const short = this.sums.totals.filter((key) => total.missing[key] && total.values[key] !== undefined);
    if (short.length > 0)
      parts.push(`Some foods do not list ${short.map((k) => NUTRIENTS[k].label.toLowerCase()).join(', ')}: those sums may be low.`);
    const text = parts.join('\n');
    const heading = `${label}: daily total`;
    const style = { weight: 'regular' as const, size: 9 };
    const width = CONTENT_WIDTH - 2 * CELL_PAD_X;
    const height = Math.max(TOTALS_HEIGHT_MIN, 14 + this.measure(text, style, width) + 2 * CELL_PAD_Y);
    this.ensureSpace(height);
    this.doc.rect(MARGIN.left, this.y, CONTENT_WIDTH, height).fill(COLOR.brandTint);
    this.write(heading, MARGIN.left + CELL_PAD_X, this.y + CELL_PAD_Y, { weight: 'semibold', size: 9, color: COLOR.brandDark, width });
    this.write(text, MARGIN.left + CELL_PAD_X, this.y + CELL_PAD_Y + 13, { ...style, color: COLOR.ink, width });
    this.y += height;
    this.rule(COLOR.brandLine);
  }

  private rule(color: string) {
    this.doc
      .moveTo(MARGIN.left, this.y)
      .lineTo(MARGIN.left + CONTENT_WIDTH, this.y)
      .lineWidth(0.75)
      .strokeColor(color)
      .stroke();
  }

  private guidelines() {
    if (this.plan.guidelines.length === 0) return;
    const bulletIndent = 14;
    const style = { weight: 'regular' as const, size: 9.5 };
    const first = this.plan.guidelines[0] ?? '';
    this.ensureSpace(30 + this.measure(first, style, CONTENT_WIDTH - bulletIndent));
    this.y += 8;
    this.write('Guidelines', MARGIN.left, this.y, { weight: 'semibold', size: 12.5, color: COLOR.brandDark, width: CONTENT_WIDTH });
    this.y += 22;
    for (const line of this.plan.guidelines) {
      const height = this.measure(line, style, CONTENT_WIDTH - bulletIndent);
      this.ensureSpace(height);
      this.write('•', MARGIN.left + 2, this.y, { ...style, color: COLOR.brand, width: bulletIndent });
      this.write(line, MARGIN.left + bulletIndent, this.y, { ...style, color: COLOR.ink, width: CONTENT_WIDTH - bulletIndent });
      this.y += height + 5;
    }
  }

  private signOff() {
    const text =
      `Prepared by ${this.people.dietitianName}, ${BRAND.name}. Questions about this plan? ` +
      `Write to ${BRAND.supportEmail} or call ${BRAND.phoneDisplay}.`;
    const style = { weight: 'regular' as const, size: 8.5 };
    const height = this.measure(text, style, CONTENT_WIDTH);
    this.ensureSpace(height + 18);
    this.y += 12;
    this.write(text, MARGIN.left, this.y, { ...style, color: COLOR.muted, width: CONTENT_WIDTH });
    this.y += height;
  }

  /** Stamped after layout, when the page count is known. */
  private runningHeadersAndFooters() {
    const doc = this.doc;
    const range = doc.bufferedPageRange();
    const total = range.count;
    const running = `${BRAND.name} · Diet plan for ${this.people.clientName} · ${formatDateRange(this.plan.from, this.plan.to)}`;
    const footer = `${BRAND.name} · ${BRAND.supportEmail} · ${BRAND.phoneDisplay}`;
    for (let i = range.start; i < range.start + total; i += 1) {
      doc.switchToPage(i);
      if (i > range.start) {
        this.write(running, MARGIN.left, 28, { weight: 'regular', size: 8, color: COLOR.muted, width: CONTENT_WIDTH });
        doc
          .moveTo(MARGIN.left, 44)
          .lineTo(MARGIN.left + CONTENT_WIDTH, 44)
          .lineWidth(1)
          .strokeColor(COLOR.brand)
          .stroke();
      }
      inBottomMargin(doc, () => {
        const y = A4.height - 38;
        doc
          .moveTo(MARGIN.left, y - 8)
          .lineTo(MARGIN.left + CONTENT_WIDTH, y - 8)
          .lineWidth(0.5)
          .strokeColor(COLOR.rule)
          .stroke();
        this.write(footer, MARGIN.left, y, { weight: 'regular', size: 8, color: COLOR.muted, width: CONTENT_WIDTH - 90 });
        this.write(`Page ${i - range.start + 1} of ${total}`, MARGIN.left + CONTENT_WIDTH - 90, y, {
          weight: 'regular',
          size: 8,
          color: COLOR.muted,
          width: 90,
          align: 'right',
        });
      });
    }
  }
}

/** What a worker needs to draw a plan: checked on the caller's side, plain data only. */
export type DietPlanDrawing = { plan: ComposedDietPlan; people: People; sums: Sums };

/** A composed plan checked for drawing; invalid input is a 400 naming the first problem. */
export function prepareDietPlanPdf(input: DietPlanPdfInput): DietPlanDrawing {
  const parsed = composedDietPlanSchema.safeParse(input);
  if (!parsed.success) throw badRequest(issueMessage(parsed.error.issues[0]!), zodFieldErrors(parsed.error));
  const clientName = input.clientName?.trim();
  const dietitianName = input.dietitian ? dietitianOnPlan(input.dietitian) : '';
  if (!clientName) throw badRequest('Client name is required', { clientName: ['Client name is required'] });
  if (!dietitianName) throw badRequest('Dietitian name is required', { dietitian: ['Dietitian name is required'] });
  if (input.issuedOn !== undefined && !isCalendarDate(input.issuedOn)) {
    throw badRequest('Use a real date in the form YYYY-MM-DD', { issuedOn: ['Use a real date in the form YYYY-MM-DD'] });
  }
  const foods = new Map((input.foods ?? []).map((f) => [f.id, f]));
  const sums: Sums = { days: analysePlan(parsed.data.days, foods), totals: [...(input.totals ?? HEADLINE_NUTRIENTS)] };
  return {
    plan: parsed.data,
    people: { clientName, dietitianName, issuedOn: input.issuedOn ?? new Date().toISOString().slice(0, 10) },
    sums,
  };
}

/** The drawing itself: synchronous, CPU-bound work for a PDF worker thread (pool.ts). */
export function drawDietPlanPdf({ plan, people, sums }: DietPlanDrawing): Promise<Uint8Array> {
  return renderPdf(
    {
      title: `${plan.title} — ${people.clientName}`,
      author: `${people.dietitianName}, ${BRAND.name}`,
      subject: `Diet plan for ${people.clientName}, ${formatDateRange(plan.from, plan.to)}`,
    },
    MARGIN,
    (doc) => new DietPlanLayout(doc, plan, people, sums).draw(),
  );
}

/** Renders a composed plan on a PDF worker thread; invalid input is a 400 naming the first problem. */
export async function renderDietPlanPdf(input: DietPlanPdfInput): Promise<Uint8Array> {
  return pdfPool().render({ kind: 'diet-plan', drawing: prepareDietPlanPdf(input) });
}
