import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { KeyRound, LinkIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { toast } from '../../lib/toast';
import { Link, useLocation, useSearch } from 'wouter';
import { z } from 'zod';
import { PASSWORD_MIN, resetPasswordForm } from '../../../server/auth/schema';
import { useLoadingOverlay } from '../../components/LoadingOverlay';
import { Button, buttonClasses } from '../../components/ui/Button';
import { errorMessage } from '../../lib/errors';
import { useTRPC } from '../../lib/trpc';
import { useDocumentTitle } from '../../lib/use-document-title';
import { PasswordField } from './PasswordField';

/** The server's password rule, plus typing it twice. */
const newPasswordForm = resetPasswordForm
  .extend({ confirm: z.string().min(1, 'Please type the new password again') })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'The two passwords do not match' });
type FormInput = z.input<typeof newPasswordForm>;
type FormValues = z.output<typeof newPasswordForm>;

/** /reset-password?token=… (the link in the forgot-password email). */
export default function ResetPasswordPage() {
  useDocumentTitle('Set a new password');
  const token = new URLSearchParams(useSearch()).get('token')?.trim() ?? '';
  return (
    <section className="bg-slate-50 px-4 py-10 sm:py-16">
      <div className="mx-auto max-w-md rounded-3xl bg-white p-7 shadow-xl ring-1 ring-slate-200 sm:p-10">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          {token ? <KeyRound className="h-6 w-6" aria-hidden="true" /> : <LinkIcon className="h-6 w-6" aria-hidden="true" />}
        </span>
        <h1 className="mt-4 text-2xl font-bold text-slate-900">Set a new password</h1>
        {token ? <ResetForm token={token} /> : <MissingToken />}
      </div>
    </section>
  );
}

function MissingToken() {
  return (
    <div className="mt-3 flex flex-col gap-5">
      <p className="text-slate-700" role="alert">
        This link is missing its reset code. Open the link from the email again, or ask for a new one from the login page.
      </p>
      <Link href="~/login" className={buttonClasses('primary', 'md', 'self-start')}>
        Go to Login
      </Link>
    </div>
  );
}

function ResetForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const overlay = useLoadingOverlay();
  const [, navigate] = useLocation();
  const reset = useMutation(trpc.auth.resetPassword.mutationOptions());
  const form = useForm<FormInput, unknown, FormValues>({
    resolver: zodResolver(newPasswordForm),
    defaultValues: { password: '', confirm: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async ({ password }) => {
    try {
      const answer = await overlay.run(reset.mutateAsync({ token, password }));
      toast.success(answer.message);
      navigate('~/login');
    } catch (error) {
      toast.error(errorMessage(error));
    }
  });

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="mt-6 flex flex-col gap-5">
      <PasswordField
        label="New password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN} characters, and not a common password`}
        error={errors.password?.message}
        {...form.register('password')}
      />
      <PasswordField
        label="Confirm new password"
        autoComplete="new-password"
        error={errors.confirm?.message}
        {...form.register('confirm')}
      />
      <Button type="submit" size="lg">
        Save new password
      </Button>
    </form>
  );
}
