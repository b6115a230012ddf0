import { linkify } from '../format';

/** A post's plain text: line breaks kept, http(s) addresses as links, never any markup. */
export function PostText({ text }: { text: string }) {
  return (
    <p className="break-words whitespace-pre-line text-[15px] leading-relaxed text-slate-800" data-testid="admin-post-text">
      {linkify(text).map((part, i) =>
        part.kind === 'link' ? (
          <a
            key={i}
            href={part.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="text-brand-800 underline underline-offset-2"
          >
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}
