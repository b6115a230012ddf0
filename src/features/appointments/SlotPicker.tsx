import { CalendarX2 } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import type { SlotView } from '../../../server/appointments/schema';
import { byLocalDay, dayLabel, isIndia } from './slots';

/**
 * Free slots to pick from: the days first (a row that scrolls on a phone), then that day's times in the
 * viewer's own zone, with India time beside each when the viewer is elsewhere.
 */
export function SlotPicker({
  slots,
  timeZone,
  value,
  onChange,
  label = 'Pick a time',
}: {
  slots: SlotView[];
  timeZone: string;
  value: Date | null;
  onChange: (slot: SlotView | null) => void;
  label?: string;
}) {
  const days = useMemo(() => byLocalDay(slots), [slots]);
  const [day, setDay] = useState<string | null>(null);
  const shownDay = days.find((d) => d.day === day) ?? days[0];
  useEffect(() => {
    if (day && !days.some((d) => d.day === day)) setDay(null);
  }, [days, day]);
  const abroad = !isIndia(timeZone);
  if (days.length === 0) {
    return (
      <p className="flex items-center gap-2 rounded-lg bg-slate-50 p-4 text-sm text-slate-600" data-testid="no-slots">
        <CalendarX2 className="h-5 w-5 text-slate-400" aria-hidden="true" />
        No free times in the next two weeks. Ask for a callback, or message your dietitian.
      </p>
    );
  }
  return (
    <fieldset className="flex min-w-0 flex-col gap-3" data-testid="slot-picker">
      <legend className="mb-1 font-semibold text-slate-900">{label}</legend>
      <p className="-mt-1 text-xs text-slate-500">
        Times in your time zone ({timeZone.replace(/_/g, ' ')}){abroad ? ', with India time beside them' : ''}.
      </p>
      <div className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1" role="tablist" aria-label="Days">
        {days.map((d) => {
          const selected = d.day === shownDay?.day;
          return (
            <button
              key={d.day}
              type="button"
              role="tab"
              aria-selected={selected}
              onClick={() => setDay(d.day)}
              className={`flex min-w-[4.5rem] shrink-0 flex-col items-center rounded-lg border px-3 py-2 text-sm transition-colors ${
                selected ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-200 bg-white text-slate-700 hover:border-brand-300'
              }`}
            >
              <span className="font-semibold">{dayLabel(d.day).split(' ')[0]}</span>
              <span className={selected ? 'text-brand-50' : 'text-slate-500'}>{dayLabel(d.day).split(' ').slice(1).join(' ')}</span>
            </button>
          );
        })}
      </div>
      <div
        className="grid grid-cols-2 gap-2 xs:grid-cols-3 md:grid-cols-4"
        role="radiogroup"
        aria-label={`Times on ${shownDay ? dayLabel(shownDay.day, { weekday: 'long' }) : ''}`}
      >
        {shownDay?.slots.map((s) => {
          const checked = value !== null && s.start.getTime() === value.getTime();
          return (
            <button
              key={s.start.toISOString()}
              type="button"
              role="radio"
              aria-checked={checked}
              data-testid="slot"
              onClick={() => onChange(checked ? null : s)}
              className={`flex flex-col items-center rounded-lg border px-2 py-2 transition-colors ${
                checked ? 'border-brand-700 bg-brand-50 ring-2 ring-brand-700' : 'border-slate-200 bg-white hover:border-brand-300'
              }`}
            >
              <span className="text-base font-semibold text-slate-900">{s.local.time}</span>
              {abroad && (
                <span className="text-xs text-slate-500">
                  India {s.india.time}
                  {s.india.date !== s.local.date ? ` (${dayLabel(s.india.date)})` : ''}
                </span>
              )}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}
