import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import {
  type BookedConsultation,
  type ConsultationFormInput,
  type ConsultationFormValues,
  consultationForm,
  GENDERS,
  HOLD_MINUTES,
} from '../../../../server/consultation/schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { controlClasses, FieldShell, TextField } from '../../../components/ui/Field';
import { errorMessage, fieldErrors } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';
import { RadioGroupField } from './RadioGroupField';
import type { SlotView } from '../../../../server/appointments/schema';
import { SlotPicker } from '../../appointments/SlotPicker';
import { nextSlotsOf, viewerTimeZone } from '../../appointments/slots';

type Fields = Record<keyof ConsultationFormInput, string>;

/** Every field starts empty: gender too, which the visitor chooses (no answer is assumed for her). */
export const EMPTY_CONSULTATION: Fields = {
  name: '',
  email: '',
  gender: '',
  age: '',
  height: '',
  weight: '',
  state: '',
  contact: '',
  country: '',
  isMedicalCondition: '',
};

const GENDER_OPTIONS = GENDERS.map((g) => ({ value: String(g.value), label: g.label }));
const CONDITION_OPTIONS = [
  { value: '1', label: 'Yes' },
  { value: '0', label: 'No' },
] as const;

/**
 * The booking form. Rules and messages are the server's
 * schema; the countries load when the form opens; the overlay covers the
 * page while it submits; `onBooked` then shows the confirmation screen.
 */
export function ConsultationForm({ id, onBooked }: { id: string; onBooked: (booked: BookedConsultation) => void }) {
  const trpc = useTRPC();
  const overlay = useLoadingOverlay();
  const countries = useQuery({ ...trpc.countries.list.queryOptions(), staleTime: Number.POSITIVE_INFINITY });
  const book = useMutation(trpc.consultation.book.mutationOptions());
  const countryId = useId();
  // A free slot for the call, in the visitor's own time zone; none picked is a callback request.
  const tz = viewerTimeZone();
  const slots = useQuery({ ...trpc.appointments.slots.queryOptions({ kind: 'consultation', tz }), staleTime: 0 });
  const [slot, setSlot] = useState<SlotView | null>(null);
  const [offered, setOffered] = useState<SlotView[] | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<Fields, unknown, ConsultationFormValues>({
    resolver: zodResolver(consultationForm) as never,
    defaultValues: EMPTY_CONSULTATION,
  });

  useEffect(() => {
    if (countries.error) toast.error(errorMessage(countries.error));
  }, [countries.error]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const booked = await overlay.run(book.mutateAsync(slot ? { ...values, slot: slot.start, tz } : values));
      // The server's answer says what happened: a callback request, a time held until the mail's link
      // confirms it, or a repeat of an open request that is in hand; the confirmation screen says it.
      reset(EMPTY_CONSULTATION);
      setSlot(null);
      setOffered(null);
      onBooked(booked);
    } catch (err) {
      const next = nextSlotsOf(err);
      if (next) {
        // Taken meanwhile: nothing was stored; the next free times are offered instead.
        setOffered(next);
        setSlot(null);
        void slots.refetch();
      }
      // The server's field errors, in the form's order; focus goes to the first, as after a failed check here.
      const serverErrors = fieldErrors(err);
      const inError = (Object.keys(EMPTY_CONSULTATION) as (keyof Fields)[]).filter((field) => serverErrors[field]?.[0]);
      inError.forEach((field, i) => {
        setError(field, { message: serverErrors[field]![0] }, { shouldFocus: i === 0 });
      });
      toast.error(errorMessage(err));
    }
  });

  const countryError = errors.country?.message;
  return (
    <form id={id} method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label="Consultation booking form">
      <TextField label="Name" autoComplete="name" error={errors.name?.message} {...register('name')} />
      <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      <RadioGroupField legend="Gender" options={GENDER_OPTIONS} error={errors.gender?.message} {...register('gender')} />
      <div className="grid gap-4 xs:grid-cols-2">
        <TextField label="Age" type="number" inputMode="numeric" min={1} error={errors.age?.message} {...register('age')} />
        <TextField label="Height (feet)" placeholder={'e.g. 5\'6"'} error={errors.height?.message} {...register('height')} />
        <TextField
          label="Weight (kg)"
          type="number"
          inputMode="decimal"
          step="any"
          min={1}
          error={errors.weight?.message}
          {...register('weight')}
        />
        <TextField label="State" autoComplete="address-level1" error={errors.state?.message} {...register('state')} />
      </div>
      <TextField
        label="Contact number"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="10 to 13 digits"
        error={errors.contact?.message}
        {...register('contact')}
      />
      <FieldShell label="Country" id={countryId} error={countryError}>
        <select
          id={countryId}
          aria-invalid={countryError ? true : undefined}
          aria-describedby={countryError ? `${countryId}-error` : undefined}
          aria-busy={countries.isPending}
          className={controlClasses(Boolean(countryError))}
          {...register('country')}
        >
          <option value="">{countries.isPending ? 'Loading countries…' : 'Select your country'}</option>
          {countries.data?.map((c) => (
            <option key={c.id} value={String(c.id)}>
              {c.name}
            </option>
          ))}
        </select>
      </FieldShell>
      <RadioGroupField
        legend="Do you have a medical condition?"
        options={CONDITION_OPTIONS}
        error={errors.isMedicalCondition?.message}
        {...register('isMedicalCondition')}
      />
      <div className="flex flex-col gap-2 border-t border-slate-200 pt-4" data-testid="consult-slots">
        <p className="text-sm text-slate-600">
          Pick a time for your free video consultation, or leave it and we will call you back. We hold the time you pick for {HOLD_MINUTES}{' '}
          minutes: it is booked once you confirm it with the link we email you.
        </p>
        {offered && (
          <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900" role="status">
            That time was just taken. These are the next free ones.
          </p>
        )}
        {slots.isPending ? (
          <p className="text-sm text-slate-500">Loading free times…</p>
        ) : slots.isError ? null : (
          <SlotPicker
            slots={offered ?? slots.data.slots}
            timeZone={tz}
            value={slot?.start ?? null}
            onChange={setSlot}
            label="Free consultation time (optional)"
          />
        )}
        {slot && (
          <button type="button" className="self-start text-sm font-semibold text-brand-800 underline" onClick={() => setSlot(null)}>
            No time, call me back instead
          </button>
        )}
      </div>
    </form>
  );
}
