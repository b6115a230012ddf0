import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileText, Image as ImageIcon } from 'lucide-react';
import { useState } from 'react';
import { DOCUMENT_KINDS, DOCUMENT_LIST_KINDS, documentForm } from '../../../server/care-record/schema';
import { Card } from '../../components/ui/Card';
import { SelectField, TextField } from '../../components/ui/Field';
import { EmptyState, LoadError, Loading } from '../../components/ui/States';
import { formatDay, localToday } from '../../lib/format';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { ACCEPTED_FILES } from '../messages/upload';
import { FileAndSubmit, useFileField } from './file-field';
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
/** Who added a document, said to its reader: the client reads "you" for her own, the dietitian the client's name. */
function addedByLine(d: { addedBy: 'client' | 'dietitian'; addedByName: string | null }, readerIsClient: boolean) {
  if (d.addedBy === 'client') return readerIsClient ? 'added by you' : `from ${d.addedByName ?? 'the client'}`;
  const who = readerIsClient ? 'your dietitian' : 'a dietitian';
  return d.addedByName ? `from ${who}, ${d.addedByName}` : `from ${who}`;
}

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
                      {formatDay(d.date)} · {addedByLine(d, clientId === undefined)}
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
  const file = useFileField('Choose a PDF or a photo of the document');
  const suffix = clientId ?? 'mine';
  return (
    <form
      method="post"
      className="flex flex-col gap-3"
      data-testid="document-form"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!file.required()) return;
        const ok = await form.submit((values, clientRequestId) =>
          file.upload((attachmentId) => create.mutateAsync({ ...values, clientId, clientRequestId, attachmentId } as never)),
        );
        if (ok) {
          toast.success('Document added.');
          file.clear();
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
      <FileAndSubmit
        field={file}
        id={`doc-file-${suffix}`}
        label="File (PDF or photo, up to 10 MB)"
        accept={ACCEPTED_FILES}
        submitLabel="Add document"
        busy={form.busy}
        serverError={form.errors.attachmentId}
      />
    </form>
  );
}
