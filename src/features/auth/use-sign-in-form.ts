import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { Role } from '../../../server/auth/roles';
import type { signInForm } from '../../../server/auth/schema';
import { useLoadingOverlay } from '../../components/LoadingOverlay';
import { signInWithPassword } from '../../lib/auth-client';
import { errorMessage } from '../../lib/errors';
import { lazyResolver } from '../../lib/lazy-resolver';
import { toast } from '../../lib/toast';

type FormInput = z.input<typeof signInForm>;
type FormValues = z.output<typeof signInForm>;

const signInResolver = lazyResolver<FormInput, FormValues>(async () => {
  const [{ zodResolver }, { signInForm }] = await Promise.all([import('@hookform/resolvers/zod'), import('../../../server/auth/schema')]);
  return zodResolver(signInForm);
});

/**
 * The sign-in form of both login pages (clients at /login, dietitians at
 * /admin/login): the same fields, checks and overlay; only the role differs.
 * The password is encrypted in the browser with the server's current public key
 * (signInWithPassword); the answer's message is shown as a toast. The form's rules (zod) load when the
 * person first focuses the form (`prepare`), or at the latest when they submit it.
 */
export function useSignInForm(role: Role) {
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const form = useForm<FormInput, unknown, FormValues>({ resolver: signInResolver, defaultValues: { email: '', password: '' } });
  const onSubmit = form.handleSubmit(async (credentials) => {
    try {
      const answer = await overlay.run(signInWithPassword(queryClient, { ...credentials, role }));
      toast.success(answer.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  });
  return { register: form.register, errors: form.formState.errors, onSubmit, prepare: signInResolver.preload };
}
