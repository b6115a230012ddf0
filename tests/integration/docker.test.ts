import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };

/**
 * There is no container engine here, so the image cannot be built in tests.
 * What can be checked: the compose file is valid (Debian's docker-compose v1
 * validates without an engine), the Dockerfile keeps its promises, and the
 * server needs nothing at run time that `npm ci --omit=dev` leaves out.
 */

const hasDockerCompose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;
const compose = (env: Record<string, string>) =>
  spawnSync('docker-compose', ['-f', 'docker-compose.yml', 'config'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
  });

describe('docker-compose.yml', () => {
  it('is accepted by `docker-compose config` with only APP_SECRET set, with Postgres healthy before the app', (ctx) => {
    if (!hasDockerCompose) ctx.skip('docker-compose is not installed (apt-get install -y docker-compose validates without an engine)');
    const result = compose({ APP_SECRET: 'x'.repeat(64) });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const out = result.stdout;
    expect(out).toContain('image: postgres:17');
    expect(out).toContain('pg_isready -U poshan -d poshan');
    expect(out).toMatch(/depends_on:\s+db:\s+condition: service_healthy/);
    expect(out).toContain('DATABASE_URL: postgres://poshan:poshan@db:5432/poshan');
    expect(out).toMatch(/pgdata:\/var\/lib\/postgresql\/data/);
    expect(out).toMatch(/^volumes:\n(?: {2}\w+:.*\n)* {2}pgdata:/m);
    expect(out).toMatch(/build:\s+context: /);
    // No VAPID pair needed: the app makes one at its first start and keeps it in the database.
    expect(out).toMatch(/VAPID_PUBLIC_KEY: ''/);
    expect(out).toMatch(/VAPID_PRIVATE_KEY: ''/);
  });

  it('refuses to run without APP_SECRET', (ctx) => {
    if (!hasDockerCompose) ctx.skip('docker-compose is not installed (apt-get install -y docker-compose validates without an engine)');
    const result = compose({});
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('set APP_SECRET');
  });
});

