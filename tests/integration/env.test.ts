import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/env.js';
import { runScript } from '../helpers/processes.js';

const SECRET = 'a'.repeat(32);
/** A VAPID key pair's shape. */
const VAPID = { VAPID_PUBLIC_KEY: `B${'A'.repeat(86)}`, VAPID_PRIVATE_KEY: 'p'.repeat(43) };

/** The message loadConfig throws for this environment. */
function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('configuration defaults', () => {
  it('runs on 127.0.0.1:3000 with the embedded database in ./.data and demo content', () => {
    expect(loadConfig({})).toEqual({
      nodeEnv: 'development',
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      namedStatements: true,
      dataDir: './.data',
      clientDistDir: fileURLToPath(new URL('../../dist', import.meta.url)),
      appSecret: undefined,
      smtpUrl: undefined,
      mailFrom: 'Poshan <no-reply@poshan.local>',
      publicUrl: undefined,
      seedDemo: true,
      logLevel: 'info',
      logFormat: 'pretty',
      metricsToken: undefined,
      otlpEndpoint: undefined,
      otelServiceName: 'poshan',
      otelTrustTraceparent: false,
      trustProxy: false,
      rateLimits: {
        signInIp: { max: 30, windowMs: 300_000 },
        signInAccount: { max: 10, windowMs: 900_000 },
        signInDevice: { max: 10, windowMs: 900_000 },
        passwordResetIp: { max: 5, windowMs: 900_000 },
        passwordResetEmail: { max: 5, windowMs: 900_000 },
        formsIp: { max: 20, windowMs: 3_600_000 },
        formsEmail: { max: 5, windowMs: 3_600_000 },
        visitsIp: { max: 300, windowMs: 900_000 },
        checkIns: { max: 10, windowMs: 3_600_000 },
        messages: { max: 30, windowMs: 60_000 },
        refreshSignIn: { max: 10, windowMs: 900_000 },
        refreshIp: { max: 120, windowMs: 900_000 },
        uploads: { max: 20, windowMs: 60_000 },
        journal: { max: 60, windowMs: 3_600_000 },
        careRecord: { max: 60, windowMs: 3_600_000 },
        intakeSaves: { max: 300, windowMs: 3_600_000 },
      },
      wsUnauthenticatedCloseMs: 5000,
      wsMaxPerIp: 50,
      wsMaxSubscriptions: 100,
      headersTimeoutMs: 30_000,
      requestTimeoutMs: 120_000,
      shutdownGraceMs: 10_000,
      shutdownDrainDelayMs: 0,
      storage: { driver: 'local', dir: path.join('./.data', 'files') },
      uploadDailyBytes: 100 * 1024 * 1024,
      razorpay: undefined,
      push: {
        vapidPublicKey: undefined,
        vapidPrivateKey: undefined,
        vapidSubject: undefined,
        allowedHosts: ['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com', '*.notify.windows.com'],
        allowInsecureEndpoints: false,
      },
      iceServers: [],
      turnSecret: undefined,
    });
    expect(loadConfig({ NODE_ENV: 'test' }).logFormat).toBe('json');
  });

  it('turns the demo seed off by default with DATABASE_URL, and lets SEED_DEMO decide either way', () => {
    const url = 'postgres://postgres@127.0.0.1:5432/poshan';
    expect(loadConfig({ DATABASE_URL: url }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: url, SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'off' }).seedDemo).toBe(false);
    expect(loadConfig({ SEED_DEMO: 'yes' }).seedDemo).toBe(true);
  });

  it('serves the client from dist/ unless CLIENT_DIST_DIR names another build (resolved from the working directory)', () => {
    expect(loadConfig({ CLIENT_DIST_DIR: 'build/web' }).clientDistDir).toBe(path.resolve('build/web'));
    expect(loadConfig({ CLIENT_DIST_DIR: '/srv/poshan/client' }).clientDistDir).toBe('/srv/poshan/client');
  });

  it('treats empty values as unset, as compose files and shells pass them', () => {
    const config = loadConfig({ PORT: '', DATABASE_URL: '', APP_SECRET: '' });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.appSecret).toBeUndefined();
  });

  it('reads every variable', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgresql://app:pw@db:5432/poshan',
      DATABASE_NAMED_STATEMENTS: 'off',
      DATA_DIR: '/var/lib/poshan',
      APP_SECRET: SECRET,
      SMTP_URL: 'smtps://u:p@smtp.example.com:465',
      MAIL_FROM: 'Poshan <care@poshan.example>',
      PUBLIC_URL: 'https://poshan.example',
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      METRICS_TOKEN: 'm'.repeat(24),
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318',
      OTEL_SERVICE_NAME: 'poshan-eu',
      TRUST_PROXY: 'true',
      RATE_LIMIT_UPLOADS: '5/30s',
      RATE_LIMIT_JOURNAL: '40/1h',
      UPLOAD_DAILY_MB: '50',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'poshan-files',
      S3_REGION: 'ap-south-1',
      S3_ACCESS_KEY_ID: 'poshan',
      S3_SECRET_ACCESS_KEY: 'secret-key',
      RAZORPAY_KEY_ID: 'rzp_live_AbCd1234',
      RAZORPAY_KEY_SECRET: 'key-secret-123',
      RAZORPAY_WEBHOOK_SECRET: 'hook-secret-123',
      RAZORPAY_API_URL: 'http://razorpay.internal:8080/v1/',
      ...VAPID,
      VAPID_SUBJECT: 'mailto:care@poshan.example',
      PUSH_ALLOWED_HOSTS: 'fcm.googleapis.com, *.push.example.net',
      ICE_SERVERS: 'stun:stun.poshan.example:3478, turn:turn.poshan.example:3478?transport=udp',
      TURN_SECRET: 't'.repeat(32),
    });
    expect(config).toMatchObject({
      nodeEnv: 'production',
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgresql://app:pw@db:5432/poshan',
      namedStatements: false,
      dataDir: '/var/lib/poshan',
      appSecret: SECRET,
      smtpUrl: 'smtps://u:p@smtp.example.com:465',
      mailFrom: 'Poshan <care@poshan.example>',
      publicUrl: 'https://poshan.example',
      seedDemo: false,
      logLevel: 'debug',
      logFormat: 'json',
      metricsToken: 'm'.repeat(24),
      otlpEndpoint: 'http://otel-collector:4318',
      otelServiceName: 'poshan-eu',
      trustProxy: true,
      rateLimits: {
        signInIp: { max: 30, windowMs: 300_000 },
        signInAccount: { max: 10, windowMs: 900_000 },
        signInDevice: { max: 10, windowMs: 900_000 },
        passwordResetIp: { max: 5, windowMs: 900_000 },
        passwordResetEmail: { max: 5, windowMs: 900_000 },
        formsIp: { max: 20, windowMs: 3_600_000 },
        formsEmail: { max: 5, windowMs: 3_600_000 },
        visitsIp: { max: 300, windowMs: 900_000 },
        checkIns: { max: 10, windowMs: 3_600_000 },
        messages: { max: 30, windowMs: 60_000 },
        uploads: { max: 5, windowMs: 30_000 },
        journal: { max: 40, windowMs: 3_600_000 },
        careRecord: { max: 60, windowMs: 3_600_000 },
        intakeSaves: { max: 300, windowMs: 3_600_000 },
      },
      storage: {
        driver: 's3',
        endpoint: 'http://minio:9000',
        bucket: 'poshan-files',
        region: 'ap-south-1',
        credentials: { accessKeyId: 'poshan', secretAccessKey: 'secret-key' },
      },
      uploadDailyBytes: 50 * 1024 * 1024,
      razorpay: {
        keyId: 'rzp_live_AbCd1234',
        keySecret: 'key-secret-123',
        webhookSecret: 'hook-secret-123',
        apiUrl: 'http://razorpay.internal:8080/v1',
      },
      push: {
        vapidPublicKey: VAPID.VAPID_PUBLIC_KEY,
        vapidPrivateKey: VAPID.VAPID_PRIVATE_KEY,
        vapidSubject: 'mailto:care@poshan.example',
        allowedHosts: ['fcm.googleapis.com', '*.push.example.net'],
        allowInsecureEndpoints: false,
      },
      iceServers: [{ urls: ['stun:stun.poshan.example:3478'] }, { urls: ['turn:turn.poshan.example:3478?transport=udp'] }],
      turnSecret: 't'.repeat(32),
    });
  });

  it('turns online payments on only with all three Razorpay settings, against api.razorpay.com unless RAZORPAY_API_URL says otherwise', () => {
    expect(
      loadConfig({ RAZORPAY_KEY_ID: 'rzp_test_1', RAZORPAY_KEY_SECRET: 'secret-123', RAZORPAY_WEBHOOK_SECRET: 'hook-secret' }).razorpay,
    ).toEqual({ keyId: 'rzp_test_1', keySecret: 'secret-123', webhookSecret: 'hook-secret', apiUrl: 'https://api.razorpay.com/v1' });
    expect(loadConfig({ RAZORPAY_API_URL: 'http://127.0.0.1:9/v1' }).razorpay).toBeUndefined();
  });

  it('takes ICE_SERVERS as a comma list of stun:/turn: URLs or as JSON with fixed credentials', () => {
    expect(loadConfig({}).iceServers).toEqual([]);
    expect(
      loadConfig({
        ICE_SERVERS: '[{"urls":["turn:a.example:3478","turns:a.example:5349"],"username":"u","credential":"c"},{"urls":"stun:b.example"}]',
      }).iceServers,
    ).toEqual([{ urls: ['turn:a.example:3478', 'turns:a.example:5349'], username: 'u', credential: 'c' }, { urls: ['stun:b.example'] }]);
  });

  it('keeps files in DATA_DIR/files unless S3_BUCKET names a bucket (the other S3 settings alone change nothing)', () => {
    expect(loadConfig({ DATA_DIR: '/srv/poshan' }).storage).toEqual({ driver: 'local', dir: '/srv/poshan/files' });
    expect(loadConfig({ S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' }).storage.driver).toBe('local');
    expect(loadConfig({ S3_BUCKET: 'files' }).storage).toEqual({
      driver: 's3',
      endpoint: undefined,
      bucket: 'files',
      region: 'us-east-1',
      credentials: undefined,
    });
  });
});

describe('a bad value names the variable', () => {
  it.each([
    [{ PORT: 'http' }, 'PORT: must be a port number'],
    [{ PORT: '70000' }, 'PORT: must be between 0 and 65535'],
    [{ PORT: '80.5' }, 'PORT: must be a whole number'],
    [{ DATABASE_URL: 'mysql://root@db/poshan' }, 'DATABASE_URL: must be a postgres:// URL'],
    [{ APP_SECRET: 'short' }, 'APP_SECRET: must be at least 32 characters'],
    [{ SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL: must be an smtp:// or smtps:// URL'],
    [{ PUBLIC_URL: 'poshan.example' }, 'PUBLIC_URL: must be an absolute URL'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO: must be one of 1/0, true/false, yes/no, on/off'],
    [{ DATABASE_NAMED_STATEMENTS: 'never' }, 'DATABASE_NAMED_STATEMENTS: must be one of 1/0, true/false, yes/no, on/off'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV:'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN: must be at least 16 characters'],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT: must be json or pretty'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT: must be an http:// or https:// URL'],
    [{ RATE_LIMIT_UPLOADS: '20' }, 'RATE_LIMIT_UPLOADS: must be <count>/<window>'],
    [{ RATE_LIMIT_JOURNAL: '0/1h' }, 'RATE_LIMIT_JOURNAL: must be <count>/<window>'],
    [{ UPLOAD_DAILY_MB: '5' }, 'UPLOAD_DAILY_MB: must be at least 10'],
    [{ S3_BUCKET: 'ab' }, 'S3_BUCKET: must be a bucket name'],
    [{ S3_ENDPOINT: 'minio:9000', S3_BUCKET: 'files' }, 'S3_ENDPOINT: must be an http:// or https:// URL'],
    [{ S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'poshan' }, 'S3_SECRET_ACCESS_KEY: is required with the other S3 key'],
    [{ RAZORPAY_KEY_ID: 'key' }, 'RAZORPAY_KEY_ID: must be a Razorpay key id'],
    [
      { RAZORPAY_KEY_ID: 'rzp_test_1', RAZORPAY_KEY_SECRET: 'secret-123' },
      'RAZORPAY_WEBHOOK_SECRET: is required with the other RAZORPAY_ settings',
    ],
    [{ RAZORPAY_WEBHOOK_SECRET: 'hook-secret' }, 'RAZORPAY_KEY_ID: is required with the other RAZORPAY_ settings'],
    [{ RAZORPAY_API_URL: 'api.razorpay.com' }, 'RAZORPAY_API_URL: must be an http:// or https:// URL'],
    [{ VAPID_PUBLIC_KEY: 'short' }, 'VAPID_PUBLIC_KEY: must be a VAPID public key'],
    [{ VAPID_PUBLIC_KEY: `B${'A'.repeat(86)}` }, 'VAPID_PRIVATE_KEY: is required with the other VAPID key'],
    [{ VAPID_SUBJECT: 'poshan.example' }, 'VAPID_SUBJECT: must be a mailto: address or an https:// URL'],
    [{ PUSH_ALLOWED_HOSTS: 'https://fcm.googleapis.com' }, 'PUSH_ALLOWED_HOSTS: must be host names separated by commas'],
    [{ ICE_SERVERS: 'https://turn.example' }, 'ICE_SERVERS: must be stun:/turn: URLs separated by commas'],
    [{ ICE_SERVERS: '[{"urls":' }, 'ICE_SERVERS: is not valid JSON'],
    [{ ICE_SERVERS: '[{"urls":"http://x"}]' }, 'ICE_SERVERS: has a URL that is not stun:, stuns:, turn: or turns:'],
    [{ TURN_SECRET: 'short' }, 'TURN_SECRET: must be at least 16 characters'],
    [{ PUSH_ALLOW_INSECURE_ENDPOINTS: 'maybe' }, 'PUSH_ALLOW_INSECURE_ENDPOINTS: must be one of'],
  ])('%j → "%s"', (env, message) => {
    expect(configError(env)).toContain(message);
  });

  it('requires APP_SECRET in production, and accepts a long enough one', () => {
    expect(configError({ NODE_ENV: 'production' })).toContain('APP_SECRET: is required when NODE_ENV=production');
    expect(loadConfig({ NODE_ENV: 'production', APP_SECRET: SECRET, ...VAPID }).appSecret).toBe(SECRET);
  });

  it('needs nothing but APP_SECRET in production (the VAPID pair is made and kept in the database), and refuses the test-only endpoint setting there', () => {
    const config = loadConfig({ NODE_ENV: 'production', APP_SECRET: SECRET });
    expect(config.push).toMatchObject({ vapidPublicKey: undefined, vapidPrivateKey: undefined });
    expect(configError({ NODE_ENV: 'production', APP_SECRET: SECRET, ...VAPID, PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' })).toContain(
      'PUSH_ALLOW_INSECURE_ENDPOINTS: is for tests only',
    );
    expect(loadConfig({ PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' }).push.allowInsecureEndpoints).toBe(true);
  });

  it('lists every bad variable at once', () => {
    const message = configError({ PORT: 'x', DATABASE_URL: 'sqlite://file' });
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain('PORT:');
    expect(message).toContain('DATABASE_URL:');
  });

  it('stops the server at start with exit code 1 and the variable’s name', async () => {
    const result = await runScript('server/main.ts', [], { PORT: 'eighty', DATA_DIR: '/nonexistent/never-created' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT: must be a port number');
    expect(result.stdout).not.toContain('running at');
  });
});
