import { parentPort } from 'node:worker_threads';
import { drawConversationPdf } from './conversation.js';
import { drawDietPlanPdf } from './diet-plan.js';
import { drawInvoicePdf } from './invoice.js';
import type { PdfJob } from './pool.js';

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
