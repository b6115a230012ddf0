import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Lock } from 'lucide-react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { NOTES_MAX, saveNotesInput } from '../../../server/calls/schema';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { TextAreaField } from '../../components/ui/Field';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';

const notesForm = saveNotesInput.pick({ body: true });

/** The dietitian's private notes of this session, kept on the client's record (the client never sees them). */
export function SessionNotes({ appointmentId }: { appointmentId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const note = useQuery(trpc.admin.calls.note.queryOptions({ appointmentId }));
  const save = useMutation(trpc.admin.calls.saveNote.mutationOptions());
  const form = useForm<z.input<typeof notesForm>, unknown, z.output<typeof notesForm>>({
    resolver: zodResolver(notesForm),
    defaultValues: { body: '' },
  });
  const saved = note.data?.body;
  useEffect(() => {
    if (saved !== undefined) form.reset({ body: saved });
  }, [saved, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const result = await save.mutateAsync({ appointmentId, ...values });
      queryClient.setQueryData(trpc.admin.calls.note.queryKey({ appointmentId }), result);
      toast.success('Session notes saved.');
    } catch (err) {
      form.setError('body', { message: errorMessage(err) });
    }
  });

  return (
    <Card
      title="Session notes"
      actions={
        <span className="inline-flex items-center gap-1 text-xs font-medium text-slate-500">
          <Lock className="h-3.5 w-3.5" aria-hidden="true" /> Dietitians only
        </span>
      }
    >
      <form className="space-y-3 p-4 sm:p-5" onSubmit={onSubmit} method="post" action="#">
        <TextAreaField
          label="Notes on this session"
          hint="Kept on the client's record; never shown to the client."
          rows={6}
          maxLength={NOTES_MAX}
          error={form.formState.errors.body?.message}
          {...form.register('body')}
        />
        <div className="flex items-center justify-end gap-3">
          {note.data && <span className="text-xs text-slate-500">Saved {note.data.updatedAt.toLocaleString()}</span>}
          <Button type="submit" size="sm" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save notes'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
