import type { Message } from '../../../server/messages/schema';

/**
 * Files in messages come with signed links that last 15 minutes (the server's
 * attachments/signed-url.ts). A chat left open longer renews them: a minute
 * before the first expires, when a photo fails to load, and before opening a
 * file whose link is about to expire.
 */
export type FileView = Message['attachments'][number];

/** Renewed this long before the first link expires. */
export const RENEW_AHEAD_MS = 60_000;
/** Never renewed more often than this by the timer (a device clock ahead of the server's would loop). */
export const RENEW_AT_MOST_EVERY_MS = 20_000;
/** A link closer than this to its end is renewed before it is opened. */
export const OPEN_MARGIN_MS = 30_000;

/** When a signed link expires (ms since 1970), from its `exp`; null when it carries none. */
export function linkExpiry(url: string | null | undefined): number | null {
  const match = /[?&]exp=(\d{1,12})(?:&|$)/.exec(url ?? '');
  return match ? Number(match[1]) * 1000 : null;
}

/** The earliest expiry among the links of these messages' files, or null when they have none. */
export function firstExpiry(messages: Iterable<Message>): number | null {
  let first: number | null = null;
  for (const m of messages)
    for (const f of m.attachments)
      for (const url of [f.url, f.thumbnailUrl]) {
        const exp = linkExpiry(url);
        if (exp !== null && (first === null || exp < first)) first = exp;
      }
  return first;
}

/** Messages with these renewed views put in place of the old ones (the same map when none of them is shown). */
export function withRenewedFiles(bySeq: ReadonlyMap<number, Message>, views: readonly FileView[]): ReadonlyMap<number, Message> {
  const byId = new Map(views.map((v) => [v.id, v]));
  let next: Map<number, Message> | null = null;
  for (const [seq, m] of bySeq) {
    if (!m.attachments.some((a) => byId.has(a.id))) continue;
    next ??= new Map(bySeq);
    next.set(seq, { ...m, attachments: m.attachments.map((a) => byId.get(a.id) ?? a) });
  }
  return next ?? bySeq;
}

/** Opens a file's (fresh) link as the thread's own link would: a photo in a new tab, a PDF as a download. */
export function openFile(view: FileView) {
  const a = document.createElement('a');
  a.href = view.url;
  a.rel = 'noopener noreferrer';
  if (view.contentType.startsWith('image/')) a.target = '_blank';
  else a.download = view.name;
  document.body.append(a);
  a.click();
  a.remove();
}
