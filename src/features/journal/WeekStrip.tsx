import { ChevronLeft, ChevronRight } from 'lucide-react';
import { shiftDay } from '../../../server/journal/schema';

const weekday = new Intl.DateTimeFormat('en-IN', { weekday: 'short', timeZone: 'UTC' });
const monthDay = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

/**
 * Monday to Sunday of the week shown, a dot under the days with meals; the
 * arrows move a week. Days to come cannot be opened.
 */
export function WeekStrip({
  weekStart,
  selected,
  today,
  loggedDays,
  onSelect,
}: {
  weekStart: string;
  selected: string;
  today: string;
  loggedDays: readonly string[];
  onSelect: (day: string) => void;
}) {
  const days = Array.from({ length: 7 }, (_, i) => shiftDay(weekStart, i));
  const nextWeek = shiftDay(weekStart, 7);
  return (
    <nav aria-label="Days of the week" className="flex items-center gap-1 rounded-2xl border border-slate-200 bg-white p-1.5 shadow-sm">
      <button
        type="button"
        className="rounded-lg p-2 text-slate-700 hover:bg-slate-100"
        aria-label="Previous week"
        onClick={() => onSelect(shiftDay(selected, -7))}
      >
        <ChevronLeft className="h-5 w-5" aria-hidden="true" />
      </button>
      <ol className="grid flex-1 grid-cols-7 gap-1">
        {days.map((day) => {
          const isSelected = day === selected;
          const future = day > today;
          const logged = loggedDays.includes(day);
          return (
            <li key={day}>
              <button
                type="button"
                disabled={future}
                aria-current={isSelected ? 'date' : undefined}
                aria-label={`${weekday.format(asDate(day))} ${monthDay.format(asDate(day))}${day === today ? ' (today)' : ''}${logged ? ', meals logged' : ''}`}
                onClick={() => onSelect(day)}
                className={`flex w-full flex-col items-center rounded-xl py-1.5 text-xs transition-colors disabled:cursor-not-allowed disabled:text-slate-300 ${
                  isSelected ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-brand-50'
                }`}
              >
                <span className={isSelected ? 'text-brand-50' : day === today ? 'font-semibold text-brand-800' : ''}>
                  {weekday.format(asDate(day)).slice(0, 3)}
                </span>{' '}
                <span className="text-base font-semibold">{asDate(day).getUTCDate()}</span>
                <span
                  aria-hidden="true"
                  className={`mt-0.5 h-1.5 w-1.5 rounded-full ${logged ? (isSelected ? 'bg-white' : 'bg-brand-600') : 'bg-transparent'}`}
                />
              </button>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 disabled:cursor-not-allowed disabled:text-slate-300"
        aria-label="Next week"
        disabled={nextWeek > today}
        onClick={() => onSelect(shiftDay(selected, 7) > today ? today : shiftDay(selected, 7))}
      >
        <ChevronRight className="h-5 w-5" aria-hidden="true" />
      </button>
    </nav>
  );
}
