import os from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * PDF rendering off the event loop: pdfkit lays out and compresses a plan in
 * 0.3–1 s of synchronous work, which would stall every request and live
 * event of the instance. A small pool of worker threads does it instead
 * (each loads the fonts once), one document per worker at a time.
 */
export const PDF_WORKERS = Math.max(1, Math.min(4, os.availableParallelism() - 1));

/**
 * A document to draw: which renderer and what it draws. The pool only carries
 * it to a worker; worker-thread.ts reads it by kind (each renderer's
 * render*Pdf makes its own).
 */
export type PdfJob = { kind: string; drawing: unknown };
type Reply = { id: number; pdf?: Uint8Array; error?: string };
type Task = { id: number; job: PdfJob; resolve: (pdf: Uint8Array) => void; reject: (err: Error) => void };
type Slot = { worker: Worker; task: Task | null };

const WORKER_ENTRY = new URL('./worker.mjs', import.meta.url);

export function createPdfPool(size = PDF_WORKERS) {
  const slots: Slot[] = [];
  const queue: Task[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = (): Slot => {
    const slot: Slot = { worker: new Worker(WORKER_ENTRY), task: null };
    const fail = (err: Error) => {
      slots.splice(slots.indexOf(slot), 1);
      slot.task?.reject(err);
      slot.task = null;
      dispatch();
    };
    slot.worker.on('message', (reply: Reply) => {
      const task = slot.task;
      slot.task = null;
      slot.worker.unref(); // an idle worker never keeps the process alive
      if (task) {
        if (reply.pdf) task.resolve(reply.pdf);
        else task.reject(new Error(`PDF rendering failed: ${reply.error ?? 'no output'}`));
      }
      dispatch();
    });
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) => {
      if (slots.includes(slot)) fail(new Error(`PDF worker stopped (exit code ${code})`));
    });
    slots.push(slot);
    return slot;
  };

  const dispatch = () => {
    while (queue.length > 0 && !closed) {
      const slot = slots.find((s) => s.task === null) ?? (slots.length < size ? spawn() : null);
      if (!slot) return;
      const task = queue.shift()!;
      slot.task = task;
      slot.worker.ref();
      slot.worker.postMessage({ id: task.id, job: task.job });
    }
  };

  return {
    size,
    /**
     * Starts one worker ahead of the first PDF, so the first dietitian to preview a plan does not
     * also wait for a thread to load the renderer and its fonts (seconds on a busy machine).
     */
    /** Worker threads started so far. */
    threads: () => slots.length,
    warm() {
      if (closed || slots.length > 0) return;
      spawn().worker.unref();
    },
    render(job: PdfJob): Promise<Uint8Array> {
      if (closed) return Promise.reject(new Error('The PDF renderer has been shut down.'));
      return new Promise((resolve, reject) => {
        queue.push({ id: nextId++, job, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const task of queue.splice(0)) task.reject(new Error('The PDF renderer has been shut down.'));
      const stopping = slots.splice(0);
      for (const s of stopping) s.task?.reject(new Error('The PDF renderer has been shut down.'));
      await Promise.all(stopping.map((s) => s.worker.terminate()));
    },
  };
}

export type PdfPool = ReturnType<typeof createPdfPool>;

let shared: PdfPool | null = null;
/** The process's pool, started at the first PDF. */
export const pdfPool = () => (shared ??= createPdfPool());
