import { zodResolver } from '@hookform/resolvers/zod';
import { FileUp } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { DIET_PLAN_PDF_MAX_BYTES, uploadForm } from '../../../../server/diet-plan/schema';
import { Button } from '../../../components/ui/Button';
import { FieldShell, TextField } from '../../../components/ui/Field';
import { fileToBase64, formatBytes, looksLikePdf } from '../format';

type FormInput = z.input<typeof uploadForm>;
type FormValues = z.output<typeof uploadForm>;
export type UploadValues = FormValues & { pdfBase64?: string };

/**
 * A plan as a PDF the dietitian already has. The file is checked here for a
 * quick answer (PDF by content, at most 10 MB) and again on the server.
 */
export function UploadForm({
  defaults,
  fileOptional,
  saveLabel,
  onSave,
}: {
  defaults: FormInput;
  /** When editing an uploaded plan, the current PDF may be kept. */
  fileOptional: boolean;
  saveLabel: string;
  onSave: (values: UploadValues) => Promise<void>;
}) {
  const form = useForm<FormInput, unknown, FormValues>({ resolver: zodResolver(uploadForm), defaultValues: defaults });
  const { errors, isSubmitting } = form.formState;
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string>();
  const fileId = useId();

  const checkFile = async (chosen: File | null): Promise<string | undefined> => {
    if (!chosen) return fileOptional ? undefined : 'Choose a PDF file to upload';
    if (chosen.size === 0) return 'The PDF file is empty.';
    if (chosen.size > DIET_PLAN_PDF_MAX_BYTES) return `The PDF must be at most 10 MB (this one is ${formatBytes(chosen.size)}).`;
    if (!(await looksLikePdf(chosen))) return 'The diet plan must be a PDF file (this file is not a PDF).';
    return undefined;
  };

  const onSubmit = form.handleSubmit(async (values) => {
    const problem = await checkFile(file);
    setFileError(problem);
    if (problem) return;
    await onSave({ ...values, pdfBase64: file ? await fileToBase64(file) : undefined });
  });

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-5" data-testid="upload-form">
      <TextField label="Title" error={errors.title?.message} {...form.register('title')} />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField label="From" type="date" error={errors.from?.message} {...form.register('from')} />
        <TextField label="To" type="date" error={errors.to?.message} {...form.register('to')} />
      </div>
      <FieldShell
        id={fileId}
        label="PDF file"
        error={fileError}
        hint={fileOptional ? 'Leave empty to keep the current PDF. At most 10 MB.' : 'PDF only, at most 10 MB.'}
      >
        <input
          id={fileId}
          type="file"
          accept="application/pdf,.pdf"
          aria-invalid={fileError ? true : undefined}
          aria-describedby={fileError ? `${fileId}-error` : `${fileId}-hint`}
          className="block w-full rounded-lg border border-dashed border-slate-300 bg-white p-3 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:font-semibold file:text-brand-800"
          onChange={async (e) => {
            const chosen = e.target.files?.[0] ?? null;
            setFile(chosen);
            setFileError(chosen ? await checkFile(chosen) : undefined);
          }}
        />
      </FieldShell>
      <div className="flex justify-end">
        <Button type="submit" disabled={isSubmitting}>
          <FileUp className="h-4 w-4" aria-hidden="true" />
          {saveLabel}
        </Button>
      </div>
    </form>
  );
}
