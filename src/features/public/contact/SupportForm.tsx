import { useMutation } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { type Resolver, useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { TextAreaField, TextField } from '../../../components/ui/Field';
import { errorMessage, fieldErrors } from '../../../lib/errors';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { useTRPC } from '../../../lib/trpc';
import { useSignedIn } from '../../../lib/use-session';

type SupportFields = { name?: string; email?: string; message: string };
const EMPTY: SupportFields = { name: '', email: '', message: '' };

// The rules (zod and the shared schema) load on the form's first focus, or at the latest on submit.
const rules = () => Promise.all([import('@hookform/resolvers/zod'), import('../../../../server/support/schema')]);
const signedOutResolver = lazyResolver<SupportFields, SupportFields>(async () => {
  const [{ zodResolver }, schema] = await rules();
  return zodResolver(schema.supportFormSignedOut) as Resolver<SupportFields>;
});
const signedInResolver = lazyResolver<SupportFields, SupportFields>(async () => {
  const [{ zodResolver }, schema] = await rules();
  return zodResolver(schema.supportFormSignedIn) as Resolver<SupportFields>;
});

/**
 * Name, email and message from a visitor; only the message
 * when signed in (the account supplies the rest). Success shows the server's
 * message and clears the form; failure shows the server's message.
 */
export function SupportForm() {
  const signedIn = useSignedIn();
  const trpc = useTRPC();
  const overlay = useLoadingOverlay();
  const create = useMutation(trpc.support.create.mutationOptions());
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<SupportFields>({ resolver: signedIn ? signedInResolver : signedOutResolver, defaultValues: EMPTY });
  const prepare = signedIn ? signedInResolver.preload : signedOutResolver.preload;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await overlay.run(create.mutateAsync(signedIn ? { message: values.message } : values));
      toast.success(result.message);
      reset(EMPTY);
    } catch (err) {
      for (const [field, messages] of Object.entries(fieldErrors(err))) {
        if (field === 'name' || field === 'email' || field === 'message') setError(field, { message: messages[0] });
      }
      toast.error(errorMessage(err));
    }
  });

  return (
    <form method="post" onSubmit={onSubmit} onFocus={prepare} noValidate className="flex flex-col gap-5" aria-label="Contact Us form">
      {!signedIn && (
        <div className="grid gap-5 xs:grid-cols-2">
          <TextField label="Name" autoComplete="name" error={errors.name?.message} {...register('name')} />
          <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
        </div>
      )}
      <TextAreaField label="Message" rows={6} placeholder="How can we help?" error={errors.message?.message} {...register('message')} />
      <Button type="submit" size="lg" className="self-start">
        <Send className="h-5 w-5" aria-hidden="true" />
        Send Message
      </Button>
    </form>
  );
}
