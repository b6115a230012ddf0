import { ShieldCheck } from 'lucide-react';
import { Link, Redirect } from 'wouter';
import { ROLE } from '../../../server/auth/roles';
import { BRAND } from '../../../server/brand';
import { Button } from '../../components/ui/Button';
import { TextField } from '../../components/ui/Field';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSignedIn } from '../../lib/use-session';
import { PasswordField } from '../auth/PasswordField';
import { useSignInForm } from '../auth/use-sign-in-form';
import { LogoMark } from '../public/layout/Logo';

/**
 * The console's sign-in: role 1 (dietitian), the password encrypted in the
 * browser with the server's current public key, as on the client login.
 */
export function AdminLoginPage() {
  useDocumentTitle('Dietitian sign-in');
  const signedIn = useSignedIn();
  if (signedIn) return <Redirect to="/" replace />;
  return <LoginForm />;
}

function LoginForm() {
  const { register, errors, onSubmit } = useSignInForm(ROLE.admin);

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-700 to-brand-900 px-4 py-10">
      <div className="w-full max-w-md rounded-3xl bg-white p-7 shadow-2xl sm:p-9">
        <div className="flex items-center gap-3">
          <LogoMark className="h-11 w-11 rounded-xl" />
          <div>
            <p className="text-xl font-extrabold tracking-tight text-brand-900">{BRAND.name}</p>
            <p className="flex items-center gap-1 text-sm font-medium text-slate-600">
              <ShieldCheck className="h-4 w-4 text-brand-700" aria-hidden="true" />
              Dietitian console
            </p>
          </div>
        </div>
        <h1 className="mt-7 text-2xl font-bold text-slate-900">Sign in</h1>
        <p className="mt-1 text-sm text-slate-600">For the dietitian team. Clients sign in on the main login page.</p>
        <form method="post" onSubmit={onSubmit} noValidate className="mt-6 flex flex-col gap-5" data-testid="admin-login-form">
          <TextField label="Email" type="email" autoComplete="username" error={errors.email?.message} {...register('email')} />
          <PasswordField label="Password" autoComplete="current-password" error={errors.password?.message} {...register('password')} />
          <Button type="submit" size="lg" className="w-full">
            Sign in
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-slate-600">
          Are you a client?{' '}
          <Link href="~/login" className="font-semibold text-brand-800 underline-offset-4 hover:underline">
            Client login
          </Link>
        </p>
      </div>
    </main>
  );
}
