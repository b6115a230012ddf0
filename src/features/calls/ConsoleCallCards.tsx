import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { callSettingsInput } from '../../../server/calls/schema';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { TextField } from '../../components/ui/Field';
import { LoadError, Loading } from '../../components/ui/States';
import { formatMoment } from '../admin/format';
import { errorMessage, fieldErrors } from '../../lib/errors';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';

type LinkInput = z.input<typeof callSettingsInput>;
type LinkValues = z.output<typeof callSettingsInput>;

/**
 * The signed-in dietitian's fallback meeting link (decision 120): a call page
 * offers it to both sides for those who prefer another meeting tool. https only.
 */
export function FallbackLinkCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.admin.calls.settings.queryOptions());
  const save = useMutation(trpc.admin.calls.saveSettings.mutationOptions());
  const form = useForm<LinkInput, unknown, LinkValues>({ resolver: zodResolver(callSettingsInput), defaultValues: { fallbackUrl: '' } });
  useEffect(() => {
    if (settings.data) form.reset({ fallbackUrl: settings.data.fallbackUrl ?? '' });
  }, [settings.data, form]);
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      await queryClient.invalidateQueries({ queryKey: trpc.admin.calls.settings.queryKey() });
      toast.success(values.fallbackUrl ? 'Meeting link saved. Call pages offer it from now on.' : 'Meeting link removed.');
    } catch (error) {
      const fields = fieldErrors(error);
      if (fields.fallbackUrl?.[0]) form.setError('fallbackUrl', { message: fields.fallbackUrl[0] });
      else toast.error(errorMessage(error));
    }
  });
  return (
    <Card title="Your meeting link for calls">
      <div className="p-4 sm:p-5" data-testid="fallback-link">
        {settings.isError ? (
          <LoadError error={settings.error} onRetry={() => void settings.refetch()} />
        ) : settings.isPending ? (
          <Loading label="Loading your meeting link" />
        ) : (
          <form method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <div className="min-w-0 flex-1">
              <TextField
                label="Fallback meeting link (optional)"
                type="url"
                inputMode="url"
                placeholder="https://meet.example.org/your-room"
                error={form.formState.errors.fallbackUrl?.message}
                {...form.register('fallbackUrl')}
              />
            </div>
            <Button type="submit" disabled={save.isPending}>
              Save link
            </Button>
          </form>
        )}
        <p className="mt-2 text-sm text-slate-600">
          Calls run inside Poshan. For clients who prefer it, the call page also offers this link (for example your own Jitsi room).
        </p>
      </div>
    </Card>
  );
}

/** A client's session notes from past calls, newest first: the dietitians' private record, never shown to the client. */
export function ClientSessionNotesCard({ clientId }: { clientId: number }) {
  const trpc = useTRPC();
  const notes = useQuery(trpc.admin.calls.clientNotes.queryOptions({ clientId }));
  return (
    <Card title="Session notes">
      <div className="p-4 sm:p-5" data-testid="client-session-notes">
        {notes.isError ? (
          <LoadError error={notes.error} onRetry={() => void notes.refetch()} />
        ) : notes.isPending ? (
          <Loading label="Loading session notes" />
        ) : notes.data.length === 0 ? (
          <p className="text-slate-600">No session notes yet. After a call, the notes written on the call page show here.</p>
        ) : (
          <ol className="flex flex-col gap-4">
            {notes.data.map((n) => (
              <li key={n.appointmentId} className="border-b border-slate-100 pb-3 last:border-0 last:pb-0">
                <p className="text-sm font-semibold text-slate-900">Session of {formatMoment(n.startsAt)}</p>
                <p className="mt-1 whitespace-pre-line text-slate-700">{n.body}</p>
                <p className="mt-1 text-xs text-slate-500">
                  {n.authorName ?? 'A dietitian'} · updated {formatMoment(n.updatedAt)}
                </p>
              </li>
            ))}
          </ol>
        )}
      </div>
    </Card>
  );
}
