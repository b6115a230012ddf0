import { FileText, Paperclip, SendHorizontal, X } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { MESSAGE_ATTACHMENTS_MAX, MESSAGE_TEXT_MAX } from '../../../server/messages/schema';
import type { PendingFile } from './pending-messages';
import { ACCEPTED_FILES, refusalOf, uploadAttachment } from './upload';

/** The count shows once a message comes this close to the limit. */
const COUNT_FROM = MESSAGE_TEXT_MAX - 400;
const MAX_ROWS_PX = 160;

/** Phones and tablets put Enter on the keyboard for new lines; a desktop sends with Enter and breaks lines with Shift+Enter. */
const enterSends = () => typeof window !== 'undefined' && window.matchMedia('(hover: hover) and (pointer: fine)').matches;

/** A file being attached: uploading (with progress), ready (its view), or refused (why). */
type Picked = {
  key: number;
  name: string;
  /** Sent fraction of the upload; null while a photo is being made smaller on the phone. */
  progress: number | null;
  view?: PendingFile;
  error?: string;
  abort: AbortController;
};

export type ComposerProps = {
  onSend: (text: string, attachments: PendingFile[]) => void;
  /** Called while the viewer types (the typing signal is throttled by the caller). */
  onTyping?: () => void;
  disabled?: boolean;
  disabledReason?: string;
  /** Text to put in (a saved reply), with a counter so the same text can be inserted twice. */
  insert?: { text: string; nonce: number } | null;
  placeholder?: string;
  /** The text box gained or lost focus (a phone's keyboard opening or closing). */
  onFocusChange?: (focused: boolean) => void;
};

/** How far a file's upload is: "Preparing" while a photo is made smaller, then the percentage sent. */
export function UploadMeter({ name, progress }: { name: string; progress: number | null }) {
  const percent = progress === null ? null : Math.round(progress * 100);
  return (
    <span className="flex items-center gap-1.5" data-testid="upload-progress" data-percent={percent ?? ''}>
      <progress className="h-1.5 w-16" value={progress ?? undefined} max={1} aria-label={`Uploading ${name}`} />
      <span className="text-xs text-slate-700 tabular-nums">{percent === null ? 'Preparing…' : `${percent}%`}</span>
    </span>
  );
}

/**
 * Writing a message: a text box that grows with its text up to a few lines,
 * Send (Enter on a desktop), and the length limit said before the server
 * would refuse it. Sent text leaves the box at once; the thread shows it as
 * "sending" until the server has it.
 */
export function Composer({
  onSend,
  onTyping,
  disabled,
  disabledReason,
  insert,
  placeholder = 'Write a message',
  onFocusChange,
}: ComposerProps) {
  const [text, setText] = useState('');
  const [files, setFiles] = useState<Picked[]>([]);
  const box = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const nextKey = useRef(0);
  const id = useId();
  const tooLong = text.length > MESSAGE_TEXT_MAX;
  const uploading = files.some((f) => !f.view && !f.error);
  const ready = files.flatMap((f) => (f.view ? [f.view] : []));

  const update = (key: number, change: Partial<Picked>) => setFiles((list) => list.map((f) => (f.key === key ? { ...f, ...change } : f)));
  const pick = (chosen: FileList | null) => {
    if (!chosen) return;
    const room = MESSAGE_ATTACHMENTS_MAX - files.length;
    const added = [...chosen].slice(0, Math.max(0, room)).map((file) => {
      const refused = refusalOf(file);
      const picked: Picked = {
        key: nextKey.current++,
        name: file.name,
        progress: null,
        abort: new AbortController(),
        error: refused ?? undefined,
      };
      if (refused) return picked;
      uploadAttachment(file, (progress) => update(picked.key, { progress }), picked.abort.signal)
        .then((view) => update(picked.key, { view, progress: 1 }))
        .catch((err: Error) => update(picked.key, { error: err.message }));
      return picked;
    });
    const refused =
      chosen.length > room
        ? [
            {
              key: nextKey.current++,
              name: `${chosen.length - room} more`,
              progress: null,
              error: `A message can carry at most ${MESSAGE_ATTACHMENTS_MAX} files.`,
              abort: new AbortController(),
            },
          ]
        : [];
    setFiles((list) => [...list, ...added, ...refused]);
    if (picker.current) picker.current.value = '';
  };
  const remove = (key: number) =>
    setFiles((list) => {
      list.find((f) => f.key === key)?.abort.abort();
      return list.filter((f) => f.key !== key);
    });

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
    if ((!message && ready.length === 0) || tooLong || disabled || uploading) return;
    onSend(message, ready);
    setText('');
    setFiles([]);
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
      {files.length > 0 && (
        <ul className="mb-2 flex flex-wrap gap-2" aria-label="Files to send" data-testid="composer-files">
          {files.map((f) => (
            <li
              key={f.key}
              className={`flex max-w-full items-center gap-2 rounded-lg border px-2 py-1 text-sm ${f.error ? 'border-red-300 bg-red-50 text-red-800' : 'border-slate-200 bg-slate-50 text-slate-800'}`}
              data-state={f.error ? 'failed' : f.view ? 'ready' : 'uploading'}
            >
              {f.view?.thumbnailUrl ? (
                <img src={f.view.thumbnailUrl} alt="" className="h-8 w-8 rounded object-cover" />
              ) : (
                <FileText className="h-4 w-4 shrink-0" aria-hidden="true" />
              )}
              {f.error ? (
                // The message names the file in full: a refused file's name is what tells which one it was.
                <span role="alert" className="min-w-0 break-words">
                  {f.error}
                </span>
              ) : (
                <span className="max-w-40 truncate">{f.name}</span>
              )}
              {!f.error && !f.view ? <UploadMeter name={f.name} progress={f.progress} /> : null}
              <button
                type="button"
                onClick={() => remove(f.key)}
                className="rounded p-0.5 hover:bg-slate-200"
                aria-label={`Remove ${f.name}`}
              >
                <X className="h-4 w-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex items-end gap-2">
        <input
          ref={picker}
          type="file"
          accept={ACCEPTED_FILES}
          multiple
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="composer-file-input"
          onChange={(e) => pick(e.target.files)}
        />
        <button
          type="button"
          disabled={disabled || files.length >= MESSAGE_ATTACHMENTS_MAX}
          onClick={() => picker.current?.click()}
          className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100 disabled:text-slate-400"
          aria-label="Attach a photo or PDF"
        >
          <Paperclip className="h-5 w-5" aria-hidden="true" />
        </button>
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
          onFocus={() => onFocusChange?.(true)}
          onBlur={() => onFocusChange?.(false)}
          aria-invalid={tooLong || undefined}
          aria-describedby={`${id}-count`}
          className="min-h-11 flex-1 resize-none rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base leading-snug text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:ring-2 focus:ring-brand-200 focus:outline-none aria-[invalid=true]:border-red-600 disabled:bg-slate-100"
        />
        <button
          type="submit"
          // Pressing Send keeps the focus (and a phone's keyboard) in the text box, as chat apps do.
          onPointerDown={(e) => e.preventDefault()}
          disabled={disabled || tooLong || uploading || (!text.trim() && ready.length === 0)}
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
