/**
 * Turns per key inside this process: work for one key runs one call after another, in arrival
 * order; work for different keys runs side by side. A failed call does not stop the next one.
 */
export function createTurns<K>() {
  const tails = new Map<K, Promise<void>>();
  return async function inTurn<T>(key: K, work: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(work);
    const tail = run.then(
      () => {},
      () => {},
    );
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      // The last caller in line clears the key, so idle keys hold no memory.
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
