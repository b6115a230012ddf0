import { type Attributes, type Context, isSpanContextValid, type TextMapPropagator, TraceFlags, trace } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';

/**
 * What a trace may carry and whom it believes. Loaded with ./otel.ts only.
 *
 * Query strings hold what callers send: tRPC GET calls carry their whole
 * input there (health data), and signed links their signatures. Spans go to a
 * collector that is not the database and keeps them elsewhere, so no query
 * string leaves the process in any span.
 */

/** Attributes that hold a URL or a request target: kept up to the '?'. */
const URL_ATTRIBUTES = new Set(['url.full', 'url.original', 'http.url', 'http.target']);

function withoutQuery(value: string): string {
  const cut = value.search(/[?#]/);
  return cut === -1 ? value : value.slice(0, cut);
}

/** The attributes without query strings: `*.query` dropped, URLs and targets cut at their '?'. */
export function scrubAttributes(attributes: Attributes): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (key.endsWith('.query')) continue;
    kept[key] = URL_ATTRIBUTES.has(key) && typeof value === 'string' ? withoutQuery(value) : value;
  }
  return kept;
}

/** The same span as the exporter sees it, without query strings in its name, attributes or events. */
function scrubSpan(span: ReadableSpan): ReadableSpan {
  return Object.create(span, {
    name: { value: withoutQuery(span.name) },
    attributes: { value: scrubAttributes(span.attributes) },
    events: { value: span.events.map((event) => ({ ...event, attributes: event.attributes && scrubAttributes(event.attributes) })) },
  }) as ReadableSpan;
}

/** Wraps an exporter so every span it sends has been scrubbed of query strings. */
export function exportWithoutQueries(inner: SpanExporter): SpanExporter {
  return {
    export(spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]) {
      inner.export(spans.map(scrubSpan), done);
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

/**
 * W3C trace context on outgoing requests, and nothing believed from incoming
 * ones: a `traceparent` from a browser would choose the trace id (joining an
 * attacker's trace, or flooding one) and its sampled flag. Used unless
 * OTEL_TRUST_TRACEPARENT says the proxy in front sets or strips the header.
 */
export const outgoingOnlyPropagator: TextMapPropagator = {
  inject(context: Context, carrier, setter) {
    const span = trace.getSpanContext(context);
    if (!span || !isSpanContextValid(span)) return;
    const sampled = (span.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? '01' : '00';
    setter.set(carrier, 'traceparent', `00-${span.traceId}-${span.spanId}-${sampled}`);
    const state = span.traceState?.serialize();
    if (state) setter.set(carrier, 'tracestate', state);
  },
  extract: (context: Context) => context,
  fields: () => ['traceparent', 'tracestate'],
};
