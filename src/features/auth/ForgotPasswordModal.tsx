import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../lib/toast';
import type { z } from 'zod';
import { forgotPasswordInput } from '../../../server/auth/schema';
import { useLoadingOverlay } from '../../components/LoadingOverlay';
import { Button } from '../../components/ui/Button';
import { controlClasses } from '../../components/ui/Field';
import { Modal } from '../../components/ui/Modal';
import { errorMessage } from '../../lib/errors';
import { useTRPC } from '../../lib/trpc';

type FormInput = z.input<typeof forgotPasswordInput>;
type FormValues = z.output<typeof forgotPasswordInput>;

/**
 * One email field and Submit; an empty email shows only a red
 * border (screen readers still hear why). Closing by the close control or an
 * outside click resets the form.
 */
export function ForgotPasswordModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const overlay = useLoadingOverlay();
  const forgot = useMutation(trpc.auth.forgotPassword.mutationOptions());
  const form = useForm<FormInput, unknown, FormValues>({ resolver: zodResolver(forgotPasswordInput), defaultValues: { email: '' } });
  const emailId = useId();
  const error = form.formState.errors.email?.message;

  const setOpen = (next: boolean) => {
    if (!next) form.reset();
    onOpenChange(next);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await overlay.run(forgot.mutateAsync(values));
      toast.success(answer.message);
      setOpen(false);
    } catch (err) {
      toast.error(errorMessage(err));
    }
  });

  return (
    <Modal
      open={open}
      onOpenChange={setOpen}
      title="Forgot password"
      description="Enter the email you signed up with and we will send you a link to set a new password."
    >
      <form method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="forgot-password-form">
        <div className="flex flex-col gap-1">
          <label htmlFor={emailId} className="text-sm font-medium text-slate-800">
            Email
          </label>
          <input
            id={emailId}
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${emailId}-error` : undefined}
            className={controlClasses(Boolean(error))}
            {...form.register('email')}
          />
          {error && (
            <span id={`${emailId}-error`} className="sr-only">
              {error}
            </span>
          )}
        </div>
        <Button type="submit" className="self-end">
          Submit
        </Button>
      </form>
    </Modal>
  );
}
