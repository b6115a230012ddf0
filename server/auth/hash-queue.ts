/**
 * A fair queue for password hashing. scrypt is slow on purpose, so at most
 * `concurrency` run at once; everyone else waits. One queue per key (the
 * caller's IP) is served round-robin, so a flood from one address only
 * delays its own requests: another address waits for at most one job of each
 * active address. Each key (IP and account alike) may hold only `perKeyCap`
 * jobs, queued or running; more are refused at once instead of piling up.
 */
export class QueueFullError extends Error {
  constructor(readonly key: string) {
    super(`too many password checks waiting for ${key}`);
  }
}

type Job = { keys: string[]; start: () => void };

export class FairQueue {
  private running = 0;
  /** Waiting jobs by their first key; Map order is the round-robin order. */
  private readonly waiting = new Map<string, Job[]>();
  private readonly held = new Map<string, number>();

  constructor(
    private readonly concurrency: number,
    private readonly perKeyCap: number,
  ) {}

  /** Runs `fn` when a slot is free and its turn comes; `keys[0]` is the queue it waits in. */
  async run<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
    const full = keys.find((k) => (this.held.get(k) ?? 0) >= this.perKeyCap);
    if (full) throw new QueueFullError(full);
    for (const k of keys) this.held.set(k, (this.held.get(k) ?? 0) + 1);
    try {
      if (this.running < this.concurrency && this.waiting.size === 0) this.running += 1;
      else await new Promise<void>((start) => this.enqueue({ keys, start }));
      try {
        return await fn();
      } finally {
        this.running -= 1;
        this.startNext();
      }
    } finally {
      for (const k of keys) {
        const left = (this.held.get(k) ?? 1) - 1;
        if (left === 0) this.held.delete(k);
        else this.held.set(k, left);
      }
    }
  }

  /** Jobs running and waiting, over every key (readiness reads it). */
  load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const jobs of this.waiting.values()) waiting += jobs.length;
    return { running: this.running, waiting };
  }

  /** Jobs queued or running that hold this key. */
  heldBy(key: string): number {
    return this.held.get(key) ?? 0;
  }

  private enqueue(job: Job) {
    const key = job.keys[0] ?? '';
    const queue = this.waiting.get(key);
    if (queue) queue.push(job);
    else this.waiting.set(key, [job]);
  }

  private startNext() {
    const next = this.waiting.entries().next();
    if (next.done) return;
    const [key, queue] = next.value;
    const job = queue.shift();
    // The key goes to the back of the line, whether or not it still waits.
    this.waiting.delete(key);
    if (queue.length > 0) this.waiting.set(key, queue);
    if (!job) return;
    this.running += 1;
    job.start();
  }
}
