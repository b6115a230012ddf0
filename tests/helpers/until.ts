/**
 * Waits for a condition: calls `check` every `intervalMs` until it returns something other than
 * `false`, `undefined` or `null` (or throws something else than a pending state), and returns that.
 * Throws after `timeoutMs` with `what` and, if given, `explain()`'s account of the state seen,
 * so a failure on a busy CI machine says what was missing. A check that throws counts as "not yet"
 * when `ignoreErrors` is set (a server still starting), and fails the wait otherwise.
 * The one poller of the tests; `expect.poll` does the same inside an assertion.
 */
export async function until<T>(
  check: () => T | false | undefined | null | Promise<T | false | undefined | null>,
  what: string,
  opts: { timeoutMs?: number; intervalMs?: number; ignoreErrors?: boolean; explain?: () => string | Promise<string> } = {},
): Promise<T> {
  const { timeoutMs = 20_000, intervalMs = 50, ignoreErrors = false } = opts;
  const deadline = Date.now() + timeoutMs;
  while (true) {
    let value: T | false | undefined | null;
    try {
      value = await check();
    } catch (err) {
      if (!ignoreErrors) throw err;
      value = undefined;
    }
    if (value !== false && value !== undefined && value !== null) return value;
    if (Date.now() > deadline) {
      const state = opts.explain ? ` (${await opts.explain()})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${state}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Waits until an event matching `pred` has arrived in `events` (a subscription's onData pushes them) and returns it. */
export function received<T>(events: readonly T[], pred: (event: T) => boolean, what = 'the event'): Promise<T> {
  return until(() => events.find(pred), what, { timeoutMs: 10_000, intervalMs: 20, explain: () => `received ${JSON.stringify(events)}` });
}
