import { execFileSync } from 'node:child_process';
import { describeError } from '../../server/errors.js';
import { createContextFromToken } from '../../server/trpc/context.js';
import { createCaller } from '../../server/trpc/root.js';
import type { TestServer } from '../helpers/server.js';

/**
 * Helpers for the console's integration tests (tests/integration/admin-*.test.ts):
 * typed procedure calls as a given token, exactly as the HTTP adapter builds them.
 */
export async function callerFor(server: TestServer, token?: string) {
  return createCaller(await createContextFromToken(server.deps, token ?? null, { ip: '127.0.0.1', userAgent: 'vitest' }));
}

/**
 * The error a call fails with, described as both transports describe it (so an
 * input error reads as its first field's message). Throws if the call succeeds.
 */
export async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; fieldErrors?: Record<string, string[]> }> {
  try {
    await promise;
  } catch (err) {
    const { code, message, fieldErrors } = describeError(err, true);
    return { code, message, fieldErrors };
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** The text of a PDF, as poppler reads it (layout flattened). */
export const pdfText = (pdf: Uint8Array) => execFileSync('pdftotext', ['-', '-'], { input: Buffer.from(pdf), encoding: 'utf8' });

/** The smallest file that is a PDF by content: a header, one empty page, and the end marker. */
export function tinyPdf(note = 'uploaded'): Uint8Array {
  return new TextEncoder().encode(
    `%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj\n% ${note}\ntrailer <</Root 1 0 R>>\n%%EOF\n`,
  );
}

export const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
