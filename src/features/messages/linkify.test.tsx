import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Linkified, linkTarget } from './linkify';

const html = (text: string) => renderToStaticMarkup(<Linkified text={text} />);

describe('Linkified', () => {
  it('makes http(s) and www. addresses links that open safely', () => {
    expect(html('See https://example.com/a?b=1.')).toBe(
      'See <a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer" class="break-all underline underline-offset-2">https://example.com/a?b=1</a>.',
    );
    expect(html('www.poshan.in')).toContain('href="https://www.poshan.in/"');
  });

  it('never links other schemes and escapes markup', () => {
    expect(html('javascript:alert(1) <b>x</b>')).toBe('javascript:alert(1) &lt;b&gt;x&lt;/b&gt;');
    expect(linkTarget('javascript:alert(1)')).toBeNull();
    expect(html('data:text/html,<script>')).not.toContain('<a');
  });

  it('keeps Hindi and emoji text as it is', () => {
    expect(html('नमस्ते 🙏 https://a.in')).toContain('नमस्ते 🙏 <a href="https://a.in/"');
  });
});
