import { describe, expect, it } from 'vitest';
import { DIET_PLAN_PDF_MAX_BYTES } from './schema.js';
import { pdfProblem } from './service.js';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const minimalPdf = '%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n';

describe('pdfProblem (uploaded diet plans are checked by content, not by name)', () => {
  it('accepts a file that starts with the PDF header and ends with the end-of-file marker', () => {
    expect(pdfProblem(bytes(minimalPdf))).toBeNull();
  });

  it('refuses an empty file', () => {
    expect(pdfProblem(new Uint8Array())).toBe('The PDF file is empty.');
  });

  it('refuses a file that is not a PDF, whatever it is called', () => {
    expect(pdfProblem(bytes('PK\u0003\u0004 a zip file %%EOF'))).toMatch(/this file is not a PDF/);
    expect(pdfProblem(bytes(' %PDF-1.7 %%EOF'))).toMatch(/this file is not a PDF/);
  });

  it('refuses a truncated PDF (no end-of-file marker in its last kilobyte)', () => {
    expect(pdfProblem(bytes('%PDF-1.7\n1 0 obj <<>> endobj\n'))).toMatch(/looks incomplete/);
    const markerTooEarly = `${minimalPdf}${' '.repeat(2048)}`;
    expect(pdfProblem(bytes(markerTooEarly))).toMatch(/looks incomplete/);
  });

  it('refuses a file over the size limit and says both sizes, rounded up so it never reads as within the limit', () => {
    const big = new Uint8Array(DIET_PLAN_PDF_MAX_BYTES + 1);
    big.set(bytes('%PDF-1.7\n'));
    expect(pdfProblem(big)).toMatch(/^The PDF must be at most 10 MB \(this one is 10.1 MB\)\.$/);
  });

  it('reads a view into a larger buffer correctly (offsets are respected)', () => {
    const backing = bytes(`garbage${minimalPdf}`);
    expect(pdfProblem(backing.subarray('garbage'.length))).toBeNull();
  });
});
