import { describe, expect, it } from 'vitest';
import { FairQueue, QueueFullError } from './hash-queue.js';

/** A job that finishes when the test says so, recording the order jobs started in. */
function harness(queue: FairQueue) {
  const started: string[] = [];
  const finishers: Array<() => void> = [];
  const submit = (label: string, keys: string[]) =>
    queue.run(keys, () => {
      started.push(label);
      return new Promise<void>((resolve) => finishers.push(resolve));
    });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** Finishes the oldest running job and lets the queue start the next one. */
  const finishOne = async () => {
    await settle();
    finishers.shift()?.();
    await settle();
  };
  return { started, submit, finishOne };
}

describe('FairQueue', () => {
  it('serves a second IP after at most one more job of a flooding IP', async () => {
    const queue = new FairQueue(2, 100);
    const { started, submit, finishOne } = harness(queue);
    const flood = Array.from({ length: 40 }, (_, i) => submit(`a${i}`, ['ip:a']));
    const other = submit('b0', ['ip:b']);
    await finishOne();
    await finishOne();
    // Two of A were running when B arrived; B starts within the next turn, not after 38 more.
    expect(started.indexOf('b0')).toBeGreaterThanOrEqual(0);
    expect(started.indexOf('b0')).toBeLessThanOrEqual(3);
    while (started.length < 41) await finishOne();
    await finishOne();
    await finishOne();
    await Promise.all([...flood, other]);
  });

  it('alternates between waiting IPs', async () => {
    const queue = new FairQueue(1, 100);
    const { started, submit, finishOne } = harness(queue);
    const jobs = [submit('a0', ['ip:a']), submit('a1', ['ip:a']), submit('a2', ['ip:a']), submit('b0', ['ip:b']), submit('b1', ['ip:b'])];
    while (started.length < 5) await finishOne();
    await finishOne();
    await Promise.all(jobs);
    expect(started).toEqual(['a0', 'a1', 'b0', 'a2', 'b1']);
  });

  it('refuses a key that already holds its cap, per IP and per account, and frees the slot when a job ends', async () => {
    const queue = new FairQueue(1, 2);
    const { submit, finishOne } = harness(queue);
    const held = [submit('1', ['ip:a', 'acct:x']), submit('2', ['ip:b', 'acct:x']), submit('3', ['ip:a', 'acct:y'])];
    await expect(submit('4', ['ip:c', 'acct:x'])).rejects.toBeInstanceOf(QueueFullError);
    await expect(submit('5', ['ip:a', 'acct:z'])).rejects.toThrow('ip:a');
    expect(queue.heldBy('acct:x')).toBe(2);
    await finishOne();
    await finishOne();
    await finishOne();
    await Promise.all(held);
    expect(queue.heldBy('acct:x')).toBe(0);
    const later = submit('6', ['ip:c', 'acct:x']);
    await finishOne();
    await later;
  });

  it('frees the slot of a job that throws', async () => {
    const queue = new FairQueue(1, 1);
    await expect(queue.run(['ip:a'], async () => Promise.reject(new Error('scrypt failed')))).rejects.toThrow('scrypt failed');
    await expect(queue.run(['ip:a'], async () => 'ok')).resolves.toBe('ok');
  });
});
