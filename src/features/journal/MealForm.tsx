import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Camera, Loader2, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  FUTURE_SLACK_MS,
  MEAL_KIND_KEYS,
  MEAL_KINDS,
  MEAL_PHOTOS_MAX,
  MEAL_SAYS_NOTHING,
  type MealEntry,
  type MealKind,
  mealForm,
  shiftDay,
} from '../../../server/journal/schema';
import type { Nutrients } from '../../../server/nutrition/nutrients';
import { Button } from '../../components/ui/Button';
import { SelectField, TextAreaField, TextField } from '../../components/ui/Field';
import { Modal } from '../../components/ui/Modal';
import { toastError } from '../../lib/notify';
import { sendOrQueue } from '../../lib/offline-queue';
import { useSessionInfo } from '../../lib/use-session';
import { MEAL_QUEUED, type MealPayload } from '../dashboard/offline/queued';
import { keyForBody, type SubmissionKey } from '../../lib/request-key';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { ACCEPTED_PHOTOS, refusalOf, uploadAttachment } from '../messages/upload';
import { applyServerErrors } from '../../lib/server-errors';
import { draftsOf, itemsInput } from './meal-items';
import { MealItemsEditor, useMealDraft, useRecentFoodsRefresh } from './MealItemsEditor';

type FormInput = z.input<typeof mealForm>;
type FormValues = z.output<typeof mealForm>;
/** A photo of the form: uploading, uploaded (its id and signed preview link), or refused. The page's CSP allows no blob: previews. */
type Photo = { key: number; name: string; preview?: string; id?: string; error?: string; progress?: number | null };

/** The meal a moment most likely is, so a tap is saved for the usual case. */
export function likelyMeal(at: Date): MealKind {
  const minutes = at.getHours() * 60 + at.getMinutes();
  if (minutes < 7 * 60) return 'early-morning';
  if (minutes < 10 * 60 + 30) return 'breakfast';
  if (minutes < 12 * 60 + 30) return 'mid-morning';
  if (minutes < 15 * 60 + 30) return 'lunch';
  if (minutes < 19 * 60) return 'evening-snack';
  if (minutes < 23 * 60) return 'dinner';
  return 'other';
}

/** A moment as a datetime-local control shows it (the phone's own zone). */
const localInput = (at: Date) => new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/** On a day other than today, a new meal starts at the same time of day on that day. */
function defaultMoment(date: string, today: string) {
  const now = new Date();
  if (date === today) return now;
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y!, m! - 1, d!, now.getHours(), now.getMinutes());
}

const SCALE = Array.from({ length: 10 }, (_, i) => i + 1);
const scaleValue = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));

/**
 * Adding a meal in a few taps on a phone (or editing one): the meal (guessed
 * from the time), the photo (the camera opens directly), the foods (searched
 * as typed, or the same as yesterday's) and what it was in words; hunger,
 * fullness and a note if the client wants. A new entry keeps its
 * clientEntryId while it is sent again unchanged, so a retry never logs it twice.
 */
