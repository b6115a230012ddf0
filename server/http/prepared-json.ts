/**
 * Prepared JSON: a value that never changes, carrying its own JSON as UTF-8
 * bytes, so an answer that sends it again and again neither stringifies nor
 * encodes it again (a kept feed page's items go into every viewer's answer as
 * they are, copied once into the body).
 *
 * The bytes travel *on the value*, under a non-enumerable symbol (invisible to
 * JSON.stringify, superjson and spreads), and the type says so: a
 * `Prepared<T>` is read-only, so a handler that mutates it gets a type error,
 * and one that maps it gets a plain array, which no signature asking for a
 * `PreparedList<T>` accepts. Nothing is looked up by object identity.
 */
const PREPARED = Symbol('prepared JSON');

/** An envelope's bytes around one prepared value, and their compressed forms (made once per encoding). */
export type PreparedAnswer = {
  readonly head: string;
  readonly tail: string;
  readonly body: Buffer<ArrayBuffer>;
  readonly compressed: Map<string, Promise<Buffer>>;
};

/** What a prepared value carries: its JSON, and the last envelope made around it (envelope.ts). */
export type PreparedJson = { readonly bytes: Buffer; lastAnswer?: PreparedAnswer };

type Carrier = { readonly [PREPARED]: PreparedJson };
export type Prepared<T extends object> = Readonly<T> & Carrier;
export type PreparedList<T extends object> = readonly Prepared<T>[] & Carrier;

/** The JSON a prepared value carries, or undefined for any other value. */
export function preparedJsonOf(value: unknown): PreparedJson | undefined {
  return typeof value === 'object' && value !== null ? (value as Partial<Carrier>)[PREPARED] : undefined;
}

export const isPrepared = (value: unknown): value is Carrier => preparedJsonOf(value) !== undefined;

/** Freezes the value (its own properties; freeze what they hold first) and attaches its JSON. Never change it afterwards. */
export function prepare<T extends object>(value: T): Prepared<T> {
  if (isPrepared(value)) return value as Prepared<T>;
  const json = jsonChunks(value);
  const bytes = typeof json === 'object' ? Buffer.concat(json) : Buffer.from(json ?? 'null');
  Object.defineProperty(value, PREPARED, { value: { bytes } satisfies PreparedJson });
  return Object.freeze(value) as Prepared<T>;
}

/** A frozen list of prepared values whose JSON is joined from theirs. */
export const prepareList = <T extends object>(items: readonly Prepared<T>[]): PreparedList<T> =>
  prepare([...items]) as unknown as PreparedList<T>;

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * What JSON.stringify(value) would make: the UTF-8 chunks of a prepared value,
 * or of an array whose elements all are; otherwise the text itself (undefined
 * where JSON.stringify gives undefined).
 */
export function jsonChunks(value: unknown): Buffer[] | string | undefined {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const own = preparedJsonOf(value);
  if (own !== undefined) return [own.bytes];
  if (Array.isArray(value) && value.length > 0) {
    const chunks: Buffer[] = [OPEN];
    for (const element of value) {
      const bytes = preparedJsonOf(element)?.bytes;
      if (bytes === undefined) return JSON.stringify(value);
      if (chunks.length > 1) chunks.push(COMMA);
      chunks.push(bytes);
    }
    chunks.push(CLOSE);
    return chunks;
  }
  return JSON.stringify(value);
}
