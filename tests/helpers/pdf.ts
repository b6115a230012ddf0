import { execFileSync } from 'node:child_process';

/** The text of a PDF, as poppler reads it (layout flattened). */
export const pdfText = (pdf: Uint8Array) => execFileSync('pdftotext', ['-', '-'], { input: Buffer.from(pdf), encoding: 'utf8' });

/** The smallest file that is a PDF by content: a header, one empty page, and the end marker. */
export function tinyPdf(note = 'uploaded'): Uint8Array {
  return new TextEncoder().encode(
    `%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj\n% ${note}\ntrailer <</Root 1 0 R>>\n%%EOF\n`,
  );
}

export const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
