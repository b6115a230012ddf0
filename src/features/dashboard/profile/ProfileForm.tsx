import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import type { z } from 'zod';
import { formatPhone } from '../../../../server/format';
import { type profileOutput, updateProfileInput } from '../../../../server/users/schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextField } from '../../../components/ui/Field';
import { toastError } from '../../../lib/notify';
import { session } from '../../../lib/session';
import { useTRPC } from '../../../lib/trpc';
import { applyServerErrors } from '../../../lib/server-errors';

type Profile = z.output<typeof profileOutput>;
type FormInput = { firstName: string; lastName: string; phone: string; heightM: string; weightKg: string };
const FIELDS = ['firstName', 'lastName', 'phone', 'heightM', 'weightKg'] as const;

const toForm = (p: Profile): FormInput => ({
  firstName: p.firstName,
  lastName: p.lastName,
  phone: p.phone ? formatPhone(p.phone) : '',
  heightM: p.heightM === null ? '' : String(p.heightM),
  weightKg: p.weightKg === null ? '' : String(p.weightKg),
});

/** Name, phone, height and weight; Check BMI and the top bar read the saved values. */
export function ProfileForm({ profile }: { profile: Profile }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const save = useMutation(trpc.profile.update.mutationOptions());
  const form = useForm<FormInput, unknown, z.output<typeof updateProfileInput>>({
    resolver: zodResolver(updateProfileInput) as never,
    defaultValues: toForm(profile),
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await overlay.run(save.mutateAsync(values));
      const p = answer.data;
      session.updateInfo({ fullName: p.fullName, height: p.heightM, weight: p.weightKg });
      queryClient.setQueryData(trpc.profile.get.queryKey(), p);
      void queryClient.invalidateQueries({ queryKey: trpc.auth.checkAuthorization.queryKey() });
      form.reset(toForm(p));
      toast.success(answer.message);
    } catch (error) {
      if (!applyServerErrors(form, error, FIELDS)) toastError(error);
    }
  });

  return (
    <Card title="Your details">
      <form method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-4 p-4 sm:p-5" aria-label="Your details">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="First name" autoComplete="given-name" error={errors.firstName?.message} {...form.register('firstName')} />
          <TextField label="Last name" autoComplete="family-name" error={errors.lastName?.message} {...form.register('lastName')} />
        </div>
        <TextField label="Email" value={profile.email} readOnly disabled hint="Write to us to change the email you sign in with." />
        <TextField
          label="Phone"
          type="tel"
          autoComplete="tel"
          placeholder="+91 98765 43210"
          error={errors.phone?.message}
          {...form.register('phone')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Height (m)"
            type="number"
            inputMode="decimal"
            step="0.01"
            placeholder="e.g., 1.65"
            error={errors.heightM?.message}
            {...form.register('heightM')}
          />
          <TextField
            label="Weight (kg)"
            type="number"
            inputMode="decimal"
            step="0.1"
            placeholder="e.g., 70"
            error={errors.weightKg?.message}
            hint="Check BMI starts from these."
            {...form.register('weightKg')}
          />
        </div>
        <div>
          <Button type="submit">Save details</Button>
        </div>
      </form>
    </Card>
  );
}
