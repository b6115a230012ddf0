import { describe, expect, it } from 'vitest';
import { BoundedQueue, QueueBusyError } from './decode-queue.js';

describe('BoundedQueue', () => {
  it('runs at most `concurrency` at once, in order, and refuses beyond the waiting room', async () => {
    const queue = new BoundedQueue(1, 2);
    const order: string[] = [];
    const a = queue.take();
    const b = queue.take();
    const c = queue.take();
    expect(queue.saturated).toBe(true);
    expect(() => queue.take()).toThrow(QueueBusyError);
    expect(queue.load()).toMatchObject({ running: 1, waiting: 2 });

    void b.turn.then(() => order.push('b'));
    void c.turn.then(() => order.push('c'));
    await a.turn;
    order.push('a');
    a.leave();
    await b.turn;
    expect(queue.load()).toMatchObject({ running: 1, waiting: 1 });
    b.leave();
    b.leave(); // leaving twice gives back one place only
    await c.turn;
    c.leave();
    expect(order).toEqual(['a', 'b', 'c']);
    expect(queue.load()).toEqual({ running: 0, waiting: 0, peak: 1, started: 3 });
    expect(queue.saturated).toBe(false);
  });

  it('a waiting place given back never runs and frees its room', async () => {
    const queue = new BoundedQueue(1, 1);
    const running = queue.take();
    const waiting = queue.take();
    let started = false;
    void waiting.turn.then(() => {
      started = true;
    });
    waiting.leave();
    expect(queue.load()).toMatchObject({ running: 1, waiting: 0 });
    const next = queue.take();
    running.leave();
    await next.turn;
    expect(started).toBe(false);
    next.leave();
    expect(queue.load()).toMatchObject({ running: 0, waiting: 0, started: 2 });
  });
});
