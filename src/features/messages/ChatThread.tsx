import { AlertCircle, Bot, Check, CheckCheck, Clock, FileText } from 'lucide-react';
import { Fragment, useEffect, useLayoutEffect, useRef } from 'react';
import type { Message } from '../../../server/messages/schema';
import { formatDay } from '../../lib/format';
import { type FileView, linkExpiry, OPEN_MARGIN_MS, openFile } from './fresh-links';
import { Linkified } from './linkify';
import type { PendingFile, PendingMessage } from './pending-messages';

/** A day heading between messages, in the reader's own calendar: Today, Yesterday, else the date. */
export function dayLabel(moment: Date, now: Date = new Date()): string {
  const key = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (key(moment) === key(now)) return 'Today';
  if (key(moment) === key(yesterday)) return 'Yesterday';
  return formatDay(key(moment));
}

const timeOf = (moment: Date) => moment.toLocaleTimeString('en-IN', { hour: 'numeric', minute: '2-digit', hour12: true }).toLowerCase();

/** Scrolled this close to the end, the thread follows new messages; further up, it stays where the reader is. */
const FOLLOW_WITHIN_PX = 120;

export type ChatThreadProps = {
  messages: readonly Message[];
  pending: readonly PendingMessage[];
  /** Whose messages sit on the right: the viewer's own side (a client: theirs; a dietitian: the care team's). */
  isOwn: (message: Message) => boolean;
  /** How far the other side has read. */
  seenSeq: number;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  onRetry: (clientMessageId: string) => void;
  onDiscard: (clientMessageId: string) => void;
  /** The thread's end is on screen (the viewer has seen the newest message). */
  onAtEnd: () => void;
  /** What the other side is doing ("Asha is typing…"), or nothing. */
  activity?: string | null;
  emptyText: string;
  /** Renewing the files' signed links (they last 15 minutes): on demand, and when a photo fails to load. */
  files?: FileLinks;
};

type FileLinks = { renew: () => Promise<Map<string, FileView>>; failed: () => void };

/**
 * The messages of one conversation, oldest at the top, opened at the newest.
 * Scrolling to the top loads older ones without moving what the reader sees;
 * new messages keep the view at the end only when the reader is already there.
 * Incoming messages are announced to screen readers by a polite live region.
 */
