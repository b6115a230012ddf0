import type { Db } from '../db/index.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { type SendInOneCall, type SendResult, sendMessages } from './send-repo.js';

/** Calls to the database for sends that may be under way at once; more sends wait and go together in the next call. */
export const SEND_CALLS_IN_FLIGHT = 2;
/** The most sends in one call (a bigger queue goes in several). */
export const SEND_BATCH_MAX = 64;

type Waiting = { send: SendInOneCall; resolve: (r: SendResult) => void; reject: (err: unknown) => void };

/**
 * Sends that arrive together share one call to the database. A send goes at once when fewer than
 * SEND_CALLS_IN_FLIGHT calls are under way (alone); otherwise it waits for the next call, which takes every send
 * waiting by then (the same `message_send`, given many). Nothing waits on a timer: under light
 * load every send is alone, and under heavy load the calls grow instead of queueing, so a send costs the database
 * a share of one statement, one round trip and one commit.
 *
 * A speed trick only, with the same answers: each send keeps all its rules inside the batch. When a batch fails
 * (an error in one send, a deadlock with another instance's transaction), every send in it is tried again alone,
 * in the order they came, so each gets its own answer; when the database cannot be reached, every send of the
 * batch is answered with that at once (a client's retry of a send whose batch did commit answers as a repeat). Sends in a
 * caller's transaction (a message with files) never come here.
 */
export class SendBatcher {
  private readonly waiting: Waiting[] = [];
  private inFlight = 0;
  /** Calls made and the sends they carried, since the start (a batch that failed counts once, its sends again alone). */
  readonly counts = { calls: 0, batches: 0, sends: 0 };

  constructor(
    private readonly db: Db,
    private readonly limits = { inFlight: SEND_CALLS_IN_FLIGHT, batchMax: SEND_BATCH_MAX },
  ) {}

  send(send: SendInOneCall): Promise<SendResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ send, resolve, reject });
      this.pump();
    });
  }

  private pump() {
    while (this.inFlight < this.limits.inFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.limits.batchMax);
      this.inFlight++;
      void this.call(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async call(batch: Waiting[]) {
    if (batch.length === 1) return this.alone(batch[0]!);
    let results: SendResult[];
    this.counts.calls++;
    this.counts.batches++;
    this.counts.sends += batch.length;
    try {
      results = await sendMessages(
        this.db,
        batch.map((w) => w.send),
      );
    } catch (err) {
      // The database is unreachable: every send hears so now (503), instead of each waiting for its own try to fail.
      if (isDatabaseUnavailable(err)) {
        for (const w of batch) w.reject(err);
        return;
      }
      // One after the other, in the order they came: a sender's messages keep their order.
      for (const w of batch) await this.alone(w);
      return;
    }
    for (const [i, w] of batch.entries()) w.resolve(results[i]!);
  }

  private alone(w: Waiting) {
    this.counts.calls++;
    this.counts.sends++;
    return sendMessages(this.db, [w.send]).then((r) => w.resolve(r[0]!), w.reject);
  }
}
