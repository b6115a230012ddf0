import { useMutation } from '@tanstack/react-query';
import { MessageCircle, Pencil, Scale, SendHorizontal, ThumbsUp, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { MEAL_COMMENT_MAX, MEAL_KINDS, MEAL_MARKS, type MealEntry, type MealMark } from '../../../server/journal/schema';
import { quantityText } from '../../../server/nutrition/measures';
import type { Nutrients } from '../../../server/nutrition/nutrients';
import { Button } from '../../components/ui/Button';
import { formatMoment } from '../../lib/format';
import { toastError } from '../../lib/notify';
import { newRequestKey } from '../../lib/request-key';
import { useTRPC } from '../../lib/trpc';
import { NutrientTotalsRow } from '../nutrition/NutrientTotals';
import { EstimateMeal } from './EstimateMeal';
import { itemsLine } from './meal-items';

const time = new Intl.DateTimeFormat('en-IN', { hour: 'numeric', minute: '2-digit', hour12: true });

const MARK_TONE: Record<MealMark, string> = {
  'looks-good': 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  'lets-talk': 'bg-amber-50 text-amber-900 ring-amber-200',
};

export type MealCardProps = {
  entry: MealEntry;
  /** Who is looking: the client (edit, delete, answer) or a dietitian (mark, comment). */
  audience: 'client' | 'dietitian';
  onEdit?: (entry: MealEntry) => void;
  onDelete?: (entry: MealEntry) => void;
  onChanged: () => void;
  /** The client's daily targets, for each meal's share of the day (null: none, or numbers kept from the reader). */
  targets?: Nutrients | null;
};

/** One meal: photo, what it was, its foods and what they add up to, hunger and fullness, the dietitian's mark, and the comment thread. */
export function MealCard({ entry, audience, onEdit, onDelete, onChanged, targets }: MealCardProps) {
  const trpc = useTRPC();
  const [estimating, setEstimating] = useState(false);
  const words = entry.description || itemsLine(entry.items);
  const mark = useMutation(trpc.admin.journal.mark.mutationOptions());
  const setMark = (kind: MealMark | null) => mark.mutateAsync({ entryId: entry.id, mark: kind }).then(onChanged).catch(toastError);

  return (
    <article
      className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm"
      data-testid="meal-entry"
      aria-label={`${MEAL_KINDS[entry.meal]} at ${time.format(entry.eatenAt)}`}
    >
      <div className="flex gap-3 p-3 sm:p-4">
        {entry.photos[0] ? (
          <a href={entry.photos[0].url} target="_blank" rel="noreferrer" className="shrink-0">
            <img
              src={entry.photos[0].thumbnailUrl ?? entry.photos[0].url}
              alt={`${MEAL_KINDS[entry.meal]}: ${words.slice(0, 80)}`}
              className="h-20 w-20 rounded-xl object-cover sm:h-24 sm:w-24"
              data-testid="meal-photo"
            />
          </a>
        ) : null}
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-baseline gap-x-2">
            <h3 className="font-semibold text-slate-900">{MEAL_KINDS[entry.meal]}</h3>
            <span className="text-sm text-slate-600">{time.format(entry.eatenAt)}</span>
            {entry.mark && (
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${MARK_TONE[entry.mark.kind]}`}
                data-testid="meal-mark"
              >
                {MEAL_MARKS[entry.mark.kind]}
              </span>
            )}
          </div>
          {entry.description && <p className="mt-0.5 break-words whitespace-pre-line text-slate-800">{entry.description}</p>}
          {entry.items.length > 0 && (
            <ul className="mt-1 flex flex-col text-sm text-slate-800" data-testid="meal-foods" aria-label="Foods">
              {entry.items.map((item, i) => (
                <li key={`${item.foodId}-${i}`}>
                  {quantityText(item.quantity, item.unit)} {item.name}
                  <span className="text-slate-600">
                    {' '}
                    · {Math.round(item.grams)} g
                    {item.byDietitian ? (audience === 'client' ? ' · estimated by your dietitian' : ' · estimated by a dietitian') : ''}
                  </span>
                </li>
              ))}
            </ul>
          )}
          {entry.totals && (
            <NutrientTotalsRow total={entry.totals} targets={targets} label={`${MEAL_KINDS[entry.meal]} adds up to`} className="mt-1.5" />
          )}
          {(entry.hungerBefore || entry.fullnessAfter) && (
            <p className="mt-1 text-sm text-slate-600">
              {entry.hungerBefore ? `Hunger ${entry.hungerBefore}/10` : ''}
              {entry.hungerBefore && entry.fullnessAfter ? ' · ' : ''}
              {entry.fullnessAfter ? `Fullness ${entry.fullnessAfter}/10` : ''}
            </p>
          )}
          {entry.note && <p className="mt-1 text-sm break-words whitespace-pre-line text-slate-600 italic">{entry.note}</p>}
          {entry.photos.length > 1 && (
            <div className="mt-2 flex gap-1.5">
              {entry.photos.slice(1).map((p) => (
                <a key={p.id} href={p.url} target="_blank" rel="noreferrer">
                  <img
                    src={p.thumbnailUrl ?? p.url}
                    alt={`More of this ${MEAL_KINDS[entry.meal].toLowerCase()}`}
                    className="h-12 w-12 rounded-lg object-cover"
                  />
                </a>
              ))}
            </div>
          )}
        </div>
        {audience === 'client' && entry.editable && (
          <div className="flex shrink-0 flex-col gap-1">
            <button
              type="button"
              className="rounded-lg p-2 text-slate-600 hover:bg-slate-100"
              aria-label="Edit this meal"
              onClick={() => onEdit?.(entry)}
            >
              <Pencil className="h-4 w-4" aria-hidden="true" />
            </button>
            <button
              type="button"
              className="rounded-lg p-2 text-red-700 hover:bg-red-50"
              aria-label="Delete this meal"
              onClick={() => onDelete?.(entry)}
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
            </button>
          </div>
        )}
      </div>
      {audience === 'dietitian' && (
        <div className="flex flex-wrap gap-2 border-t border-slate-100 px-3 py-2 sm:px-4">
          {(Object.keys(MEAL_MARKS) as MealMark[]).map((kind) => (
            <Button
              key={kind}
              size="sm"
              variant={entry.mark?.kind === kind ? 'primary' : 'secondary'}
              aria-pressed={entry.mark?.kind === kind}
              disabled={mark.isPending}
              onClick={() => void setMark(entry.mark?.kind === kind ? null : kind)}
            >
              {kind === 'looks-good' ? (
                <ThumbsUp className="h-4 w-4" aria-hidden="true" />
              ) : (
                <MessageCircle className="h-4 w-4" aria-hidden="true" />
              )}
              {MEAL_MARKS[kind]}
            </Button>
          ))}
          <Button size="sm" variant="secondary" onClick={() => setEstimating(true)}>
            <Scale className="h-4 w-4" aria-hidden="true" />
            {entry.items.length ? 'Edit foods' : 'Estimate foods'}
          </Button>
        </div>
      )}
      {audience === 'dietitian' && <EstimateMeal entry={entry} open={estimating} onOpenChange={setEstimating} onSaved={onChanged} />}
      <CommentThread entry={entry} audience={audience} onChanged={onChanged} />
    </article>
  );
}

function CommentThread({ entry, audience, onChanged }: { entry: MealEntry; audience: MealCardProps['audience']; onChanged: () => void }) {
  const trpc = useTRPC();
  const send = useMutation(trpc.journal.comment.mutationOptions());
  const [text, setText] = useState('');
  const [key, setKey] = useState(newRequestKey);
  const submit = async () => {
    const trimmed = text.trim();
    if (!trimmed) return;
    try {
      await send.mutateAsync({ entryId: entry.id, text: trimmed, clientCommentId: key });
      setText('');
      setKey(newRequestKey());
      onChanged();
    } catch (error) {
      toastError(error);
    }
  };
  const placeholder =
    audience === 'dietitian' ? 'Comment on this meal' : entry.comments.length ? 'Reply to your dietitian' : 'Add a comment';
  return (
    <div className="border-t border-slate-100 bg-slate-50/60 px-3 py-2 sm:px-4" data-testid="meal-comments">
      {entry.comments.length > 0 && (
        <ol className="mb-2 flex flex-col gap-2">
          {entry.comments.map((c) => (
            <li
              key={c.id}
              className={`max-w-[90%] rounded-xl px-3 py-2 text-sm ${c.author.role === 'dietitian' ? 'bg-brand-50 text-slate-900' : 'ml-auto bg-white text-slate-900 ring-1 ring-slate-200'}`}
              data-testid="meal-comment"
            >
              <p className="text-xs font-semibold text-slate-600">
                {c.author.role === 'dietitian' ? `${c.author.name} (dietitian)` : c.author.name} · {formatMoment(c.createdAt)}
              </p>
              <p className="break-words whitespace-pre-line">{c.text}</p>
            </li>
          ))}
        </ol>
      )}
      <form
        method="post"
        className="flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className="sr-only" htmlFor={`comment-${entry.id}`}>
          {placeholder}
        </label>
        <textarea
          id={`comment-${entry.id}`}
          rows={1}
          value={text}
          maxLength={MEAL_COMMENT_MAX}
          onChange={(e) => setText(e.target.value)}
          placeholder={placeholder}
          className="min-h-10 flex-1 resize-none rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm focus:border-brand-600 focus:ring-2 focus:ring-brand-200 focus:outline-none"
        />
        <button
          type="submit"
          disabled={!text.trim() || send.isPending}
          aria-label="Send comment"
          className="grid h-10 w-10 shrink-0 place-items-center rounded-lg bg-brand-700 text-white hover:bg-brand-800 disabled:bg-slate-300"
        >
          <SendHorizontal className="h-4 w-4" aria-hidden="true" />
        </button>
      </form>
    </div>
  );
}
