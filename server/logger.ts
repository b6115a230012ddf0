import { createRequire } from 'node:module';
import pino, { type DestinationStream, type LoggerOptions } from 'pino';

export type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export type LogFields = Record<string, unknown>;
type Method = (msg: string, fields?: LogFields) => void;

/**
 * The app's logger: a thin typed facade over pino, so call sites stay
 * `logger.info('message', { fields })`. One JSON line per event in
 * production; readable lines in development (pino-pretty, a dev dependency).
 */
export interface Logger {
  debug: Method;
  info: Method;
  warn: Method;
  error: Method;
  /**
   * The access log's line (one per HTTP request or WebSocket call): its fields
   * are built by the server from known-safe values only (request id, method,
   * route pattern, status, duration, user id), so it skips the redaction pass,
   * which costs about ten times the rest of a line (see docs/benchmarks.md).
   * Never pass it anything a client sent.
   */
  access(level: 'info' | 'warn', msg: string, fields: AccessFields): void;
  /** A logger whose lines all carry these fields (e.g. the request id). */
  child(bindings: LogFields): Logger;
}

/** What an access line may hold: server-made scalars, nothing nested. */
export type AccessFields = Record<string, string | number | boolean | null | undefined>;

/**
 * Field paths pino removes from every line (one level of nesting is enough:
 * call sites pass flat fields or one nested object such as `req`, `input`).
 * Tokens, secrets, passwords, reset and invitation links, authorization
 * headers, and health details (weights, heights, BMI, notes).
 */
const SENSITIVE_KEYS = [
  'token',
  'refreshToken',
  'accessToken',
  'password',
  'newPassword',
  'currentPassword',
  'passwordHash',
  'password_hash',
  'secret',
  'appSecret',
  'link',
  'resetLink',
  'inviteLink',
  'url',
  'authorization',
  'cookie',
  'weight',
  'weightKg',
  'weight_kg',
  'height',
  'heightM',
  'height_m',
  'bmi',
  'notes',
  'note',
  'text',
  'body',
];
export const REDACT_PATHS = [
  ...SENSITIVE_KEYS,
  ...SENSITIVE_KEYS.map((k) => `*.${k}`),
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
];
export const REDACTED = '[redacted]';

/**
 * Messages are free text: scrub what looks like a credential in them too
 * (token-bearing query strings, bearer tokens, our opaque `enc:` passwords).
 */
const SECRET_IN_TEXT = /([?&#](?:token|code|key|secret|password|signature|sig)=)[^&\s#"']+|(bearer\s+)[^\s"']+|\benc:[\w-]+:[\w-]+/gi;
export function scrubText(text: string): string {
  if (!text.includes('=') && !/bearer|enc:/i.test(text)) return text;
  return text.replace(SECRET_IN_TEXT, (_m, q?: string, b?: string) => `${q ?? b ?? ''}${REDACTED}`);
}

export type LoggerSetup = {
  level?: Level;
  /** `pretty` needs pino-pretty (a dev dependency); without it the lines stay JSON. */
  format?: 'json' | 'pretty';
  /** Where lines go (tests capture them); default stdout. */
  destination?: DestinationStream;
  /** Called on every error-level line (the console's "last error" time). */
  onError?: () => void;
};

function prettyStream(): DestinationStream | null {
  try {
    const require = createRequire(import.meta.url);
    const pretty = require('pino-pretty') as (opts: object) => DestinationStream;
    return pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  } catch {
    return null;
  }
}

export function pinoOptions(level: Level): LoggerOptions {
  return {
    level,
    base: { pid: process.pid },
    messageKey: 'msg',
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    hooks: {
      logMethod(args, method) {
        // Facade calls are (fields, msg) or (msg); scrub the message text.
        const last = args.length - 1;
        if (typeof args[last] === 'string') args[last] = scrubText(args[last] as string);
        method.apply(this, args as Parameters<typeof method>);
      },
    },
  };
}

function wrap(p: pino.Logger, unredacted: pino.Logger, onError?: () => void): Logger {
  const method =
    (name: 'debug' | 'info' | 'warn' | 'error'): Method =>
    (msg, fields) => {
      if (name === 'error') onError?.();
      if (!p.isLevelEnabled(name)) return;
      if (fields) p[name](fields, msg);
      else p[name](msg);
    };
  return {
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
    access(level, msg, fields) {
      if (unredacted.isLevelEnabled(level)) unredacted[level](fields, msg);
    },
    child: (bindings) => wrap(p.child(bindings), unredacted.child(bindings), onError),
  };
}

export function createLogger(setup: Level | LoggerSetup = 'info'): Logger {
  const s: LoggerSetup = typeof setup === 'string' ? { level: setup } : setup;
  const level = s.level ?? 'info';
  const destination =
    s.destination ?? (s.format === 'pretty' && level !== 'silent' ? prettyStream() : null) ?? pino.destination({ dest: 1, sync: false });
  const { redact: _redact, hooks: _hooks, ...unredacted } = pinoOptions(level);
  return wrap(pino(pinoOptions(level), destination), pino(unredacted, destination), s.onError);
}
