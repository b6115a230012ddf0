/**
 * A lean closed-loop HTTP load generator: `connections` keep-alive sockets,
 * each sending its next request as soon as the previous answer is read.
 * It shares the machine's cores with the servers it measures, so it does as
 * little as possible per request: no body parsing unless asked.
 */
import http from 'node:http';

export type LoadSpec = {
  url: string;
  connections: number;
  durationMs: number;
  method?: string;
  /** A path per worker (against `url`), when each worker has its own. */
  path?: (worker: number) => string;
  headers?: (worker: number) => Record<string, string>;
  body?: (worker: number, n: number) => string | undefined;
  /** Called with each answer's body, when given (the body is only read then). */
  check?: (status: number, body: string) => void;
};

export type LoadResult = { requests: number; failed: number; rps: number; p50: number; p99: number };

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function sortedCopy(values: number[]): Float64Array {
  return Float64Array.from(values).sort();
}

function once(agent: http.Agent, base: URL, spec: LoadSpec, worker: number, n: number): Promise<number> {
  const url = spec.path ? new URL(spec.path(worker), base) : base;
  return new Promise((resolve, reject) => {
    const body = spec.body?.(worker, n);
    const headers = { ...spec.headers?.(worker) };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const req = http.request(url, { agent, method: spec.method ?? 'GET', headers }, (res) => {
      if (!spec.check) {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        return;
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => {
        try {
          spec.check?.(res.statusCode ?? 0, text);
          resolve(res.statusCode ?? 0);
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const url = new URL(spec.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const deadline = started + spec.durationMs;
  const worker = async (w: number) => {
    for (let n = 0; performance.now() < deadline; n++) {
      const t0 = performance.now();
      try {
        const status = await once(agent, url, spec, w, n);
        if (status >= 400) failed += 1;
      } catch {
        failed += 1;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, (_, w) => worker(w)));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = sortedCopy(latencies);
  return { requests: latencies.length, failed, rps: latencies.length / elapsed, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}
