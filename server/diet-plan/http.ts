import { Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import { forbidden } from '../errors.js';
import { errorEnvelope } from '../http/envelope.js';
import { pdfLinkParams } from './schema.js';
import { INVALID_LINK_MESSAGE, openSignedPdf } from './service.js';

/**
 * GET /api/diet-plan/pdf/:id?exp=&sig= — the PDF behind a signed link from
 * dietPlan.list. A plain Hono route (binary, and no bearer header: a new
 * browser tab sends none), mounted in server/app.ts before the JSON API.
 */
export function dietPlanPdfRoutes(deps: AppDeps) {
  const app = new Hono();
  app.get('/pdf/:id', async (c) => {
    try {
      const params = pdfLinkParams.safeParse(c.req.param());
      if (!params.success) throw forbidden(INVALID_LINK_MESSAGE);
      const plan = await openSignedPdf(deps, { id: params.data.id, exp: c.req.query('exp'), sig: c.req.query('sig') });
      // A fresh ArrayBuffer: both drivers may hand back a view into a larger buffer.
      const body = new Uint8Array(plan.pdf).buffer;
      return c.body(body, 200, {
        'Content-Type': 'application/pdf',
        'Content-Length': String(body.byteLength),
        'Content-Disposition': `inline; filename="diet-plan-${plan.from}-to-${plan.to}.pdf"`,
        'Cache-Control': 'private, no-store',
      });
    } catch (error) {
      return errorEnvelope(c, error, { logger: deps.logger, what: 'diet plan PDF download' });
    }
  });
  return app;
}
