import { describe, expect, it } from 'vitest';
import { createTurns } from './turns.js';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe('createTurns', () => {
  it('runs work for one key one call at a time, in arrival order', async () => {
    const inTurn = createTurns<number>();
    const log: string[] = [];
    const gate = deferred();
    const first = inTurn(1, async () => {
      log.push('first starts');
      await gate.promise;
      log.push('first ends');
      return 'a';
    });
    const second = inTurn(1, async () => {
      log.push('second starts');
      return 'b';
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['first starts']);
    gate.resolve();
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
    expect(log).toEqual(['first starts', 'first ends', 'second starts']);
  });

  it('does not hold up other keys', async () => {
    const inTurn = createTurns<number>();
    const gate = deferred();
    const blocked = inTurn(1, () => gate.promise);
    expect(await inTurn(2, async () => 'free')).toBe('free');
    gate.resolve();
    await blocked;
  });

  it('gives the next call its turn after a failure, and the failure to its own caller', async () => {
    const inTurn = createTurns<string>();
    const failing = inTurn('post', async () => {
      throw new Error('no');
    });
    const next = inTurn('post', async () => 'ran');
    await expect(failing).rejects.toThrow('no');
    expect(await next).toBe('ran');
  });
});
