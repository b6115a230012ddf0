/**
 * JSON kept as UTF-8 bytes for values that never change, so an answer that
 * carries them again and again neither stringifies nor encodes them again: a
 * kept feed page's items (feed/checked-items.ts) go into every viewer's
 * answer as they are, copied once into the body.
 */
const kept = new WeakMap<object, Buffer>();

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** Keeps the JSON of a frozen value (it must never change afterwards); an array of kept values is joined from their bytes. */
export function keepJsonText<T extends object>(value: T): T {
  if (!kept.has(value)) {
    const json = keptJson(value);
    kept.set(value, typeof json === 'object' ? Buffer.concat(json) : Buffer.from(json ?? 'null'));
  }
  return value;
}

/** Whether the value's JSON is kept (so the value never changes). */
export const isKept = (value: unknown) => typeof value === 'object' && value !== null && kept.has(value);

/**
 * What JSON.stringify(value) would make: the UTF-8 chunks of kept values
 * when the value is kept, or an array whose elements all are; otherwise the
 * text itself (undefined where JSON.stringify gives undefined).
 */
export function keptJson(value: unknown): Buffer[] | string | undefined {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const own = kept.get(value);
  if (own !== undefined) return [own];
  if (Array.isArray(value) && value.length > 0) {
    const chunks: Buffer[] = [OPEN];
    for (const element of value) {
      const bytes = typeof element === 'object' && element !== null ? kept.get(element) : undefined;
      if (bytes === undefined) return JSON.stringify(value);
      if (chunks.length > 1) chunks.push(COMMA);
      chunks.push(bytes);
    }
    chunks.push(CLOSE);
    return chunks;
  }
  return JSON.stringify(value);
}
