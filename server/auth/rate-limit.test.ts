import { describe, expect, it } from 'vitest';
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
    expect(bucket.signInFailures('Asha@Example.TEST')).toBe(bucket.signInFailures('asha@example.test'));
    expect(bucket.forgotEmail('A@B.C')).toBe('forgot:email:a@b.c');
  });

  it('keeps sign-in and forgot-password counts apart', () => {
    expect(bucket.signInIp('203.0.113.9')).not.toBe(bucket.forgotIp('203.0.113.9'));
  });
});
