import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useEffect } from 'react';
import { type Path, useForm } from 'react-hook-form';
import { type ClientFormInput, type ClientFormValues, clientForm } from '../../../../server/users/schema';
import { Button } from '../../../components/ui/Button';
import { TextAreaField, TextField } from '../../../components/ui/Field';
import { fieldErrors } from '../../../lib/errors';

export type ClientFormDefaults = { [K in keyof ClientFormInput]?: string | number | null };

const asText = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/**
 * Name, email, phone, height, weight and condition notes, with the server's
 * rules (the same zod schema). Server-side field errors land on their fields.
 */
export function ClientForm({
  defaults,
  submitLabel,
  onSubmit,
  serverError,
  aside,
}: {
  defaults: ClientFormDefaults;
  submitLabel: string;
  onSubmit: (values: ClientFormValues) => Promise<void>;
  serverError?: unknown;
  aside?: ReactNode;
}) {
  const form = useForm<ClientFormInput, unknown, ClientFormValues>({
    resolver: zodResolver(clientForm),
    defaultValues: {
      firstName: asText(defaults.firstName),
      lastName: asText(defaults.lastName),
      email: asText(defaults.email),
      phone: asText(defaults.phone),
      heightM: asText(defaults.heightM),
      weightKg: asText(defaults.weightKg),
      conditionNotes: asText(defaults.conditionNotes),
    },
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    for (const [field, messages] of Object.entries(fieldErrors(serverError))) {
      if (field in clientForm.shape) form.setError(field as Path<ClientFormInput>, { message: messages[0] });
    }
  }, [serverError, form]);

  return (
    <form method="post" onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-5" data-testid="client-form">
      {aside}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField label="First name" autoComplete="off" error={errors.firstName?.message} {...form.register('firstName')} />
        <TextField label="Last name" autoComplete="off" error={errors.lastName?.message} {...form.register('lastName')} />
        <TextField label="Email" type="email" autoComplete="off" error={errors.email?.message} {...form.register('email')} />
        <TextField
          label="Phone"
          type="tel"
          inputMode="tel"
          hint="10 to 13 digits"
          error={errors.phone?.message}
          {...form.register('phone')}
        />
        <TextField
          label="Height (m)"
          inputMode="decimal"
          placeholder="e.g. 1.62"
          error={errors.heightM?.message}
          {...form.register('heightM')}
        />
        <TextField
          label="Weight (kg)"
          inputMode="decimal"
          placeholder="e.g. 68"
          error={errors.weightKg?.message}
          {...form.register('weightKg')}
        />
      </div>
      <TextAreaField
        label="Condition notes"
        rows={4}
        hint="Medical conditions, allergies, food preferences: only the dietitians see this."
        error={errors.conditionNotes?.message}
        {...form.register('conditionNotes')}
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
