import { describe, expect, it } from 'vitest';
import { formatBytes, linkify } from './format';

describe('linkify', () => {
  it('turns http and https addresses into links and leaves the rest as text', () => {
    expect(linkify('Recipe: https://example.com/poha. Enjoy!\nMore at http://x.test')).toEqual([
      { kind: 'text', text: 'Recipe: ' },
      { kind: 'link', text: 'https://example.com/poha', href: 'https://example.com/poha' },
      { kind: 'text', text: '. Enjoy!\nMore at ' },
      { kind: 'link', text: 'http://x.test', href: 'http://x.test' },
    ]);
  });

  it('never links other schemes', () => {
    expect(linkify('javascript:alert(1) <b>bold</b>')).toEqual([{ kind: 'text', text: 'javascript:alert(1) <b>bold</b>' }]);
  });
});

it('formats sizes', () => {
  expect(formatBytes(512)).toBe('512 B');
  expect(formatBytes(2048)).toBe('2 KB');
  expect(formatBytes(3.5 * 1024 * 1024)).toBe('3.5 MB');
});
