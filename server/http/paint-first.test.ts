import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELD_TAP_CLASS } from '../../src/lib/held-taps.js';
import { formsThatCouldGet, PAINT_FIRST_SCRIPT, PAINT_FIRST_SCRIPT_HASH } from './paint-first.js';

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

describe('what the loader holds until the app attaches', () => {
  it('marks a held control with the class the stylesheet gives a spinner and the app clears', () => {
    expect(PAINT_FIRST_SCRIPT).toContain(`"${HELD_TAP_CLASS}"`);
    expect(readFileSync('src/styles.css', 'utf8')).toContain(`.${HELD_TAP_CLASS}::after`);
  });
  it('keeps held taps where the app looks for them, and lets go once the app has marked itself attached', () => {
    expect(PAINT_FIRST_SCRIPT).toContain('w.__heldTaps=');
    expect(PAINT_FIRST_SCRIPT).toContain('r.hasAttribute("data-hydrated")');
    expect(readFileSync('src/components/HydrationMark.tsx', 'utf8')).toMatch(/dataset\.hydrated = 'true';\s*replayHeldTaps\(\);/);
  });
});

describe('forms on prerendered pages', () => {
  it('finds every form that could submit its fields as a GET', () => {
    const html =
      '<form noValidate="" data-testid="login-form"><input name="password"></form>' +
      '<form method="get" action="/x"></form><form method="POST"></form><form class="a" method="post" aria-label="b"></form>';
    expect(formsThatCouldGet(html)).toEqual(['<form noValidate="" data-testid="login-form">', '<form method="get" action="/x">']);
  });
  it('every form in the client posts (the prerender step refuses a page with one that does not)', () => {
    const files = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tsx'));
    const forms = files.flatMap((file) =>
      [...readFileSync(path.join('src', file), 'utf8').matchAll(/<form\b[^>]*?>/gs)].map((m) => ({ file, tag: m[0] })),
    );
    expect(forms.length).toBeGreaterThan(10);
    expect(forms.filter((f) => !/\smethod="post"/.test(f.tag))).toEqual([]);
  });
});
