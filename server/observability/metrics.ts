import client from 'prom-client';

/**
 * Every operational number Poshan exposes, in one place. Two parts:
 *
 * - Always on (cheap in-process counters the console's Overview shows):
 *   live clients and subscriptions, open sockets, the last error time.
 * - Prometheus series (prom-client), recorded only when metrics are enabled
 *   (METRICS_TOKEN set). Disabled, every recording method is a no-op, so the
 *   hot path pays nothing.
 *
 * Other domains record through the methods below, or expose a number with
 * `registerGauge` (read at scrape time), e.g. a job queue's depth.
 */

export type PoolStats = { total: number; idle: number; waiting: number };
export type SignInOutcome = 'success' | 'rejected' | 'rate_limited' | 'error';
/** A gauge read at scrape time: one number, or one number per label value. */
export type GaugeSource = () => number | Record<string, number> | Promise<number | Record<string, number>>;

export interface Metrics {
  readonly enabled: boolean;
  /** One finished HTTP request (REST, tRPC, static), by route pattern. */
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  /** A feed event was appended (and NOTIFY queued) by this instance. */
  feedPublished(): void;
  /** A live feed event was handed to a subscriber's socket; `publishedAt` is the epoch ms it was published. */
  feedDelivered(publishedAt?: number): void;
  signIn(outcome: SignInOutcome): void;
  /** A mail left the outbox: sent over SMTP, failed, or logged (no SMTP_URL). */
  mailDelivered(status: 'sent' | 'failed' | 'logged'): void;
  /** A request refused by a rate limit; `kind` names the limit (server/auth/rate-limit.ts LimitKind), else the procedure. */
  rateLimited(kind: string): void;
  /** A live subscription opened for a user; call the returned function when it ends. */
  subscriptionOpened(userId: number, role: number): () => void;
  /** An error was logged. */
  errorLogged(): void;
  /** When this instance last logged an error (epoch ms), or null. */
  lastErrorAt(): number | null;
  /** Distinct signed-in clients with a live subscription on this instance. */
  liveClients(): number;
  liveSubscriptions(): number;
  /** Sources read when /metrics is scraped. */
  setSocketCount(read: () => number): void;
  setPoolStats(read: () => PoolStats | null): void;
  /** Registers `name` (prefixed poshan_) as a gauge read at scrape time; `label` names the key of a per-label result. */
  registerGauge(name: string, help: string, read: GaugeSource, label?: string): void;
  /** The exposition text for /metrics. */
  render(): Promise<{ contentType: string; body: string }>;
}

const ROLE_CLIENT = 2;

/** Default Node metrics (event-loop delay, heap, GC) are per process: one registry for every app in it. */
let processRegistry: client.Registry | null = null;
function defaultMetricsRegistry() {
  if (!processRegistry) {
    processRegistry = new client.Registry();
    client.collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 20 });
  }
  return processRegistry;
}

export const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
export const FANOUT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.17, 0.25, 0.5, 1, 2.5, 5];

