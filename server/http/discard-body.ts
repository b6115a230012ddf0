/**
 * A refused body is read and thrown away, up to this much and for up to this
 * long, before the answer: closing a connection while the client still sends
 * makes the kernel reset it, and a client that reads the answer only once it
 * has sent everything (Python's requests, many HTTP libraries) would then see
 * a reset instead of the 413. A body larger still is cut off.
 */
export const DISCARD_AT_MOST_BYTES = 32 * 1024 * 1024;
export const DISCARD_AT_MOST_MS = 10_000;

/** Reads what is left of a refused body and drops it, within the bounds above; the reader is cancelled past them. */
export async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead = 0): Promise<void> {
  let seen = alreadyRead;
  const deadline = setTimeout(() => void reader.cancel().catch(() => {}), DISCARD_AT_MOST_MS);
  deadline.unref();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.byteLength;
      if (seen > DISCARD_AT_MOST_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away: nothing left to discard.
  } finally {
    clearTimeout(deadline);
  }
}
