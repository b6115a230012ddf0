import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { WEEKDAYS } from '../../../../server/messages/schema';
import { Button } from '../../../components/ui/Button';
import { TextAreaField, TextField } from '../../../components/ui/Field';
import { errorMessage, fieldErrors } from '../../../lib/errors';
import { toast } from '../../../lib/toast';
import { useTRPC } from '../../../lib/trpc';
import { LoadError, Loading, Page } from '../ui';

/** /admin/messages/settings: saved replies and office hours (India time). */
export function MessageSettingsPage() {
  return (
    <Page
      title="Saved replies and office hours"
      before={
        <Link href="/messages" className="mb-3 inline-flex items-center gap-1 text-sm font-medium text-brand-800 hover:underline">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          Messages
        </Link>
      }
      width="max-w-3xl"
    >
      <div className="flex flex-col gap-6">
        <OfficeHoursCard />
        <SavedRepliesCard />
      </div>
    </Page>
  );
}

const card = 'rounded-2xl border border-slate-200 bg-white p-4 sm:p-6';

function OfficeHoursCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hours = useQuery(trpc.admin.messages.officeHours.queryOptions());
  const save = useMutation(trpc.admin.messages.setOfficeHours.mutationOptions());
  const [days, setDays] = useState<number[]>([1, 2, 3, 4, 5, 6]);
  const [opens, setOpens] = useState('09:00');
  const [closes, setCloses] = useState('18:00');
  const [errors, setErrors] = useState<Record<string, string[]>>({});

  useEffect(() => {
    if (!hours.data) return;
    setDays(hours.data.days ?? []);
    setOpens(hours.data.opens);
    setCloses(hours.data.closes);
  }, [hours.data]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    try {
      await save.mutateAsync({ days: days.length ? days : null, opens, closes });
      await queryClient.invalidateQueries({ queryKey: trpc.admin.messages.officeHours.queryKey() });
      toast.success('Office hours saved');
    } catch (error) {
      setErrors(fieldErrors(error));
      if (Object.keys(fieldErrors(error)).length === 0) toast.error(errorMessage(error));
    }
  };

  return (
    <section className={card} aria-labelledby="office-hours-title">
      <h2 id="office-hours-title" className="text-lg font-bold text-slate-900">
        Office hours
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        In India time. A client who writes outside them gets one automatic reply per closed period saying when to expect an answer. No days
        chosen: always open, no automatic replies.
      </p>
      {hours.isPending ? (
        <Loading label="Loading office hours" />
      ) : hours.isError ? (
        <LoadError error={hours.error} onRetry={() => void hours.refetch()} />
      ) : (
        <form method="post" onSubmit={(e) => void submit(e)} className="mt-4 flex flex-col gap-4">
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Open on</legend>
            <div className="mt-2 flex flex-wrap gap-2">
              {WEEKDAYS.map((name, i) => {
                const day = i + 1;
                const on = days.includes(day);
                return (
                  <label
                    key={name}
                    className={`cursor-pointer rounded-lg border px-3 py-1.5 text-sm ${on ? 'border-brand-600 bg-brand-50 font-semibold text-brand-900' : 'border-slate-300 text-slate-700'}`}
                  >
                    <input
                      type="checkbox"
                      className="sr-only"
                      checked={on}
                      onChange={() => setDays((d) => (on ? d.filter((x) => x !== day) : [...d, day].sort()))}
                    />
                    {name.slice(0, 3)}
                    <span className="sr-only">{name.slice(3)}</span>
                  </label>
                );
              })}
            </div>
            {errors.days && <p className="mt-1 text-sm text-red-700">{errors.days[0]}</p>}
          </fieldset>
          <div className="grid grid-cols-2 gap-3 sm:max-w-sm">
            <TextField
              label="Opens"
              type="time"
              value={opens}
              onChange={(e) => setOpens(e.target.value)}
              error={errors.opens?.[0]}
              required
            />
            <TextField
              label="Closes"
              type="time"
              value={closes}
              onChange={(e) => setCloses(e.target.value)}
              error={errors.closes?.[0]}
              required
            />
          </div>
          <div>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save office hours'}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

function SavedRepliesCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const replies = useQuery(trpc.admin.messages.savedReplies.queryOptions());
  const create = useMutation(trpc.admin.messages.createSavedReply.mutationOptions());
  const update = useMutation(trpc.admin.messages.updateSavedReply.mutationOptions());
  const remove = useMutation(trpc.admin.messages.deleteSavedReply.mutationOptions());
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.messages.savedReplies.queryKey() });

  return (
    <section className={card} aria-labelledby="saved-replies-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="saved-replies-title" className="text-lg font-bold text-slate-900">
          Saved replies
        </h2>
        {editing !== 'new' && (
          <Button size="sm" onClick={() => setEditing('new')}>
            Add a saved reply
          </Button>
        )}
      </div>
      <p className="mt-1 text-sm text-slate-600">Answers you give often. Insert one from a conversation and edit it before sending.</p>
      {editing === 'new' && (
        <ReplyForm
          submitLabel="Add"
          onCancel={() => setEditing(null)}
          onSave={async (value) => {
            await create.mutateAsync(value);
            await refresh();
            setEditing(null);
            toast.success('Saved reply added');
          }}
        />
      )}
      {replies.isPending ? (
        <Loading label="Loading saved replies" />
      ) : replies.isError ? (
        <LoadError error={replies.error} onRetry={() => void replies.refetch()} />
      ) : replies.data.length === 0 && editing !== 'new' ? (
        <p className="mt-4 text-sm text-slate-600">No saved replies yet.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100" data-testid="saved-replies">
          {replies.data.map((r) =>
            editing === r.id ? (
              <li key={r.id} className="py-3">
                <ReplyForm
                  initial={r}
                  submitLabel="Save"
                  onCancel={() => setEditing(null)}
                  onSave={async (value) => {
                    await update.mutateAsync({ id: r.id, ...value });
                    await refresh();
                    setEditing(null);
                    toast.success('Saved reply updated');
                  }}
                />
              </li>
            ) : (
              <li key={r.id} className="flex flex-col gap-1 py-3 sm:flex-row sm:items-start sm:gap-4">
                <div className="min-w-0 flex-1">
                  <p className="font-semibold text-slate-900">{r.title}</p>
                  <p className="text-sm whitespace-pre-wrap text-slate-700">{r.body}</p>
                </div>
                <div className="flex gap-2">
                  <Button size="sm" variant="secondary" onClick={() => setEditing(r.id)}>
                    Edit<span className="sr-only"> {r.title}</span>
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={async () => {
                      try {
                        await remove.mutateAsync({ id: r.id });
                        await refresh();
                        toast.success('Saved reply deleted');
                      } catch (error) {
                        toast.error(errorMessage(error));
                      }
                    }}
                  >
                    Delete<span className="sr-only"> {r.title}</span>
                  </Button>
                </div>
              </li>
            ),
          )}
        </ul>
      )}
    </section>
  );
}

function ReplyForm({
  initial,
  submitLabel,
  onSave,
  onCancel,
}: {
  initial?: { title: string; body: string };
  submitLabel: string;
  onSave: (value: { title: string; body: string }) => Promise<void>;
  onCancel: () => void;
}) {
  const [title, setTitle] = useState(initial?.title ?? '');
  const [body, setBody] = useState(initial?.body ?? '');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await onSave({ title, body });
    } catch (error) {
      const fields = fieldErrors(error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form method="post" onSubmit={(e) => void submit(e)} className="mt-3 flex flex-col gap-3 rounded-xl bg-slate-50 p-3">
      <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} error={errors.title?.[0]} maxLength={80} />
      <TextAreaField
        label="Text"
        value={body}
        onChange={(e) => setBody(e.target.value)}
        error={errors.body?.[0]}
        rows={4}
        hint="Write {first name} or {full name}: it is filled with the client’s name when you insert the reply."
      />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </Button>
        <Button type="button" size="sm" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