export function createMetrics(opts: { enabled: boolean }): Metrics {
  let lastErrorAt: number | null = null;
  let readSockets: () => number = () => 0;
  let readPool: () => PoolStats | null = () => null;
  let subscriptions = 0;
  /** userId → open subscriptions of a client. */
  const liveClientSubs = new Map<number, number>();

  const common = {
    lastErrorAt: () => lastErrorAt,
    errorLogged() {
      lastErrorAt = Date.now();
    },
    liveClients: () => liveClientSubs.size,
    liveSubscriptions: () => subscriptions,
    setSocketCount(read: () => number) {
      readSockets = read;
    },
    setPoolStats(read: () => PoolStats | null) {
      readPool = read;
    },
    subscriptionOpened(userId: number, role: number) {
      subscriptions += 1;
      const isClient = role === ROLE_CLIENT;
      if (isClient) liveClientSubs.set(userId, (liveClientSubs.get(userId) ?? 0) + 1);
      let open = true;
      return () => {
        if (!open) return;
        open = false;
        subscriptions -= 1;
        if (isClient) {
          const n = (liveClientSubs.get(userId) ?? 1) - 1;
          if (n <= 0) liveClientSubs.delete(userId);
          else liveClientSubs.set(userId, n);
        }
      };
    },
  };

  if (!opts.enabled) {
    const noop = () => {};
    return {
      ...common,
      enabled: false,
      httpRequest: noop,
      feedPublished: noop,
      feedDelivered: noop,
      signIn: noop,
      mailDelivered: noop,
      rateLimited: noop,
      registerGauge: noop,
      async render() {
        return { contentType: client.register.contentType, body: '' };
      },
    } satisfies Metrics;
  }

  const registry = new client.Registry();
  const httpDuration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern (tRPC: the procedure path) and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  new client.Gauge({
    name: 'poshan_ws_open_sockets',
    help: 'Open WebSocket connections on this instance.',
    registers: [registry],
    collect() {
      this.set(readSockets());
    },
  });
  new client.Gauge({
    name: 'poshan_ws_live_subscriptions',
    help: 'Live tRPC subscriptions (feed streams) on this instance.',
    registers: [registry],
    collect() {
      this.set(subscriptions);
    },
  });
  new client.Gauge({
    name: 'poshan_live_clients',
    help: 'Distinct signed-in clients with a live feed on this instance.',
    registers: [registry],
    collect() {
      this.set(liveClientSubs.size);
    },
  });
  const published = new client.Counter({
    name: 'poshan_feed_events_published_total',
    help: 'Feed events appended and notified by this instance.',
    registers: [registry],
  });
  const delivered = new client.Counter({
    name: 'poshan_feed_events_delivered_total',
    help: 'Live feed events written to subscribers on this instance (one per subscriber).',
    registers: [registry],
  });
  const fanout = new client.Histogram({
    name: 'poshan_feed_fanout_seconds',
    help: 'From publishing a feed event to writing it to a subscriber socket.',
    buckets: FANOUT_BUCKETS,
    registers: [registry],
  });
  const pool = new client.Gauge({
    name: 'poshan_db_pool_connections',
    help: 'Database pool connections by state: total, idle, waiting (clients queued for a connection). Absent on the embedded database.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const s = readPool();
      if (!s) return;
      pool.set({ state: 'total' }, s.total);
      pool.set({ state: 'idle' }, s.idle);
      pool.set({ state: 'waiting' }, s.waiting);
    },
  });
  const signIns = new client.Counter({
    name: 'poshan_sign_ins_total',
    help: 'Sign-in attempts by outcome: success, rejected (wrong credentials or inactive), rate_limited, error.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const mails = new client.Counter({
    name: 'poshan_outbox_mails_total',
    help: 'Mails that left the outbox on this instance, by status: sent, failed, logged (no SMTP_URL).',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const refusals = new client.Counter({
    name: 'poshan_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit, by kind: the limit that was full (signin-ip, signin-account, support-email, hash-queue...), else the procedure.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  new client.Gauge({
    name: 'poshan_last_error_timestamp_seconds',
    help: 'When this instance last logged an error (Unix seconds; 0 = none since start).',
    registers: [registry],
    collect() {
      this.set(lastErrorAt ? lastErrorAt / 1000 : 0);
    },
  });

  return {
    ...common,
    enabled: true,
    httpRequest(method, route, status, seconds) {
      httpDuration.observe({ method, route, status }, seconds);
    },
    feedPublished() {
      published.inc();
    },
    feedDelivered(publishedAt) {
      delivered.inc();
      if (typeof publishedAt === 'number') fanout.observe(Math.max(0, Date.now() - publishedAt) / 1000);
    },
    signIn(outcome) {
      signIns.inc({ outcome });
    },
    mailDelivered(status) {
      mails.inc({ status });
    },
    rateLimited(kind) {
      refusals.inc({ kind });
    },
    registerGauge(name, help, read, label) {
      const full = name.startsWith('poshan_') ? name : `poshan_${name}`;
      const gauge: client.Gauge<string> = new client.Gauge({
        name: full,
        help,
        labelNames: label ? [label] : [],
        registers: [registry],
        async collect() {
          const value = await read();
          if (typeof value === 'number') gauge.set(value);
          else if (label) for (const [k, v] of Object.entries(value)) gauge.set({ [label]: k }, v);
        },
      });
    },
    async render() {
      const [own, node] = await Promise.all([registry.metrics(), defaultMetricsRegistry().metrics()]);
      return { contentType: registry.contentType, body: `${own}\n${node}` };
    },
  } satisfies Metrics;
}
