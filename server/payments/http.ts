import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { forbidden } from '../errors.js';
import { errorEnvelope } from '../http/envelope.js';
import { idField } from '../validation.js';
import { INVALID_LINK, openSignedInvoicePdf } from './documents.js';

const params = z.object({ kind: z.enum(['invoice', 'receipt']), id: idField('id') });

/**
 * GET /api/invoice-files/{invoice|receipt}/:id?exp=&sig= — the PDF behind a
 * signed link from GET /api/invoices/{id}/pdf. A plain Hono route (binary,
 * and a new tab sends no bearer header), mounted ahead of the JSON API.
 */
export function invoiceFileRoutes(deps: AppDeps) {
  const app = new Hono();
  app.get('/:kind/:id', async (c) => {
    try {
      const p = params.safeParse(c.req.param());
      if (!p.success) throw forbidden(INVALID_LINK);
      const doc = await openSignedInvoicePdf(deps, { ...p.data, exp: c.req.query('exp'), sig: c.req.query('sig') });
      const body = new Uint8Array(doc.pdf).buffer;
      const name = `${p.data.kind}-${doc.number.replace(/[^A-Za-z0-9-]+/g, '-')}.pdf`;
      return c.body(body, 200, {
        'Content-Type': 'application/pdf',
        'Content-Length': String(body.byteLength),
        'Content-Disposition': `inline; filename="${name}"`,
        'Cache-Control': 'private, no-store',
      });
    } catch (error) {
      return errorEnvelope(c, error, { logger: deps.logger, what: 'invoice PDF download' });
    }
  });
  return app;
}
