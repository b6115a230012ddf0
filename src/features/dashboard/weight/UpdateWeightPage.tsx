import { zodResolver } from '@hookform/resolvers/zod';
import { History } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { Link } from 'wouter';
import type { z } from 'zod';
import { addWeightForm } from '../../../../server/weight/schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextField } from '../../../components/ui/Field';
import { Page } from '../../../components/ui/Page';
import { formatDay, localToday } from '../../../lib/format';
import { toastError } from '../../../lib/notify';
import { sendOrQueue, useQueued } from '../../../lib/offline-queue';
import { useSessionInfo } from '../../../lib/use-session';
import { type WeightPayload, weightKey } from '../offline/queued';
import { WaitingList } from '../offline/WaitingList';

/** The server's rules, plus "not after today" in the user's own time zone (the date input's max). */
const updateWeightForm = addWeightForm.refine((v) => v.date <= localToday(), {
  path: ['date'],
  message: 'The date cannot be in the future',
});
type FormInput = z.input<typeof updateWeightForm>;
type FormValues = z.output<typeof updateWeightForm>;

export const WEIGHT_UPDATED = 'Weight updated successfully!';
export const WEIGHT_QUEUED = 'You are offline: your weight is saved on this device and will be sent when you are back online.';

export function UpdateWeightPage() {
  const overlay = useLoadingOverlay();
  const userId = useSessionInfo()?.id ?? null;
  const waiting = useQueued<WeightPayload>(userId, 'weight');
  const form = useForm<FormInput, unknown, FormValues>({
    resolver: zodResolver(updateWeightForm),
    defaultValues: { weight: '', date: localToday() },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    if (userId === null) return;
    try {
      // Without a connection it waits on this device (one per day, like the server's entries) and goes when back online.
      const outcome = await overlay.run(sendOrQueue(userId, 'weight', weightKey(values), values));
      if (outcome === 'sent') toast.success(WEIGHT_UPDATED);
      else toast.info(WEIGHT_QUEUED);
      form.reset({ weight: '', date: localToday() });
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <Page title="Update Weight" lead="Log your weight once a week, on the same day and at the same time." width="max-w-xl">
      <Card className="p-5 sm:p-8">
        <form method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
          <TextField
            label="Enter Weight (kg)"
            type="number"
            inputMode="decimal"
            step="0.1"
            min="1"
            max="500"
            placeholder="e.g., 70"
            error={errors.weight?.message}
            {...form.register('weight')}
          />
          <TextField label="Select Date" type="date" max={localToday()} error={errors.date?.message} {...form.register('date')} />
          <Button type="submit" size="lg">
            Update
          </Button>
        </form>
      </Card>
      {userId !== null && (
        <WaitingList userId={userId} items={waiting} label="Waiting to send" describe={(p) => `${p.weight} kg on ${formatDay(p.date)}`} />
      )}
      <div className="mt-5 flex justify-center">
        <Link
          href="/weight-history"
          className="inline-flex items-center gap-2 rounded-md font-semibold text-brand-800 underline-offset-4 hover:underline"
        >
          <History className="h-5 w-5" aria-hidden="true" />
          See Weight History
        </Link>
      </div>
    </Page>
  );
}
