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
