import type { Config } from '../env.js';
import type { Tracing } from './otel.js';

/**
 * Optional OpenTelemetry traces (decision 051). This module imports nothing
 * from OpenTelemetry at run time (otel.ts's Tracing type only): with OTEL_EXPORTER_OTLP_ENDPOINT unset, startTracing
 * returns at once and no OpenTelemetry module is ever loaded. With it set,
 * ./otel.js is imported dynamically and traces HTTP requests, pg queries and
 * tRPC procedures (the `observed` middleware calls procedureSpan).
 */
let active: Tracing | null = null;

/** The process's tracer, or null when tracing is off. */
export function tracing(): Tracing | null {
  return active;
}

export async function startTracing(
  config: Pick<Config, 'otlpEndpoint' | 'otelServiceName' | 'otelTrustTraceparent'>,
): Promise<Tracing | null> {
  const endpoint = config.otlpEndpoint;
  if (!endpoint) return null;
  if (!active) {
    const { startOtel } = await import('./otel.js');
    active = startOtel({ endpoint, serviceName: config.otelServiceName, trustTraceparent: config.otelTrustTraceparent });
  }
  return active;
}

export async function stopTracing(): Promise<void> {
  const current = active;
  active = null;
  await current?.shutdown();
}
