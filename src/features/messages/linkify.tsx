import { Fragment, type ReactNode } from 'react';

/** http(s) addresses and bare www. ones; a trailing full stop, comma or bracket stays text. */
const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;
const TRAILING = /[.,;:!?)\]}'"]+$/;

/** The address a link opens: only http and https ever become links. */
export function linkTarget(found: string): string | null {
  const href = found.toLowerCase().startsWith('www.') ? `https://${found}` : found;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * A message's text with its web addresses made clickable, safely: React
 * escapes the text, only http(s) becomes a link, and links open in a new tab
 * without giving it this page (`noopener noreferrer`).
 */
export function Linkified({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const start = match.index ?? 0;
    const found = match[0].replace(TRAILING, '');
    const href = linkTarget(found);
    if (!href) continue;
    if (start > last) parts.push(text.slice(last, start));
    parts.push(
      <a key={start} href={href} target="_blank" rel="noopener noreferrer" className="break-all underline underline-offset-2">
        {found}
      </a>,
    );
    last = start + found.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <Fragment>{parts}</Fragment>;
}
