import { describe, expect, it } from 'vitest';
import { loadConfig } from '../env.js';
import { bucket, tooManyRequests } from './rate-limit.js';

describe('tooManyRequests', () => {
  it.each([
    [1, 'Try again in 1 minute.'],
    [60, 'Try again in 1 minute.'],
    [61, 'Try again in 2 minutes.'],
    [900, 'Try again in 15 minutes.'],
  ])('after %i s says "%s" and keeps the seconds for Retry-After', (seconds, tail) => {
    const err = tooManyRequests('sign-in attempts', seconds);
    expect(err.code).toBe('TOO_MANY_REQUESTS');
    expect(err.message).toBe(`Too many sign-in attempts. ${tail}`);
    expect(err.retryAfterSeconds).toBe(seconds);
  });
});

describe('bucket', () => {
  it('counts an email in any letter case as one account', () => {
    expect(bucket.signInAccount('Asha@Example.TEST')).toBe(bucket.signInAccount('asha@example.test'));
    expect(bucket.forgotEmail('A@B.C')).toBe('forgot:email:a@b.c');
  });

  it('keeps sign-in and forgot-password counts apart', () => {
    expect(bucket.signInIp('203.0.113.9')).not.toBe(bucket.forgotIp('203.0.113.9'));
  });
});

describe('RATE_LIMIT_* configuration', () => {
  it('reads <count>/<window> and keeps the defaults otherwise', () => {
    const config = loadConfig({ NODE_ENV: 'test', RATE_LIMIT_FORMS_IP: '100/10m', RATE_LIMIT_VISITS_IP: '5/30s' });
    expect(config.rateLimits.formsIp).toEqual({ max: 100, windowMs: 600_000 });
    expect(config.rateLimits.visitsIp).toEqual({ max: 5, windowMs: 30_000 });
    expect(config.rateLimits.signInIp).toEqual({ max: 30, windowMs: 300_000 });
    expect(config.rateLimits.signInAccount).toEqual({ max: 10, windowMs: 900_000 });
  });

  it.each(['20', '0/1h', '5/2d', 'ten/1h', '5/25h'])('refuses %s naming the variable', (value) => {
    expect(() => loadConfig({ NODE_ENV: 'test', RATE_LIMIT_FORMS_EMAIL: value })).toThrow(
      /RATE_LIMIT_FORMS_EMAIL: must be <count>\/<window> such as 30\/5m/,
    );
  });
});
