import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { type AvailabilityForm, availabilityFieldKey, availabilityForm } from '../../../../server/appointments/schema';
import { serviceDay } from '../../../../server/time';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { Page } from '../../../components/ui/Page';
import { FallbackLinkCard } from '../../calls/ConsoleCallCards';
import { LoadError, Loading } from '../../../components/ui/States';
import { errorMessage, fieldErrors } from '../../../lib/errors';
import { toast } from '../../../lib/toast';
import { useTRPC } from '../../../lib/trpc';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const toTime = (m: number | null) =>
  m === null ? '' : `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const toMinute = (t: string) => {
  const [h, m] = t.split(':').map(Number);
  return t ? (h ?? 0) * 60 + (m ?? 0) : null;
};
const inputClass = 'rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm aria-[invalid=true]:border-red-600';

type Errors = Record<string, string[]>;
const errorId = (key: string) => `availability-error-${key.replace(/\./g, '-')}`;
/** An input's error attributes: marked invalid and described by its message when there is one. */
const invalid = (errors: Errors, ...keys: string[]) => {
  const key = keys.find((k) => errors[k]?.length);
  return key ? { 'aria-invalid': true, 'aria-describedby': errorId(key) } : {};
};

/** The messages of these fields, under them, in words. */
function FieldErrors({ errors, keys }: { errors: Errors; keys: string[] }) {
  const shown = keys.filter((k) => errors[k]?.length);
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map((k) => (
        <p key={k} id={errorId(k)} className="w-full text-sm font-medium text-red-700">
          {errors[k]![0]}
        </p>
      ))}
    </>
  );
}

/**
 * A dietitian's availability, all in India time: session lengths and the buffer, the weekly
 * hours and breaks, and one-off changes (days off, closed or extra windows). Saved as a whole.
 */
export function AvailabilityPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [dietitianId, setDietitianId] = useState<number | undefined>(undefined);
  const current = useQuery(trpc.admin.appointments.availability.queryOptions({ dietitianId }));
  const save = useMutation(trpc.admin.appointments.saveAvailability.mutationOptions());
  const [form, setForm] = useState<AvailabilityForm | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => {
    if (current.data) {
      const { dietitianId: _id, dietitianName: _n, dietitians: _d, takingBookings: _t, ...rest } = current.data;
      setForm(rest);
      setErrors({});
    }
  }, [current.data]);
  const showErrors = (found: Errors) => {
    setErrors(found);
    toast.error('Some entries need fixing: see the messages on the form.');
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="availability-form"] [aria-invalid="true"]')?.focus());
  };
  const submit = async () => {
    if (!form) return;
    const checked = availabilityForm.safeParse(form);
    if (!checked.success) {
      const found: Errors = {};
      for (const issue of checked.error.issues) {
        const key = availabilityFieldKey(issue.path);
        found[key] = [...(found[key] ?? []), issue.message];
      }
      showErrors(found);
      return;
    }
    try {
      const saved = await save.mutateAsync({ ...form, dietitianId: current.data?.dietitianId });
      setErrors({});
      toast.success(
        saved.takingBookings
          ? 'Availability saved. Bookings are open: new times show at once.'
          : 'Availability saved. Not taking bookings: no one can book these hours.',
      );
      await queryClient.invalidateQueries({ queryKey: trpc.admin.appointments.pathKey() });
    } catch (error) {
      const found = fieldErrors(error);
      if (Object.keys(found).length > 0) showErrors(found);
      else toast.error(errorMessage(error));
    }
  };
  const set = (patch: Partial<AvailabilityForm>) => setForm((f) => (f ? { ...f, ...patch } : f));
  return (
    <Page title="Availability" lead="When clients and visitors can book, in India time." width="max-w-4xl">
      {current.isPending || !form || !current.data ? (
        current.isError ? (
          <LoadError error={current.error} onRetry={() => void current.refetch()} />
        ) : (
          <Loading label="Loading availability" />
        )
      ) : (
        <div className="flex flex-col gap-5" data-testid="availability-form">
          <Card className="flex flex-wrap items-end gap-4 p-4 sm:p-5">
            <label className="flex flex-col gap-1 text-sm font-semibold text-slate-800">
              Dietitian
              <select className={inputClass} value={current.data.dietitianId} onChange={(e) => setDietitianId(Number(e.target.value))}>
                {current.data.dietitians.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
              </select>
            </label>
            <NumberField
              label="Free consultation (min)"
              field="consultationMinutes"
              errors={errors}
              value={form.consultationMinutes}
              onChange={(v) => set({ consultationMinutes: v })}
            />
            <NumberField
              label="Follow-up (min)"
              field="followUpMinutes"
              errors={errors}
              value={form.followUpMinutes}
              onChange={(v) => set({ followUpMinutes: v })}
            />
            <NumberField
              label="Buffer between (min)"
              field="bufferMinutes"
              errors={errors}
              value={form.bufferMinutes}
              onChange={(v) => set({ bufferMinutes: v })}
            />
            <label className="flex items-center gap-2 pb-2 text-sm font-semibold text-slate-800">
              <input type="checkbox" checked={form.bookable} onChange={(e) => set({ bookable: e.target.checked })} className="h-4 w-4" />
              Takes bookings
            </label>
            <p
              className={`w-full rounded-lg p-3 text-sm ${current.data.takingBookings ? 'bg-brand-50 text-brand-900' : 'bg-amber-50 text-amber-900'}`}
              role="status"
              data-testid="booking-state"
            >
              {current.data.takingBookings
                ? 'Bookings are open: clients and visitors can book your free times.'
                : 'Not taking bookings yet: no one can book you until “Takes bookings” is on and some weekly hours are saved.'}
              {form.bookable !== current.data.bookable &&
                (form.bookable ? ' Saving turns bookings on.' : ' Saving stops new bookings; booked sessions stay.')}
            </p>
          </Card>
          <Card className="p-4 sm:p-5">
            <h2 className="mb-3 text-lg font-bold text-slate-900">Weekly hours and breaks</h2>
            <ul className="divide-y divide-slate-100">
              {WEEKDAYS.map((name, i) => {
                const weekday = i + 1;
                const rows = form.weekly.map((w, index) => ({ w, index })).filter(({ w }) => w.weekday === weekday);
                return (
                  <li key={name} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start">
                    <span className="w-28 shrink-0 pt-1.5 font-semibold text-slate-800">{name}</span>
                    <div className="flex flex-1 flex-col gap-2">
                      {rows.length === 0 && <span className="pt-1.5 text-sm text-slate-600">Closed</span>}
                      {rows.map(({ w, index }) => (
                        <div key={index} className="flex flex-wrap items-center gap-2">
                          <select
                            className={inputClass}
                            value={w.kind}
                            aria-label={`${name} row kind`}
                            onChange={(e) =>
                              set({
                                weekly: form.weekly.map((x, j) => (j === index ? { ...x, kind: e.target.value as 'hours' | 'break' } : x)),
                              })
                            }
                          >
                            <option value="hours">Open</option>
                            <option value="break">Break</option>
                          </select>
                          <span className="flex items-center gap-2">
                            <input
                              type="time"
                              className={inputClass}
                              aria-label={`${name} from`}
                              {...invalid(errors, `weekly.${index}.startMinute`)}
                              value={toTime(w.startMinute)}
                              onChange={(e) =>
                                set({
                                  weekly: form.weekly.map((x, j) =>
                                    j === index ? { ...x, startMinute: toMinute(e.target.value) ?? 0 } : x,
                                  ),
                                })
                              }
                            />
                            <span className="text-slate-500">to</span>
                            <input
                              type="time"
                              className={inputClass}
                              aria-label={`${name} to`}
                              {...invalid(errors, `weekly.${index}.endMinute`)}
                              value={toTime(w.endMinute)}
                              onChange={(e) =>
                                set({
                                  weekly: form.weekly.map((x, j) => (j === index ? { ...x, endMinute: toMinute(e.target.value) ?? 0 } : x)),
                                })
                              }
                            />
                          </span>
                          <Button
                            variant="ghost"
                            size="sm"
                            aria-label="Remove"
                            onClick={() => set({ weekly: form.weekly.filter((_, j) => j !== index) })}
                          >
                            <Trash2 className="h-4 w-4" aria-hidden="true" />
                          </Button>
                          <FieldErrors
                            errors={errors}
                            keys={[`weekly.${index}.startMinute`, `weekly.${index}.endMinute`, `weekly.${index}`]}
                          />
                        </div>
                      ))}
                      <div>
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => set({ weekly: [...form.weekly, { weekday, kind: 'hours', startMinute: 600, endMinute: 1080 }] })}
                        >
                          <Plus className="h-4 w-4" aria-hidden="true" />
                          Add hours
                        </Button>
                      </div>
                    </div>
                  </li>
                );
              })}
            </ul>
          </Card>
          <Card className="p-4 sm:p-5">
            <h2 className="mb-1 text-lg font-bold text-slate-900">Days off and one-off changes</h2>
            <p className="mb-3 text-sm text-slate-600">Leave the times empty for a whole day off.</p>
            <div className="flex flex-col gap-2">
              {form.exceptions.map((e, index) => (
                <div key={index} className="flex flex-wrap items-center gap-2">
                  <input
                    type="date"
                    className={inputClass}
                    aria-label="Day"
                    {...invalid(errors, `exceptions.${index}.day`)}
                    value={e.day}
                    onChange={(ev) =>
                      set({ exceptions: form.exceptions.map((x, j) => (j === index ? { ...x, day: ev.target.value } : x)) })
                    }
                  />
                  <select
                    className={inputClass}
                    aria-label="Change"
                    value={e.kind}
                    onChange={(ev) =>
                      set({
                        exceptions: form.exceptions.map((x, j) => (j === index ? { ...x, kind: ev.target.value as 'off' | 'open' } : x)),
                      })
                    }
                  >
                    <option value="off">Closed</option>
                    <option value="open">Extra hours</option>
                  </select>
                  <input
                    type="time"
                    className={inputClass}
                    aria-label="From"
                    {...invalid(errors, `exceptions.${index}.startMinute`)}
                    value={toTime(e.startMinute)}
                    onChange={(ev) =>
                      set({
                        exceptions: form.exceptions.map((x, j) => (j === index ? { ...x, startMinute: toMinute(ev.target.value) } : x)),
                      })
                    }
                  />
                  <input
                    type="time"
                    className={inputClass}
                    aria-label="To"
                    {...invalid(errors, `exceptions.${index}.endMinute`)}
                    value={toTime(e.endMinute)}
                    onChange={(ev) =>
                      set({ exceptions: form.exceptions.map((x, j) => (j === index ? { ...x, endMinute: toMinute(ev.target.value) } : x)) })
                    }
                  />
                  <input
                    className={`${inputClass} min-w-0 flex-1`}
                    placeholder="Note (optional)"
                    aria-label="Note"
                    maxLength={200}
                    value={e.note ?? ''}
                    onChange={(ev) =>
                      set({ exceptions: form.exceptions.map((x, j) => (j === index ? { ...x, note: ev.target.value } : x)) })
                    }
                  />
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label="Remove"
                    onClick={() => set({ exceptions: form.exceptions.filter((_, j) => j !== index) })}
                  >
                    <Trash2 className="h-4 w-4" aria-hidden="true" />
                  </Button>
                  <FieldErrors
                    errors={errors}
                    keys={['day', 'startMinute', 'endMinute', 'note'].map((f) => `exceptions.${index}.${f}`).concat(`exceptions.${index}`)}
                  />
                </div>
              ))}
              <div>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() =>
                    set({
                      exceptions: [
                        ...form.exceptions,
                        {
                          day: serviceDay(new Date()),
                          kind: 'off',
                          startMinute: null,
                          endMinute: null,
                          note: null,
                        },
                      ],
                    })
                  }
                >
                  <Plus className="h-4 w-4" aria-hidden="true" />
                  Add a day off or change
                </Button>
              </div>
            </div>
          </Card>
          <div className="flex justify-end">
            <Button onClick={() => void submit()} disabled={save.isPending} data-testid="save-availability">
              Save availability
            </Button>
          </div>
        </div>
      )}
      <div className="mt-5">
        <FallbackLinkCard />
      </div>
    </Page>
  );
}

function NumberField({
  label,
  field,
  errors,
  value,
  onChange,
}: {
  label: string;
  field: string;
  errors: Errors;
  value: number;
  onChange: (v: number) => void;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm font-semibold text-slate-800">
      {label}
      <input
        type="number"
        min={0}
        max={180}
        className={`${inputClass} w-28`}
        {...invalid(errors, field)}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      />
      <FieldErrors errors={errors} keys={[field]} />
    </label>
  );
}
