import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PAINT_FIRST_SCRIPT, PAINT_FIRST_SCRIPT_HASH } from './paint-first.js';

describe('the prerendered pages’ inline loader', () => {
  it('is allowed by the CSP hash of its exact text', () => {
    const digest = createHash('sha256').update(PAINT_FIRST_SCRIPT, 'utf8').digest('base64');
    expect(PAINT_FIRST_SCRIPT_HASH).toBe(`'sha256-${digest}'`);
  });
  it('reads its chunks from the data attributes, so its text is the same on every page and in every build', () => {
    expect(PAINT_FIRST_SCRIPT).not.toMatch(/\/assets\//);
    expect(PAINT_FIRST_SCRIPT).toContain('data-entry');
    expect(PAINT_FIRST_SCRIPT).toContain('data-modules');
  });
});
