import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileText, Image as ImageIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import { DOCUMENT_KINDS, DOCUMENT_LIST_KINDS, documentForm } from '../../../server/care-record/schema';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { SelectField, TextField } from '../../components/ui/Field';
import { EmptyState, LoadError, Loading } from '../../components/ui/States';
import { formatDay, localToday } from '../../lib/format';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { ACCEPTED_FILES, uploadAttachment } from '../messages/upload';
import { useRecordForm } from './form-state';

const KIND_TONE: Record<keyof typeof DOCUMENT_LIST_KINDS, string> = {
  'lab-report': 'bg-sky-50 text-sky-900',
  prescription: 'bg-violet-50 text-violet-900',
  other: 'bg-slate-100 text-slate-800',
  conversation: 'bg-brand-50 text-brand-900',
};

/**
 * A client's documents: lab reports and prescriptions uploaded by the client
 * or a dietitian, and every file sent in the conversation, by date and kind.
 */
export function DocumentsCard({ clientId }: { clientId?: number }) {
  const trpc = useTRPC();
  const input = clientId === undefined ? {} : { clientId };
  const list = useQuery({ ...trpc.careRecord.documents.list.queryOptions(input), staleTime: 0 });
  const [kind, setKind] = useState<'all' | keyof typeof DOCUMENT_LIST_KINDS>('all');
  const shown = (list.data ?? []).filter((d) => kind === 'all' || d.kind === kind);
  return (
    <Card
      title="Documents"
      actions={
        <SelectField
          label="Show"
          hideLabel
          id={`documents-kind${clientId ?? ''}`}
          value={kind}
          onChange={(e) => setKind(e.target.value as typeof kind)}
          className="py-1.5 text-sm"
        >
          <option value="all">All kinds</option>
          {Object.entries(DOCUMENT_LIST_KINDS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
      }
    >
      <div className="flex flex-col gap-5 p-4 sm:p-5">
        <DocumentForm clientId={clientId} />
        {list.isPending ? (
          <Loading label="Loading documents" compact />
        ) : list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} compact />
        ) : shown.length === 0 ? (
          <EmptyState Icon={FileText} compact>
            {kind === 'all' ? 'No documents yet. Lab reports, prescriptions and files sent in messages appear here.' : 'None of this kind.'}
          </EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200" data-testid="documents-list">
            {shown.map((d) => {
              const Icon = d.file.contentType === 'application/pdf' ? FileText : ImageIcon;
              return (
                <li key={d.id} className="flex items-center gap-3 px-3 py-3">
                  <Icon className="h-6 w-6 shrink-0 text-slate-500" aria-hidden="true" />
                  <div className="min-w-0 flex-1">
                    <a
                      href={d.file.url}
                      target="_blank"
                      rel="noreferrer"
                      className="block truncate font-semibold text-brand-800 hover:underline"
                    >
                      {d.title}
                    </a>
                    <p className="text-sm text-slate-600">
                      {formatDay(d.date)} · {d.addedBy === 'client' ? 'from the client' : 'from a dietitian'}
                      {d.addedByName ? ` (${d.addedByName})` : ''}
                    </p>
                  </div>
                  <span className={`shrink-0 rounded-full px-2.5 py-1 text-xs font-semibold ${KIND_TONE[d.kind]}`}>
                    {DOCUMENT_LIST_KINDS[d.kind]}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </Card>
  );
}

function DocumentForm({ clientId }: { clientId?: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.careRecord.documents.create.mutationOptions());
  const form = useRecordForm(documentForm, { kind: 'lab-report', title: '', date: localToday() });
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const suffix = clientId ?? 'mine';
  return (
    <form
      className="flex flex-col gap-3"
      data-testid="document-form"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!file) {
          setFileError('Choose a PDF or a photo of the document');
          return;
        }
        const ok = await form.submit(async (values, clientRequestId) => {
          setProgress(0);
          try {
            const uploaded = await uploadAttachment(file, setProgress);
            await create.mutateAsync({ ...values, clientId, clientRequestId, attachmentId: uploaded.id } as never);
          } catch (error) {
            if (error instanceof Error && !('data' in error)) setFileError(error.message);
            throw error;
          } finally {
            setProgress(null);
          }
        });
        if (ok) {
          toast.success('Document added.');
          setFile(null);
          if (fileInput.current) fileInput.current.value = '';
          await queryClient.invalidateQueries({ queryKey: trpc.careRecord.documents.list.queryKey() });
        }
      }}
    >
      <div className="grid gap-3 xs:grid-cols-2 lg:grid-cols-[10rem_1fr_10rem]">
        <SelectField
          id={`doc-kind-${suffix}`}
          label="Kind"
          value={form.values.kind}
          error={form.errors.kind}
          onChange={(e) => form.set('kind', e.target.value)}
        >
          {Object.entries(DOCUMENT_KINDS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextField
          id={`doc-title-${suffix}`}
          label="Title"
          placeholder="e.g. Thyroid profile, HbA1c"
          value={form.values.title}
          error={form.errors.title}
          onChange={(e) => form.set('title', e.target.value)}
        />
        <TextField
          id={`doc-date-${suffix}`}
          label="Date on the document"
          type="date"
          max={localToday()}
          value={form.values.date}
          error={form.errors.date}
          onChange={(e) => form.set('date', e.target.value)}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`doc-file-${suffix}`} className="text-sm font-medium text-slate-800">
          File (PDF or photo, up to 10 MB)
        </label>
        <div className="flex flex-wrap items-center gap-2">
          <input
            ref={fileInput}
            id={`doc-file-${suffix}`}
            type="file"
            accept={ACCEPTED_FILES}
            aria-invalid={fileError || form.errors.attachmentId ? true : undefined}
            aria-describedby={fileError || form.errors.attachmentId ? `doc-file-${suffix}-error` : undefined}
            className="min-w-0 flex-1 text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-800"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setFileError('');
            }}
          />
          <Button type="submit" disabled={form.busy}>
            {progress !== null ? `Uploading ${Math.round(progress * 100)}%` : 'Add document'}
          </Button>
        </div>
        {(fileError || form.errors.attachmentId) && (
          <p id={`doc-file-${suffix}-error`} role="alert" className="text-sm text-red-700">
            {fileError || form.errors.attachmentId}
          </p>
        )}
      </div>
    </form>
  );
}
