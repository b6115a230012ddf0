import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Camera, Lock } from 'lucide-react';
import { POSES } from '../../../server/care-record/schema';
import { Card } from '../../components/ui/Card';
import { TextField } from '../../components/ui/Field';
import { EmptyState, LoadError, Loading } from '../../components/ui/States';
import { formatDay, localToday } from '../../lib/format';
import type { RouterOutputs } from '../../lib/router-types';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { FileAndSubmit, useFileField } from './file-field';
import { useRecordForm } from './form-state';
import { z } from 'zod';

type Photo = RouterOutputs['careRecord']['progressPhotos']['list'][number];
type Pose = keyof typeof POSES;

const PHOTO_TYPES = 'image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp';
const photoForm = z.object({ date: z.string().min(1, 'Date is required'), pose: z.enum(['front', 'side']) });

/** Front and side progress photos, side by side by date; only the client and the dietitians see them. */
export function PhotosCard({ clientId }: { clientId?: number }) {
  const trpc = useTRPC();
  const input = clientId === undefined ? {} : { clientId };
  const list = useQuery({ ...trpc.careRecord.progressPhotos.list.queryOptions(input), staleTime: 0 });
  const byDate = new Map<string, Partial<Record<Pose, Photo>>>();
  for (const p of list.data ?? []) {
    const day = byDate.get(p.date) ?? {};
    // Newest first from the server: the first photo of a pose on a day is the one shown.
    day[p.pose] ??= p;
    byDate.set(p.date, day);
  }
  return (
    <Card title="Progress photos">
      <div className="flex flex-col gap-5 p-4 sm:p-5">
        <p className="flex items-start gap-2 text-sm text-slate-600">
          <Lock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          Only you and your dietitians can see these photos. Take them in the same place and light each time.
        </p>
        <PhotoForm clientId={clientId} />
        {list.isPending ? (
          <Loading label="Loading photos" compact />
        ) : list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} compact />
        ) : byDate.size === 0 ? (
          <EmptyState Icon={Camera} compact>
            No progress photos yet.
          </EmptyState>
        ) : (
          <ol className="flex flex-col gap-4" data-testid="progress-photos">
            {[...byDate.entries()].map(([date, poses]) => (
              <li key={date} className="rounded-xl border border-slate-200 p-3">
                <h3 className="mb-2 font-semibold text-slate-900">{formatDay(date)}</h3>
                <div className="grid grid-cols-2 gap-3">
                  {(Object.keys(POSES) as Pose[]).map((pose) => (
                    <figure key={pose} className="min-w-0">
                      {poses[pose] ? (
                        <a href={poses[pose]!.photo.url} target="_blank" rel="noreferrer">
                          <img
                            src={poses[pose]!.photo.thumbnailUrl ?? poses[pose]!.photo.url}
                            alt={`${POSES[pose]} photo, ${formatDay(date)}`}
                            className="aspect-[3/4] w-full rounded-lg bg-slate-100 object-cover"
                            loading="lazy"
                          />
                        </a>
                      ) : (
                        <div className="flex aspect-[3/4] w-full items-center justify-center rounded-lg border border-dashed border-slate-300 text-sm text-slate-500">
                          No {POSES[pose].toLowerCase()} photo
                        </div>
                      )}
                      <figcaption className="mt-1 text-center text-sm text-slate-600">{POSES[pose]}</figcaption>
                    </figure>
                  ))}
                </div>
              </li>
            ))}
          </ol>
        )}
      </div>
    </Card>
  );
}

function PhotoForm({ clientId }: { clientId?: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.careRecord.progressPhotos.create.mutationOptions());
  const form = useRecordForm(photoForm, { date: localToday(), pose: 'front' });
  const file = useFileField('Choose a photo');
  return (
    <form
      method="post"
      className="grid gap-3 xs:grid-cols-[auto_auto_1fr] xs:items-end"
      data-testid="photo-form"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!file.required()) return;
        const ok = await form.submit((values, clientRequestId) =>
          file.upload((attachmentId) =>
            create.mutateAsync({ ...(values as { date: string; pose: Pose }), clientId, clientRequestId, attachmentId }),
          ),
        );
        if (ok) {
          toast.success('Photo saved.');
          file.clear();
          await queryClient.invalidateQueries({ queryKey: trpc.careRecord.progressPhotos.list.queryKey() });
        }
      }}
    >
      <TextField
        id="photo-date"
        label="Date"
        type="date"
        max={localToday()}
        value={form.values.date}
        error={form.errors.date}
        onChange={(e) => form.set('date', e.target.value)}
      />
      <fieldset className="flex flex-col gap-1">
        <legend className="text-sm font-medium text-slate-800">Pose</legend>
        <div className="flex gap-2 pt-1">
          {(Object.entries(POSES) as [Pose, string][]).map(([pose, label]) => (
            <label
              key={pose}
              className={`flex min-h-10 cursor-pointer items-center gap-2 rounded-lg border px-3 ${form.values.pose === pose ? 'border-brand-700 bg-brand-50 text-brand-900' : 'border-slate-300'}`}
            >
              <input
                type="radio"
                name="pose"
                value={pose}
                className="accent-brand-700"
                checked={form.values.pose === pose}
                onChange={() => form.set('pose', pose)}
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      <FileAndSubmit
        field={file}
        id="photo-file"
        label="Photo"
        accept={PHOTO_TYPES}
        submitLabel="Add photo"
        busy={form.busy}
        serverError={form.errors.attachmentId}
      />
    </form>
  );
}
