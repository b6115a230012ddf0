/**
 * A new idempotency key (a v4 UUID) for a create the app may send twice: made
 * once per submission and sent again on a retry, so the server keeps one row.
 * crypto.randomUUID exists only in secure contexts (HTTPS, localhost); on a
 * plain-HTTP address the key is built from getRandomValues, which exists
 * everywhere.
 */
export function newRequestKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A submission's key, with the body it was made for. */
export type SubmissionKey = { body: string; key: string };

/**
 * The key to send a submission with: the previous attempt's while the body is the same (a retry after a lost
 * answer, which the server answers with the first result), a new one once the person has changed it (the
 * server refuses a key it has seen with other details, 422).
 */
export function keyForBody(previous: SubmissionKey | null, body: unknown): SubmissionKey {
  const text = JSON.stringify(body);
  return previous && previous.body === text ? previous : { body: text, key: newRequestKey() };
}
