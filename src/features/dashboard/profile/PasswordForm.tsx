import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import type { z } from 'zod';
import { changePasswordForm } from '../../../../server/users/schema';
import { PasswordField } from '../../../features/auth/PasswordField';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { encryptPassword } from '../../../lib/auth-client';
import { toastError } from '../../../lib/notify';
import { useTRPC, useTRPCClient } from '../../../lib/trpc';
import { applyServerErrors } from '../../../lib/server-errors';

type FormValues = z.output<typeof changePasswordForm>;
const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;
const EMPTY: FormValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * Current password, then the new one twice. The current one is encrypted in
 * the page as on sign-in. Other devices are signed out by the server.
 */
export function PasswordForm() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const change = useMutation(trpc.auth.changePassword.mutationOptions());
  const form = useForm<FormValues>({ resolver: zodResolver(changePasswordForm), defaultValues: EMPTY });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await overlay.run(
        (async () => {
          const key = await client.auth.publicKey.query();
          const currentPassword = await encryptPassword(key, values.currentPassword);
          return change.mutateAsync({ ...values, currentPassword });
        })(),
      );
      form.reset(EMPTY);
      void queryClient.invalidateQueries({ queryKey: trpc.auth.devices.queryKey() });
      toast.success(answer.message);
    } catch (error) {
      if (!applyServerErrors(form, error, FIELDS)) toastError(error);
    }
  });

  return (
    <Card title="Change password">
      <form method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-4 p-4 sm:p-5" aria-label="Change password">
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...form.register('currentPassword')}
        />
        <PasswordField
          label="New password"
          autoComplete="new-password"
          error={errors.newPassword?.message}
          {...form.register('newPassword')}
        />
        <PasswordField
          label="Repeat the new password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...form.register('confirmPassword')}
        />
        <p className="text-sm text-slate-600">Your other devices will be signed out, and we will email you to confirm the change.</p>
        <div>
          <Button type="submit">Change password</Button>
        </div>
      </form>
    </Card>
  );
}
