import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';

/**
 * Shared plumbing for every PDF the server renders: A4 pages, Noto Sans (the
 * built-in PDF fonts print ₹ as garbage and have no Devanagari), and bytes
 * collected into one Uint8Array.
 */
export type PdfDoc = PDFKit.PDFDocument;

const require = createRequire(import.meta.url);
/** Font files by weight; pdfkit caches a font per document by this path. */
export const FONTS = {
  regular: require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
  semibold: require.resolve('@expo-google-fonts/noto-sans/600SemiBold/NotoSans_600SemiBold.ttf'),
  /** Hindi and other Devanagari text (fontkit shapes its conjuncts and matras). */
  devanagari: require.resolve('@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf'),
  /** Emoji, as outlines (PDF viewers draw no colour emoji font). */
  emoji: require.resolve('@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf'),
} as const;
export type FontWeight = keyof typeof FONTS;

/** The font files' bytes, read once per thread: each PDF worker reads them at its first document and keeps them. */
let fontData: Record<FontWeight, Buffer> | null = null;
const fontBytes = () =>
  (fontData ??= Object.fromEntries(Object.entries(FONTS).map(([weight, file]) => [weight, readFileSync(file)])) as Record<
    FontWeight,
    Buffer
  >);

export const A4 = { width: 595.28, height: 841.89 } as const;

export type PdfMeta = { title: string; author: string; subject?: string; keywords?: string };

/**
 * Runs `draw` on a fresh A4 document (pages buffered, so `draw` may go back
 * and stamp headers and footers) and resolves with the finished file.
 */
export function renderPdf(
  meta: PdfMeta,
  margins: { top: number; bottom: number; left: number; right: number },
  draw: (doc: PdfDoc) => void,
) {
  return new Promise<Uint8Array>((resolve, reject) => {
    const fonts = fontBytes();
    const doc = new PDFDocument({
      size: 'A4',
      margins,
      bufferPages: true,
      font: fonts.regular as unknown as string, // pdfkit takes a path or the bytes
      // pdfkit chokes on undefined entries here: only the ones given.
      info: Object.fromEntries(
        Object.entries({
          Title: meta.title,
          Author: meta.author,
          Subject: meta.subject,
          Keywords: meta.keywords,
          Creator: meta.author,
        }).filter(([, value]) => value !== undefined),
      ),
      lang: 'en-IN',
      displayTitle: true,
    });
    // Drawing code picks fonts by weight name: doc.font('semibold').
    for (const weight of Object.keys(fonts) as FontWeight[]) doc.registerFont(weight, fonts[weight]);
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    try {
      draw(doc);
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}

/**
 * Writes text in the page's bottom margin (footers) without pdfkit starting a
 * new page because the text lies below the margin.
 */
export function inBottomMargin(doc: PdfDoc, fn: () => void) {
  const bottom = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  try {
    fn();
  } finally {
    doc.page.margins.bottom = bottom;
  }
}
