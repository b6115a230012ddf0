import { useRef, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { uploadAttachment } from '../messages/upload';

/**
 * The file of a care-record form (a progress photo, a document): the chosen
 * file, its upload with progress, and the message under the field. `upload`
 * sends the file, then runs `create` with the stored attachment's id; an
 * upload's own failure (too big, wrong type) is shown at the field.
 */
export function useFileField(missingMessage: string) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  return {
    input,
    error,
    progress,
    choose(next: File | null) {
      setFile(next);
      setError('');
    },
    /** False (with the message shown) when no file is chosen. */
    required() {
      if (!file) setError(missingMessage);
      return file !== null;
    },
    async upload(create: (attachmentId: string) => Promise<unknown>) {
      if (!file) throw new Error(missingMessage);
      setProgress(0);
      try {
        const uploaded = await uploadAttachment(file, setProgress);
        await create(uploaded.id);
      } catch (failure) {
        if (failure instanceof Error && !('data' in failure)) setError(failure.message);
        throw failure;
      } finally {
        setProgress(null);
      }
    },
    clear() {
      setFile(null);
      if (input.current) input.current.value = '';
    },
  };
}

/** The file input with the form's submit button beside it, and the file's message under both. */
export function FileAndSubmit({
  field,
  id,
  label,
  accept,
  submitLabel,
  busy,
  serverError,
}: {
  field: ReturnType<typeof useFileField>;
  id: string;
  label: string;
  accept: string;
  submitLabel: string;
  busy: boolean;
  serverError?: string;
}) {
  const message = field.error || serverError;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={field.input}
          id={id}
          type="file"
          accept={accept}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${id}-error` : undefined}
          className="min-w-0 flex-1 text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-800"
          onChange={(e) => field.choose(e.target.files?.[0] ?? null)}
        />
        <Button type="submit" disabled={busy}>
          {field.progress !== null ? `Uploading ${Math.round(field.progress * 100)}%` : submitLabel}
        </Button>
      </div>
      {message && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {message}
        </p>
      )}
    </div>
  );
}