describe('docker-compose.yml scale profile: Prometheus and Grafana', () => {
  it('validates with the profile on, scraping every app instance with the METRICS_TOKEN', (ctx) => {
    if (!hasDockerCompose) ctx.skip('docker-compose is not installed (apt-get install -y docker-compose validates without an engine)');
    const result = spawnSync('docker-compose', ['-f', 'docker-compose.yml', '--profile', 'scale', 'config'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', APP_SECRET: 'x'.repeat(64), METRICS_TOKEN: 'm'.repeat(24) },
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/image: prom\/prometheus:v\d/);
    expect(result.stdout).toMatch(/image: grafana\/grafana:\d/);
    expect(result.stdout).toContain('METRICS_TOKEN: mmmmmmmmmmmmmmmmmmmmmmmm');
    expect(result.stdout).toContain('deploy/prometheus/prometheus.yml');
    expect(result.stdout).toContain('deploy/grafana/dashboards');
    const prometheus = readFileSync('deploy/prometheus/prometheus.yml', 'utf8');
    expect(prometheus).toContain('metrics_path: /metrics');
    expect(prometheus).toContain('credentials_file: /tmp/metrics-token');
    expect(prometheus).toMatch(/dns_sd_configs:\s+- names: \[app\]/);
  });

  it('provisions one dashboard whose queries use series the server really exports', () => {
    const dashboard = JSON.parse(readFileSync('deploy/grafana/dashboards/poshan.json', 'utf8'));
    const titles: string[] = dashboard.panels.map((p: { title: string }) => p.title);
    for (const wanted of ['Request rate', 'Latency p50 / p99', 'Errors', 'Live sockets', 'fan-out latency', 'Database pool', 'Outbox']) {
      expect(
        titles.some((t) => t.toLowerCase().includes(wanted.toLowerCase())),
        wanted,
      ).toBe(true);
    }
    const metricsSource = ['metrics.ts', 'server-metrics.ts'].map((f) => readFileSync(`server/observability/${f}`, 'utf8')).join('\n');
    const exprs: string[] = dashboard.panels.flatMap((p: { targets: { expr: string }[] }) => p.targets.map((t) => t.expr));
    const names = new Set(exprs.flatMap((e) => e.match(/\b(?:poshan|http|nodejs)_[a-z0-9_]+/g) ?? []));
    expect(names.size).toBeGreaterThan(8);
    for (const name of names) {
      const base = name.replace(/_(bucket|count|sum)$/, '');
      if (base.startsWith('nodejs_')) continue; // prom-client's default metrics
      expect(metricsSource.includes(`'${base}'`) || metricsSource.includes(`'${base.replace(/^poshan_/, '')}'`), name).toBe(true);
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  const lines = dockerfile.split('\n');

  it('builds on the Node LTS image in stages and runs as the unprivileged node user', () => {
    expect(dockerfile).toContain('ARG NODE_IMAGE=node:22-bookworm-slim');
    expect(lines.filter((l) => l.startsWith('FROM ')).length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toContain('RUN npm ci --no-audit --no-fund');
    expect(dockerfile).toContain('RUN npx vite build');
    expect(dockerfile).toContain('npm ci --omit=dev');
    const lastFrom = lines.findLastIndex((l) => l.startsWith('FROM '));
    const user = lines.findIndex((l) => l.trim() === 'USER node');
    expect(user).toBeGreaterThan(lastFrom);
    expect(lines.findIndex((l) => l.startsWith('CMD '))).toBeGreaterThan(user);
  });

  it("copies the install's own script (postinstall) in before every npm ci, so the image's dependencies are patched too", () => {
    const postinstall = JSON.parse(readFileSync('package.json', 'utf8')).scripts.postinstall as string;
    const script = /node (\S+)/.exec(postinstall)?.[1];
    expect(script).toBe('scripts/patch-deps.mjs');
    const installs = lines.flatMap((l, i) => (/^RUN .*npm ci/.test(l) ? [i] : []));
    expect(installs.length).toBeGreaterThanOrEqual(2);
    for (const at of installs) {
      const stage = lines.slice(0, at).findLastIndex((l) => l.startsWith('FROM '));
      const copied = lines.slice(stage, at).some((l) => l.startsWith('COPY ') && l.includes(script!));
      expect(copied, `line ${at + 1}: ${lines[at]}`).toBe(true);
    }
  });

  it('listens on every interface and checks /healthz', () => {
    expect(dockerfile).toMatch(/HOST=0\.0\.0\.0/);
    expect(dockerfile).toMatch(/HEALTHCHECK[\s\S]*\/healthz/);
    expect(dockerfile).toContain('CMD ["node", "--import", "tsx", "server/main.ts"]');
  });

  it('keeps local data, secrets and dependencies out of the build context', () => {
    const ignored = readFileSync('.dockerignore', 'utf8').split('\n');
    for (const entry of ['node_modules', '.data', '.env', '.git', 'dist']) expect(ignored).toContain(entry);
  });
});

/** Every file of a folder, recursively. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"./][^'"]*)['"]|import\(\s*['"]([^'"./][^'"]*)['"]\s*\)/g;

describe('the runtime image', () => {
  it('has every package the server and migrations import in `dependencies` (npm ci --omit=dev)', () => {
    const sources = [...filesUnder('server'), ...filesUnder('migrations')].filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f));
    const needed = new Map<string, string>();
    for (const file of sources) {
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const spec = (m[1] ?? m[2])!;
        if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        needed.set(name, file);
      }
    }
    expect(needed.size).toBeGreaterThan(5);
    const missing = [...needed].filter(([name]) => !(name in pkg.dependencies)).map(([name, file]) => `${name} (imported by ${file})`);
    expect(missing).toEqual([]);
    expect(pkg.dependencies).toHaveProperty('tsx');
  });
});

describe('docker-compose.yml scale profile: HAProxy in front of every app instance', () => {
  it('validates, with the official image, the config from the repo and a port of its own', (ctx) => {
    if (!hasDockerCompose) ctx.skip('docker-compose is not installed (apt-get install -y docker-compose validates without an engine)');
    const result = spawnSync('docker-compose', ['-f', 'docker-compose.yml', '--profile', 'scale', 'config'], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        APP_SECRET: 'x'.repeat(64),
        METRICS_TOKEN: 'm'.repeat(24),
        APP_PORT: '3001-3003',
      },
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/image: haproxy:2\.\d/);
    expect(result.stdout).toContain('deploy/haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    expect(result.stdout).toMatch(/published: 3001-3003\s+target: 3000/);
    const cfg = readFileSync('deploy/haproxy/haproxy.cfg', 'utf8');
    expect(cfg).toContain('option httpchk GET /readyz');
    expect(cfg).toMatch(/timeout tunnel \d+h/);
    expect(cfg).toMatch(/retry-on conn-failure\s*\n/); // never empty-response: a received write must not be sent twice
    expect(cfg).toContain('server-template app 1-10 app:3000 check resolvers docker');
  });
});

describe('docker-compose.yml scale profile: MinIO for uploaded files', () => {
  it('validates, with MinIO, its bucket made at start, and every instance pointed at it when S3_BUCKET is set', (ctx) => {
    if (!hasDockerCompose) ctx.skip('docker-compose is not installed (apt-get install -y docker-compose validates without an engine)');
    const result = spawnSync('docker-compose', ['-f', 'docker-compose.yml', '--profile', 'scale', 'config'], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        APP_SECRET: 'x'.repeat(64),
        METRICS_TOKEN: 'm'.repeat(24),
        S3_BUCKET: 'poshan-files',
      },
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/image: minio\/minio:RELEASE\.\d{4}-/);
    expect(result.stdout).toContain('S3_BUCKET: poshan-files');
    expect(result.stdout).toContain('S3_ENDPOINT: http://minio:9000');
    expect(result.stdout).toContain('mc mb --ignore-existing');
    expect(result.stdout).toMatch(/filesdata:\/data/);
  });
});
