import superjson from 'superjson';

/**
 * What tRPC does with a procedure's output before it is sent: superjson,
 * made cheaper for plain JSON (serializeOutput), and the one hand-over a
 * live subscription needs from tRPC (FirstMessage). Nothing here is decided
 * by an object's identity: the transformer looks at classes only.
 */

type Serialized = ReturnType<typeof superjson.serialize>;

/** A payload serialized once: its superjson form, and that form as JSON text. */
export class SerializedOnce {
  constructor(
    readonly value: Serialized,
    readonly json: string,
    /** Called by the WebSocket encoder as it sends the message (realtime/frames.ts). */
    readonly onSent?: (subscriptionId: unknown, jsonrpc: unknown) => void,
  ) {}
  /** Wherever it is stringified as a whole (an HTTP response), it is what superjson would have made. */
  toJSON(): Serialized {
    return this.value;
  }
}

/**
 * The first message of a live subscription over a WebSocket (realtime/live-channel.ts):
 * tRPC does not tell a procedure its subscription's id, so the channel sends
 * its first event through tRPC wrapped in this, and the WebSocket encoder
 * calls `onSent` with the id as it writes it. Everything after goes through
 * the channel's own writer.
 */
export class FirstMessage<E = unknown> {
  constructor(
    readonly event: E,
    readonly onSent: (subscriptionId: unknown, jsonrpc: unknown) => void,
  ) {}
}

/**
 * Whether superjson would leave this value as it is: strings, finite
 * numbers, booleans, null, arrays and plain objects of those (no Date,
 * undefined, bigint, Map...). Much cheaper than superjson's own walk, which
 * records a path for every value; a feed page is almost all numbers.
 */
function isPlainJson(value: unknown, depth = 0): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (depth > 32) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!(i in value) || !isPlainJson(value[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) {
        if (key === '__proto__' || !isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** superjson.serialize, without its walk when there is nothing for it to do (the same result: `{ json }`). */
export function serializeOutput(value: unknown): Serialized {
  return isPlainJson(value) ? ({ json: value } as Serialized) : superjson.serialize(value);
}

/** serializeOutput, kept with its JSON text (which the WebSocket encoder splices in). */
export function serializeOnce(value: unknown, onSent?: SerializedOnce['onSent']): SerializedOnce {
  const serialized = serializeOutput(value);
  return new SerializedOnce(serialized, JSON.stringify(serialized), onSent);
}

/**
 * The router's output transformer: superjson (serializeOutput), except that a
 * FirstMessage, tracked (`{ id, data }`, as tRPC's adapter wraps a tracked
 * event) or not, is serialized as its event and carries its `onSent`.
 */
export const outputTransformer = {
  serialize(value: unknown): unknown {
    if (value instanceof FirstMessage) return serializeOnce(value.event, value.onSent);
    if (typeof value === 'object' && value !== null && 'data' in value && 'id' in value && value.data instanceof FirstMessage) {
      return serializeOnce({ id: value.id, data: value.data.event }, value.data.onSent);
    }
    return serializeOutput(value);
  },
  deserialize: superjson.deserialize,
};
