import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { describeError } from './errors.js';

describe('describeError', () => {
  it('never hands a database message to a remote caller, in any environment', () => {
    const dbError = new Error('invalid byte sequence for encoding "UTF8": 0x00');
    const d = describeError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: dbError }));
    expect(d.status).toBe(500);
    expect(d.message).toBe('Something went wrong on our side. Please try again.');
    expect(describeError(dbError).message).not.toContain('UTF8');
  });

  it('shows the detail only to a local command that asks for it', () => {
    expect(describeError(new Error('disk full'), true).message).toBe('disk full');
  });
});