export function ChatThread(props: ChatThreadProps) {
  const { messages, pending, isOwn, seenSeq, hasOlder, loadingOlder, onLoadOlder, onAtEnd } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  // The thread's height when last seen: a scroll that comes with a new height is the layout's, not the reader's.
  const seenHeight = useRef<number | null>(null);
  const heightBefore = useRef<number | null>(null);
  const firstSeq = messages[0]?.seq ?? null;
  const lastKey = `${messages.at(-1)?.seq ?? 0}:${pending.length}`;

  // Older messages went in above: keep the same message under the reader's eyes.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || heightBefore.current === null) return;
    el.scrollTop += el.scrollHeight - heightBefore.current;
    heightBefore.current = null;
  }, [firstSeq]);

  // Something new at the end: follow it if the reader was at the end (always on the first load).
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && atEnd.current) el.scrollTop = el.scrollHeight;
  }, [lastKey]);

  useEffect(() => {
    if (atEnd.current && document.visibilityState === 'visible') onAtEnd();
  }, [lastKey, onAtEnd]);

  // The thread got shorter (a phone's keyboard opened under the composer): the newest message stays in sight.
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      seenHeight.current = el.clientHeight;
      if (atEnd.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible' && atEnd.current) onAtEnd();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [onAtEnd]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    // The thread shrank (the chat refitted, a keyboard opened) and the browser moved the scroll: whoever
    // was reading the newest message stays with it, rather than being counted as having scrolled away.
    if (seenHeight.current !== null && el.clientHeight !== seenHeight.current) {
      seenHeight.current = el.clientHeight;
      if (atEnd.current) el.scrollTop = el.scrollHeight;
      return;
    }
    const wasAtEnd = atEnd.current;
    atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_WITHIN_PX;
    if (atEnd.current && !wasAtEnd) onAtEnd();
    if (el.scrollTop < 200 && hasOlder && !loadingOlder) {
      heightBefore.current = el.scrollHeight;
      onLoadOlder();
    }
  };

  // "Seen" goes under the last of the viewer's messages the other side has read (a person's, not an automatic reply).
  const byPerson = (m: Message) => m.sender.role !== 'system';
  const lastSeenOwn = [...messages].reverse().find((m) => byPerson(m) && isOwn(m) && m.seq <= seenSeq)?.seq ?? null;
  const lastOwn = [...messages].reverse().find((m) => byPerson(m) && isOwn(m))?.seq ?? null;
  const lastIncoming = [...messages].reverse().find((m) => !isOwn(m));

  let previousDay = '';
  const dayBreak = (moment: Date) => {
    const label = dayLabel(moment);
    if (label === previousDay) return null;
    previousDay = label;
    return (
      <li className="my-3 flex justify-center" aria-hidden="false">
        <span className="rounded-full bg-slate-200/80 px-3 py-0.5 text-xs font-semibold text-slate-700">{label}</span>
      </li>
    );
  };

  return (
    // A scrolling region must take focus so that a keyboard can scroll it (arrow keys, Page Up).
    // Positioned, so the visually hidden announcer (absolute) at the end of a long thread is clipped by
    // this scroller rather than placed against the page, where it made the whole page scroll.
    <div
      ref={scroller}
      role="region"
      onScroll={onScroll}
      className="relative min-h-0 flex-1 overflow-y-auto overscroll-contain px-3 py-3 sm:px-5"
      data-testid="chat-thread"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the region scrolls, and only focus lets a keyboard scroll it
      tabIndex={0}
      aria-label="Messages"
    >
      {hasOlder && (
        <div className="flex justify-center py-2">
          <button
            type="button"
            onClick={() => {
              heightBefore.current = scroller.current?.scrollHeight ?? null;
              onLoadOlder();
            }}
            disabled={loadingOlder}
            className="rounded-full px-3 py-1 text-sm font-medium text-brand-800 hover:bg-brand-50"
          >
            {loadingOlder ? 'Loading earlier messages…' : 'Load earlier messages'}
          </button>
        </div>
      )}
      {messages.length === 0 && pending.length === 0 ? (
        <p className="py-10 text-center text-sm text-slate-600" data-testid="chat-empty">
          {props.emptyText}
        </p>
      ) : (
        <ol className="flex flex-col gap-1.5">
          {messages.map((m) => {
            if (m.sender.role === 'system') {
              return (
                <Fragment key={m.seq}>
                  {dayBreak(m.sentAt)}
                  <AutomaticReply message={m} />
                </Fragment>
              );
            }
            const own = isOwn(m);
            const status =
              own && m.seq === lastSeenOwn
                ? 'seen'
                : own && m.seq === lastOwn && (lastSeenOwn === null || m.seq > lastSeenOwn)
                  ? 'sent'
                  : null;
            return (
              <Fragment key={m.seq}>
                {dayBreak(m.sentAt)}
                <Bubble own={own} sender={m.sender.name} at={m.sentAt} status={status} seq={m.seq}>
                  {m.attachments.length > 0 && <Files files={m.attachments} own={own} links={props.files} />}
                  {m.text && <Linkified text={m.text} />}
                </Bubble>
              </Fragment>
            );
          })}
          {pending.map((p) => (
            <Fragment key={p.clientMessageId}>
              {dayBreak(new Date(p.writtenAt))}
              <Bubble own sender="You" at={new Date(p.writtenAt)} status={p.state} pending>
                {p.attachments && p.attachments.length > 0 && <Files files={p.attachments} own />}
                {p.text && <Linkified text={p.text} />}
                {p.state === 'failed' && (
                  <span className="mt-1.5 flex flex-wrap items-center gap-2 text-xs text-white" role="alert">
                    <AlertCircle className="h-4 w-4" aria-hidden="true" />
                    <span>Not sent{p.error ? ` — ${p.error}` : ''}</span>
                    <button
                      type="button"
                      className="rounded bg-white px-2 py-0.5 font-semibold text-red-800"
                      onClick={() => props.onRetry(p.clientMessageId)}
                    >
                      Retry
                    </button>
                    <button type="button" className="underline" onClick={() => props.onDiscard(p.clientMessageId)}>
                      Delete
                    </button>
                  </span>
                )}
              </Bubble>
            </Fragment>
          ))}
        </ol>
      )}
      <p className="h-5 px-1 pt-1 text-xs text-slate-600 italic" data-testid="chat-activity">
        {props.activity ?? ''}
      </p>
      <div className="sr-only" aria-live="polite" aria-atomic="true" data-testid="chat-announcer">
        {lastIncoming ? `New message from ${lastIncoming.sender.name}: ${lastIncoming.text}` : ''}
      </div>
    </div>
  );
}

type ShownFile = PendingFile & { url?: string };

/**
 * A message's files: photos as previews that open large in a new tab, PDFs as
 * downloads. Links are the server's short-lived signed ones (never the
 * uploaded original: photos were re-encoded without their metadata).
 */
