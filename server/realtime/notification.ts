/**
 * Reads one NOTIFY payload of a bus: JSON of the shape `isValid` checks. A payload that is not
 * goes to `onError` (naming the bus and the first characters of what arrived) and gives null.
 */
export function parseNotification<T>(
  raw: string,
  isValid: (value: unknown) => value is T,
  what: string,
  onError: (err: Error) => void,
): T | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    onError(err as Error);
    return null;
  }
  if (!isValid(parsed)) {
    onError(new Error(`unexpected ${what} notification: ${raw.slice(0, 200)}`));
    return null;
  }
  return parsed;
}
