import { parentPort } from 'node:worker_threads';
import { type ConversationDrawing, drawConversationPdf } from './conversation.js';
import { type DietPlanDrawing, drawDietPlanPdf } from './diet-plan.js';
import { drawInvoicePdf, type InvoiceDrawing } from './invoice.js';

/** The jobs the renderers send through the pool (pool.ts carries them without reading them). */
type PdfJob =
  | { kind: 'diet-plan'; drawing: DietPlanDrawing }
  | { kind: 'invoice'; drawing: InvoiceDrawing }
  | { kind: 'conversation'; drawing: ConversationDrawing };

/** Renders one job at a time for the pool and hands the bytes back without copying them. */
parentPort?.on('message', async ({ id, job }: { id: number; job: PdfJob }) => {
  try {
    const pdf =
      job.kind === 'invoice'
        ? await drawInvoicePdf(job.drawing)
        : job.kind === 'conversation'
          ? await drawConversationPdf(job.drawing)
          : await drawDietPlanPdf(job.drawing);
    parentPort?.postMessage({ id, pdf }, [pdf.buffer as ArrayBuffer]);
  } catch (err) {
    parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
