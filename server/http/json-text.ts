/**
 * JSON text kept for values that never change, so an answer that carries
 * them again and again does not stringify them again: a kept feed page's
 * items (feed/checked-items.ts) go into every viewer's answer as they are.
 */
const kept = new WeakMap<object, string>();

/** Keeps the JSON text of a frozen value (it must never change afterwards). */
export function keepJsonText<T extends object>(value: T): T {
  if (!kept.has(value)) kept.set(value, JSON.stringify(value));
  return value;
}

/** JSON.stringify(value), reusing kept texts: the value's own, or, for an array, its elements' when all have one. */
export function jsonText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const own = kept.get(value);
  if (own !== undefined) return own;
  if (Array.isArray(value) && value.length > 0) {
    const parts: string[] = [];
    for (const element of value) {
      const text = typeof element === 'object' && element !== null ? kept.get(element) : undefined;
      if (text === undefined) return JSON.stringify(value);
      parts.push(text);
    }
    return `[${parts.join(',')}]`;
  }
  return JSON.stringify(value);
}
