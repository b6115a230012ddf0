import { useMutation } from '@tanstack/react-query';
import { ClipboardList, UtensilsCrossed } from 'lucide-react';
import { useState } from 'react';
import { type JournalDay, MEAL_KINDS, type MealEntry, type PlanMeals } from '../../../server/journal/schema';
import { Button } from '../../components/ui/Button';
import { Modal } from '../../components/ui/Modal';
import { EmptyState } from '../../components/ui/States';
import { formatDay } from '../../lib/format';
import { toastError } from '../../lib/notify';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { NutrientTotals } from '../nutrition/NutrientTotals';
import { MealCard } from './MealCard';
import { WaterCounter } from './WaterCounter';
import { WeekStrip } from './WeekStrip';

/**
 * A day of a journal, for the client and the dietitians alike: the week
 * strip, the day's meals (with comments), water, and the diet plan's meals
 * for the day beside them when a plan covers it (below them on a phone).
 */
export function JournalDayView({
  day,
  audience,
  onSelectDay,
  onEdit,
  onChanged,
  addButton,
}: {
  day: JournalDay;
  audience: 'client' | 'dietitian';
  onSelectDay: (date: string) => void;
  onEdit?: (entry: MealEntry) => void;
  onChanged: () => void;
  addButton?: React.ReactNode;
}) {
  const [deleting, setDeleting] = useState<MealEntry | null>(null);
  const editableDay = day.date >= day.editableFrom && day.date <= day.today;
  return (
    <div className="flex flex-col gap-4">
      <WeekStrip weekStart={day.weekStart} selected={day.date} today={day.today} loggedDays={day.loggedDays} onSelect={onSelectDay} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-slate-900" data-testid="journal-day-title">
          {day.date === day.today ? 'Today' : formatDay(day.date)}
          <span className="ml-2 text-sm font-normal text-slate-600">
            {day.entries.length} {day.entries.length === 1 ? 'meal' : 'meals'}
          </span>
        </h2>
        {audience === 'client' && editableDay ? addButton : null}
      </div>
      {day.totals && day.totals.items > 0 && (
        <section aria-labelledby="day-totals-title" data-testid="journal-day-totals">
          <h3 id="day-totals-title" className="mb-2 text-sm font-semibold text-slate-800">
            {day.date === day.today ? 'Today adds up to' : 'This day adds up to'}
            <span className="ml-1 font-normal text-slate-600">
              (the foods logged{day.targets && Object.keys(day.targets).length ? ', against the daily targets' : ''})
            </span>
          </h3>
          <NutrientTotals total={day.totals} targets={day.targets} label="The day’s nutrients" />
        </section>
      )}
      <div className="grid grid-cols-1 gap-4 min-[900px]:grid-cols-[minmax(0,1fr)_minmax(260px,340px)]">
        <div className="flex min-w-0 flex-col gap-3">
          {day.entries.length === 0 ? (
            <EmptyState Icon={UtensilsCrossed} compact>
              {audience === 'client'
                ? editableDay
                  ? 'Nothing logged for this day yet. Add what you eat, photo first: it takes a few taps.'
                  : 'Nothing was logged for this day.'
                : 'Nothing logged for this day.'}
            </EmptyState>
          ) : (
            day.entries.map((entry) => (
              <MealCard
                key={entry.id}
                entry={entry}
                audience={audience}
                onEdit={onEdit}
                onDelete={setDeleting}
                onChanged={onChanged}
                targets={day.targets}
              />
            ))
          )}
        </div>
        <aside className="flex flex-col gap-4">
          <WaterCounter date={day.date} glasses={day.water} readOnly={audience !== 'client' || !editableDay} />
          <PlanForDay plan={day.plan} />
        </aside>
      </div>
      {audience === 'client' && <DeleteMeal entry={deleting} onClose={() => setDeleting(null)} onDeleted={onChanged} />}
    </div>
  );
}

function PlanForDay({ plan }: { plan: PlanMeals | null }) {
  if (!plan) return null;
  return (
    <section aria-labelledby="plan-title" className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="plan-for-day">
      <h2 id="plan-title" className="flex items-center gap-2 font-semibold text-slate-900">
        <ClipboardList className="h-5 w-5 text-brand-700" aria-hidden="true" />
        Your plan for this day
      </h2>
      <p className="text-sm text-slate-600">
        {plan.title}
        {plan.dayLabel ? ` · ${plan.dayLabel}` : ''}
      </p>
      {plan.meals ? (
        <ol className="mt-3 flex flex-col gap-3">
          {plan.meals.map((m, i) => (
            <li key={`${m.time}-${i}`} className="border-l-2 border-brand-200 pl-3">
              <p className="text-sm font-semibold text-slate-900">
                {m.name} <span className="font-normal text-slate-600">· {m.time}</span>
              </p>
              <ul className="text-sm text-slate-700">
                {m.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
              {m.notes && <p className="text-xs text-slate-600 italic">{m.notes}</p>}
            </li>
          ))}
        </ol>
      ) : (
        <p className="mt-2 text-sm text-slate-700">This plan is a PDF: open it from My Diet Plans.</p>
      )}
    </section>
  );
}

function DeleteMeal({ entry, onClose, onDeleted }: { entry: MealEntry | null; onClose: () => void; onDeleted: () => void }) {
  const trpc = useTRPC();
  const remove = useMutation(trpc.journal.remove.mutationOptions());
  return (
    <Modal
      open={entry !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Delete this meal?"
      description={entry ? `${MEAL_KINDS[entry.meal]}: its photos and comments are deleted too.` : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={remove.isPending}
            onClick={() => {
              if (!entry) return;
              remove
                .mutateAsync({ id: entry.id })
                .then(() => {
                  toast.success('Meal deleted');
                  onDeleted();
                  onClose();
                })
                .catch(toastError);
            }}
          >
            Delete
          </Button>
        </>
      }
    >
      {null}
    </Modal>
  );
}