export function MealForm({
  open,
  onOpenChange,
  date,
  today,
  entry,
  onSaved,
  showNumbers,
  targets,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  date: string;
  today: string;
  entry?: MealEntry | null;
  onSaved: () => void;
  /** Whether the client sees nutrient numbers (their dietitian decides). */
  showNumbers: boolean;
  targets?: Nutrients | null;
}) {
  const trpc = useTRPC();
  const userId = useSessionInfo()?.id ?? null;
  const update = useMutation(trpc.journal.update.mutationOptions());
  const entryKey = useRef<SubmissionKey | null>(null);
  const nextKey = useRef(0);
  const [photos, setPhotos] = useState<Photo[]>([]);
  const [saving, setSaving] = useState(false);
  const photoHint = useId();
  const form = useForm<FormInput, unknown, FormValues>({ resolver: zodResolver(mealForm) });
  const { errors } = form.formState;
  const draft = useMealDraft();
  const refreshRecent = useRecentFoodsRefresh();
  const { setItems } = draft;
  const [itemsError, setItemsError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    entryKey.current = null;
    const at = entry ? entry.eatenAt : defaultMoment(date, today);
    form.reset({
      meal: entry?.meal ?? likelyMeal(at),
      eatenAt: localInput(at),
      description: entry?.description ?? '',
      hungerBefore: entry?.hungerBefore ?? null,
      fullnessAfter: entry?.fullnessAfter ?? null,
      note: entry?.note ?? '',
    });
    setPhotos((entry?.photos ?? []).map((p) => ({ key: nextKey.current++, name: p.name, preview: p.thumbnailUrl ?? p.url, id: p.id })));
    setItems(draftsOf(entry?.items ?? []));
    setItemsError(null);
  }, [open, entry, date, today, form, setItems]);

  const uploading = photos.some((p) => !p.id && !p.error);
  const shown = photos.filter((p) => !p.error);
  const refused = photos.filter((p) => p.error);
  const chosenMeal = form.watch('meal');
  // "Same as yesterday's breakfast": the foods of the same meal the day before this one.
  const yesterday = useQuery({ ...trpc.journal.day.queryOptions({ date: shiftDay(date, -1) }), enabled: open && !entry });
  const yesterdays = (yesterday.data?.entries ?? []).filter((e) => e.meal === chosenMeal && e.items.length > 0);

  const pick = (files: FileList | null) => {
    if (!files) return;
    // A new choice replaces the last refusals: they said what was wrong with files no longer in question.
    const kept = photos.filter((p) => !p.error);
    const room = MEAL_PHOTOS_MAX - kept.length;
    const chosen = [...files];
    const added: Photo[] = [];
    for (const [i, file] of chosen.entries()) {
      const photo: Photo = { key: nextKey.current++, name: file.name, progress: null };
      // A PDF or other file is refused the moment it is chosen, naming what the slot takes; it never becomes a tile.
      const why =
        refusalOf(file, { photosOnly: true }) ??
        (i >= room ? `“${file.name}” was not added: a meal can have at most ${MEAL_PHOTOS_MAX} photos.` : null);
      if (why) {
        added.push({ ...photo, error: why });
        continue;
      }
      added.push(photo);
      uploadAttachment(file, () => {}, undefined, {
        photosOnly: true,
        onStage: ({ stage, fraction }) =>
          setPhotos((list) => list.map((p) => (p.key === photo.key ? { ...p, progress: stage === 'preparing' ? null : fraction } : p))),
      })
        .then((view) =>
          setPhotos((list) => list.map((p) => (p.key === photo.key ? { ...p, id: view.id, preview: view.thumbnailUrl ?? view.url } : p))),
        )
        .catch((err: Error) => setPhotos((list) => list.map((p) => (p.key === photo.key ? { ...p, error: err.message } : p))));
    }
    setPhotos([...kept, ...added]);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    const eatenAt = new Date(values.eatenAt);
    if (Number.isNaN(eatenAt.getTime())) {
      form.setError('eatenAt', { message: 'Say when you ate it' }, { shouldFocus: true });
      return;
    }
    if (eatenAt.getTime() > Date.now() + FUTURE_SLACK_MS) {
      form.setError(
        'eatenAt',
        { message: 'The time eaten is more than a day in the future. Check the date and time.' },
        { shouldFocus: true },
      );
      return;
    }
    const attachmentIds = photos.flatMap((p) => (p.id ? [p.id] : []));
    const items = itemsInput(draft.items, draft.foods);
    if (!items) {
      setItemsError('Give each food a quantity such as 1½ katori, 2 roti or 150 g.');
      return;
    }
    setItemsError(null);
    if (!values.description && items.length === 0 && attachmentIds.length === 0) {
      form.setError('description', { message: MEAL_SAYS_NOTHING }, { shouldFocus: true });
      return;
    }
    const description = values.description ?? undefined;
    setSaving(true);
    try {
      if (entry) {
        // The foods go only when changed: a dietitian's estimate stays theirs until the client changes it.
        const before = entry.items.map((i) => ({ foodId: i.foodId, quantity: i.quantity, unit: i.unit }));
        const changed = JSON.stringify(before) !== JSON.stringify(items);
        await update.mutateAsync({ id: entry.id, ...values, description, eatenAt, attachmentIds, ...(changed ? { items } : {}) });
        toast.success('Meal updated');
      } else if (userId !== null) {
        // Without a connection a new meal waits on this device (its clientEntryId keeps a resend single) and goes when back.
        const details = { ...values, description, eatenAt: eatenAt.toISOString(), attachmentIds, ...(items.length ? { items } : {}) };
        // A retry of the same meal keeps its key; once the person has changed it, it is another request with a new key.
        entryKey.current = keyForBody(entryKey.current, details);
        const payload: MealPayload = { ...details, clientEntryId: entryKey.current.key };
        const outcome = await sendOrQueue(userId, 'meal', entryKey.current.key, payload);
        if (outcome === 'sent') toast.success('Meal logged');
        else toast.info(MEAL_QUEUED);
      }
      refreshRecent();
      onSaved();
      onOpenChange(false);
    } catch (error) {
      // A time or text the server refuses is said under its field; anything else in a toast.
      if (!applyServerErrors(form, error, ['eatenAt', 'description', 'note', 'meal', 'hungerBefore', 'fullnessAfter'])) toastError(error);
    } finally {
      setSaving(false);
    }
  });

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={entry ? 'Edit meal' : 'Add a meal'}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form="meal-form" disabled={saving || uploading}>
            {saving || uploading ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : null}
            {uploading ? 'Uploading photo…' : entry ? 'Save' : 'Log meal'}
          </Button>
        </>
      }
    >
      <form method="post" id="meal-form" onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4" noValidate>
        <fieldset>
          <legend className="mb-1.5 text-sm font-medium text-slate-800">Meal</legend>
          <div className="flex flex-wrap gap-2">
            {MEAL_KIND_KEYS.map((kind) => (
              <label
                key={kind}
                className={`cursor-pointer rounded-full border px-3 py-1.5 text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-300 ${
                  chosenMeal === kind
                    ? 'border-brand-700 bg-brand-700 text-white'
                    : 'border-slate-300 bg-white text-slate-800 hover:bg-brand-50'
                }`}
              >
                <input type="radio" value={kind} className="sr-only" {...form.register('meal')} />
                {MEAL_KINDS[kind]}
              </label>
            ))}
          </div>
          {errors.meal?.message && <p className="mt-1 text-sm text-red-700">{errors.meal.message}</p>}
        </fieldset>

        <div>
          <span className="mb-1.5 block text-sm font-medium text-slate-800">Photo</span>
          <div className="flex flex-wrap items-start gap-2">
            {shown.map((p) => (
              <figure key={p.key} className="relative h-20 w-20 overflow-hidden rounded-xl border border-slate-200 bg-slate-100">
                {p.preview ? (
                  <img src={p.preview} alt={p.name} className="h-full w-full object-cover" data-testid="meal-photo-preview" />
                ) : (
                  <div
                    className="absolute inset-0 flex flex-col items-center justify-center gap-1 text-xs font-medium text-brand-900"
                    data-testid="upload-progress"
                    data-percent={p.progress == null ? '' : Math.round(p.progress * 100)}
                  >
                    <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" />
                    <span className="tabular-nums">{p.progress == null ? 'Preparing…' : `${Math.round(p.progress * 100)}%`}</span>
                    <progress className="sr-only" value={p.progress ?? undefined} max={1} aria-label={`Uploading ${p.name}`} />
                  </div>
                )}
                <button
                  type="button"
                  className="absolute top-0 right-0 flex h-11 w-11 items-start justify-end p-1 text-slate-700"
                  aria-label={`Remove ${p.name}`}
                  onClick={() => setPhotos((list) => list.filter((x) => x.key !== p.key))}
                >
                  <X className="h-5 w-5 rounded-full bg-white/90 p-0.5 shadow" aria-hidden="true" />
                </button>
              </figure>
            ))}
            {shown.length < MEAL_PHOTOS_MAX && (
              <label className="flex h-20 min-w-20 cursor-pointer flex-col items-center justify-center gap-1 rounded-xl border-2 border-dashed border-brand-300 bg-brand-50 px-3 text-sm font-semibold text-brand-800 hover:bg-brand-100 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-300">
                <Camera className="h-6 w-6" aria-hidden="true" />
                {shown.length ? 'Add photo' : 'Take a photo'}
                {/* capture: the phone opens its camera directly (a desktop opens the file chooser). */}
                <input
                  type="file"
                  accept={ACCEPTED_PHOTOS}
                  capture="environment"
                  className="sr-only"
                  data-testid="meal-photo-input"
                  aria-describedby={photoHint}
                  onChange={(e) => {
                    pick(e.target.files);
                    e.target.value = '';
                  }}
                />
              </label>
            )}
          </div>
          <p id={photoHint} className="mt-1 text-xs text-slate-600">
            Photos (JPEG, PNG or WebP), up to {MEAL_PHOTOS_MAX}. They are made smaller on your phone before they are sent.
          </p>
          {refused.map((p) => (
            <p key={p.key} role="alert" className="mt-1 text-sm break-words text-red-700" data-testid="meal-photo-refused">
              {p.error}
            </p>
          ))}
        </div>

        <MealItemsEditor
          draft={draft}
          showNumbers={showNumbers}
          targets={targets}
          actions={
            yesterdays.length > 0 ? (
              <Button
                type="button"
                variant="secondary"
                size="sm"
                className="self-start"
                onClick={() => setItems((list) => [...list, ...draftsOf(yesterdays.flatMap((e) => e.items))])}
              >
                Same as yesterday’s {MEAL_KINDS[chosenMeal as MealKind].toLowerCase()}
              </Button>
            ) : null
          }
        />
        {itemsError && (
          <p role="alert" className="-mt-2 text-sm text-red-700">
            {itemsError}
          </p>
        )}

        <TextAreaField
          label="What did you eat? (in your words)"
          rows={2}
          placeholder="2 rotis, dal, bhindi sabzi"
          error={errors.description?.message}
          {...form.register('description')}
        />
        <TextField label="When" type="datetime-local" error={errors.eatenAt?.message} {...form.register('eatenAt')} />

        <details
          className="group rounded-xl border border-slate-200 px-3 py-2"
          open={Boolean(entry?.hungerBefore || entry?.fullnessAfter || entry?.note)}
        >
          <summary className="cursor-pointer text-sm font-semibold text-brand-800">Hunger, fullness and a note (optional)</summary>
          <div className="mt-3 grid grid-cols-2 gap-3">
            <SelectField
              label="Hunger before"
              error={errors.hungerBefore?.message}
              {...form.register('hungerBefore', { setValueAs: scaleValue })}
            >
              <option value="">—</option>
              {SCALE.map((n) => (
                <option key={n} value={n}>
                  {n}
                  {n === 1 ? ' (not hungry)' : n === 10 ? ' (starving)' : ''}
                </option>
              ))}
            </SelectField>
            <SelectField
              label="Fullness after"
              error={errors.fullnessAfter?.message}
              {...form.register('fullnessAfter', { setValueAs: scaleValue })}
            >
              <option value="">—</option>
              {SCALE.map((n) => (
                <option key={n} value={n}>
                  {n}
                  {n === 1 ? ' (still hungry)' : n === 10 ? ' (stuffed)' : ''}
                </option>
              ))}
            </SelectField>
          </div>
          <div className="mt-3">
            <TextAreaField
              label="Note"
              rows={2}
              placeholder="Ate out, felt bloated, skipped the rice…"
              error={errors.note?.message}
              {...form.register('note')}
            />
          </div>
        </details>
      </form>
    </Modal>
  );
}
