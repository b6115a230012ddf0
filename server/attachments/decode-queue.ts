/**
 * A line for work that must not run too many at once: at most `concurrency`
 * run, at most `maxWaiting` wait, and anyone beyond is refused at once
 * (QueueBusyError) instead of piling up. A place is taken before the work's
 * other costs are paid (an upload's rate-limit slot), so a refusal costs the
 * caller nothing.
 */
export class QueueBusyError extends Error {
  constructor() {
    super('the queue is full');
  }
}

/** A place in line: `turn` resolves when the work may start; `leave` gives the place back (always call it). */
export type Place = { turn: Promise<void>; leave(): void };

export class BoundedQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** The most that ever ran at once, and how many ever started: what tests and metrics read. */
  private peak = 0;
  private started = 0;

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  /** Takes a place, running or waiting; throws QueueBusyError when every place is taken. */
  take(): Place {
    let state: 'waiting' | 'running' | 'left' = 'waiting';
    let start!: () => void;
    const turn = new Promise<void>((resolve) => {
      start = () => {
        state = 'running';
        this.running += 1;
        this.started += 1;
        this.peak = Math.max(this.peak, this.running);
        resolve();
      };
    });
    if (this.running < this.concurrency && this.waiting.length === 0) start();
    else if (this.waiting.length < this.maxWaiting) this.waiting.push(start);
    else throw new QueueBusyError();
    return {
      turn,
      leave: () => {
        if (state === 'left') return;
        if (state === 'waiting') {
          const at = this.waiting.indexOf(start);
          if (at >= 0) this.waiting.splice(at, 1);
        } else {
          this.running -= 1;
          this.waiting.shift()?.();
        }
        state = 'left';
      },
    };
  }

  /** Every place is taken: the next caller would be refused. */
  get saturated(): boolean {
    return this.running >= this.concurrency && this.waiting.length >= this.maxWaiting;
  }

  load() {
    return { running: this.running, waiting: this.waiting.length, peak: this.peak, started: this.started };
  }

  /** Starts counting the peak again (tests measure one burst at a time). */
  resetPeak() {
    this.peak = this.running;
  }
}
