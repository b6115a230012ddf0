import { SendHorizontal } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { MESSAGE_TEXT_MAX } from '../../../server/messages/schema';

/** The count shows once a message comes this close to the limit. */
const COUNT_FROM = MESSAGE_TEXT_MAX - 400;
const MAX_ROWS_PX = 160;

/** Phones and tablets put Enter on the keyboard for new lines; a desktop sends with Enter and breaks lines with Shift+Enter. */
const enterSends = () => typeof window !== 'undefined' && window.matchMedia('(hover: hover) and (pointer: fine)').matches;

export type ComposerProps = {
  onSend: (text: string) => void;
  /** Called while the viewer types (the typing signal is throttled by the caller). */
  onTyping?: () => void;
  disabled?: boolean;
  disabledReason?: string;
  /** Text to put in (a saved reply), with a counter so the same text can be inserted twice. */
  insert?: { text: string; nonce: number } | null;
  placeholder?: string;
};

/**
 * Writing a message: a text box that grows with its text up to a few lines,
 * Send (Enter on a desktop), and the length limit said before the server
 * would refuse it. Sent text leaves the box at once; the thread shows it as
 * "sending" until the server has it.
 */
export function Composer({ onSend, onTyping, disabled, disabledReason, insert, placeholder = 'Write a message' }: ComposerProps) {
  const [text, setText] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const tooLong = text.length > MESSAGE_TEXT_MAX;

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_ROWS_PX)}px`;
  }, [text]);

  const lastInsert = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (!insert || lastInsert.current === insert.nonce) return;
    lastInsert.current = insert.nonce;
    setText((t) => (t.trim() ? `${t.trimEnd()}\n${insert.text}` : insert.text));
    box.current?.focus();
  }, [insert]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const message = text.trim();
    if (!message || tooLong || disabled) return;
    onSend(message);
    setText('');
    box.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing && enterSends()) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form method="post" onSubmit={submit} className="border-t border-slate-200 bg-white p-2 sm:p-3" data-testid="composer">
      <div className="flex items-end gap-2">
        <label htmlFor={id} className="sr-only">
          Message
        </label>
        <textarea
          ref={box}
          id={id}
          name="text"
          rows={1}
          value={text}
          disabled={disabled}
          placeholder={disabled ? disabledReason : placeholder}
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value.trim()) onTyping?.();
          }}
          onKeyDown={onKeyDown}
          aria-invalid={tooLong || undefined}
          aria-describedby={`${id}-count`}
          className="min-h-11 flex-1 resize-none rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base leading-snug text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:ring-2 focus:ring-brand-200 focus:outline-none aria-[invalid=true]:border-red-600 disabled:bg-slate-100"
        />
        <button
          type="submit"
          disabled={disabled || tooLong || !text.trim()}
          className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-brand-700 text-white hover:bg-brand-800 disabled:bg-slate-300 disabled:text-slate-600"
          aria-label="Send"
        >
          <SendHorizontal className="h-5 w-5" aria-hidden="true" />
        </button>
      </div>
      <p id={`${id}-count`} className={`px-1 pt-1 text-xs ${tooLong ? 'text-red-700' : 'text-slate-600'}`} aria-live="polite">
        {text.length >= COUNT_FROM
          ? tooLong
            ? `Too long: a message can have at most ${MESSAGE_TEXT_MAX.toLocaleString('en-IN')} characters (${text.length.toLocaleString('en-IN')} now)`
            : `${(MESSAGE_TEXT_MAX - text.length).toLocaleString('en-IN')} characters left`
          : ''}
      </p>
    </form>
  );
}
