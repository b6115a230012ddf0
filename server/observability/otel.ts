import { createRequire } from 'node:module';
import path from 'node:path';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { exportWithoutQueries, outgoingOnlyPropagator } from './trace-privacy.js';

/** What a tracer does for the server (startTracing hands it out; tracing.ts loads this module only when tracing is on). */
export type Tracing = {
  /** Runs fn inside a span named `name`; `failure` names an error code of its result (the span is marked failed). */
  inSpan<T>(
    name: string,
    attributes: Record<string, string | number>,
    fn: () => Promise<T>,
    failure?: (result: T) => string | null,
  ): Promise<T>;
  /** Exports what is still buffered and stops. */
  shutdown(): Promise<void>;
};

/**
 * Loaded only by startTracing (./tracing.ts) when OTEL_EXPORTER_OTLP_ENDPOINT
 * is set. Spans go over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`, as the
 * standard variable means. HTTP server spans and pg query spans come from the
 * OpenTelemetry instrumentations; the tRPC procedure spans from Tracing.inSpan.
 */
export function startOtel(options: { endpoint: string; serviceName: string; trustTraceparent: boolean }): Tracing {
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exportWithoutQueries(exporter))],
  });
  // Undefined keeps the SDK's W3C trace context and baggage, both ways.
  provider.register({ propagator: options.trustTraceparent ? undefined : outgoingOnlyPropagator });
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Health probes and scrapes would drown the traces that matter.
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)(\?|$)/.test(req.url ?? ''),
      }),
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
    ],
  });
  // The instrumentations patch a module when it is require()d. The server
  // imports http and pg as ES modules, which share these very objects with
  // require(), so requiring them once here applies the patches to them.
  const require = createRequire(import.meta.url);
  require('node:http');
  require('http');
  require('pg');
  require(require.resolve('pg-pool', { paths: [path.dirname(require.resolve('pg'))] }));

  const tracer = trace.getTracer('poshan');
  return {
    inSpan(name, attributes, fn, failure) {
      return tracer.startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
        try {
          const result = await fn();
          const code = failure?.(result) ?? null;
          if (code) {
            span.setAttribute('poshan.error_code', code);
            span.setStatus({ code: SpanStatusCode.ERROR, message: code });
          }
          return result;
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
          throw err;
        } finally {
          span.end();
        }
      });
    },
    async shutdown() {
      await provider.shutdown();
    },
  };
}