function Files({ files, own, links }: { files: readonly ShownFile[]; own: boolean; links?: FileLinks }) {
  /** A link about to expire is renewed first, then opened (a chat left open past 15 minutes). */
  const openFresh = (f: ShownFile) => async (e: React.MouseEvent<HTMLAnchorElement>) => {
    const exp = linkExpiry(f.url);
    if (!links || exp === null || exp - Date.now() > OPEN_MARGIN_MS) return;
    e.preventDefault();
    const fresh = (await links.renew()).get(f.id);
    if (fresh) openFile(fresh);
  };
  return (
    <ul className="mb-1.5 flex flex-wrap gap-1.5" aria-label="Attached files">
      {files.map((f) => {
        const image = f.contentType.startsWith('image/');
        const body = image ? (
          <img
            src={f.thumbnailUrl ?? f.url}
            alt={f.name}
            className="h-32 max-w-full rounded-lg bg-slate-100 object-cover sm:h-40"
            loading="lazy"
            onError={links?.failed}
          />
        ) : (
          <span className={`flex items-center gap-2 rounded-lg px-2.5 py-2 text-sm ${own ? 'bg-white/15' : 'bg-slate-100'}`}>
            <FileText className="h-5 w-5 shrink-0" aria-hidden="true" />
            <span className="max-w-48 truncate">{f.name}</span>
          </span>
        );
        return (
          <li key={f.id} data-testid="chat-file" data-type={f.contentType}>
            {f.url ? (
              <a
                href={f.url}
                target={image ? '_blank' : undefined}
                rel="noopener noreferrer"
                download={image ? undefined : f.name}
                aria-label={image ? `Open photo ${f.name}` : `Download ${f.name}`}
                onClick={openFresh(f)}
                className="block"
              >
                {body}
              </a>
            ) : (
              body
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The office-hours reply the server sends by itself: a notice across the thread in the care team's name,
 * not a bubble, so nobody takes it for a person's answer.
 */
function AutomaticReply({ message }: { message: Message }) {
  return (
    <li className="my-2 flex justify-center" data-testid="chat-message" data-seq={message.seq} data-automatic="true">
      <div className="w-full max-w-md rounded-xl border border-dashed border-slate-300 bg-slate-100 px-3.5 py-2 text-sm text-slate-800">
        <p className="mb-0.5 flex items-center gap-1.5 text-xs font-semibold text-slate-700">
          <Bot className="h-3.5 w-3.5" aria-hidden="true" />
          Automatic reply · {message.sender.name}
          <time className="ml-auto font-normal" dateTime={message.sentAt.toISOString()}>
            {timeOf(message.sentAt)}
          </time>
        </p>
        <p className="whitespace-pre-wrap break-words">
          <Linkified text={message.text} />
        </p>
      </div>
    </li>
  );
}

function Bubble({
  own,
  sender,
  at,
  status,
  seq,
  pending,
  children,
}: {
  own: boolean;
  sender: string;
  at: Date;
  status: 'sending' | 'waiting' | 'sent' | 'seen' | 'failed' | null;
  seq?: number;
  pending?: boolean;
  children: React.ReactNode;
}) {
  const tone =
    status === 'failed' ? 'bg-red-700 text-white' : own ? 'bg-brand-700 text-white' : 'bg-white text-slate-900 ring-1 ring-slate-200';
  return (
    <li
      className={`flex flex-col ${own ? 'items-end' : 'items-start'}`}
      data-testid={pending ? 'chat-pending' : 'chat-message'}
      data-seq={seq}
      data-own={own ? 'true' : 'false'}
      data-status={status ?? undefined}
    >
      {!own && <span className="mb-0.5 px-1 text-xs font-semibold text-slate-700">{sender}</span>}
      <div
        className={`max-w-[85%] rounded-2xl px-3.5 py-2 text-[15px] leading-snug whitespace-pre-wrap break-words shadow-sm sm:max-w-[70%] ${tone} ${own ? 'rounded-br-md' : 'rounded-bl-md'}`}
      >
        {children}
      </div>
      <span className="mt-0.5 flex items-center gap-1 px-1 text-[11px] text-slate-600">
        <time dateTime={at.toISOString()}>{timeOf(at)}</time>
        {status === 'sending' && (
          <>
            <Clock className="h-3 w-3" aria-hidden="true" /> Sending…
          </>
        )}
        {status === 'waiting' && (
          <>
            <Clock className="h-3 w-3" aria-hidden="true" /> Waiting to send
          </>
        )}
        {status === 'sent' && (
          <>
            <Check className="h-3.5 w-3.5" aria-hidden="true" /> Sent
          </>
        )}
        {status === 'seen' && (
          <>
            <CheckCheck className="h-3.5 w-3.5 text-brand-700" aria-hidden="true" /> Seen
          </>
        )}
      </span>
    </li>
  );
}
