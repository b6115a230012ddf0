import { CalendarCheck, FileText, HeartPulse } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Redirect } from 'wouter';
import { ROLE } from '../../../server/auth/roles';
import { Button } from '../../components/ui/Button';
import { TextField } from '../../components/ui/Field';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSignedIn } from '../../lib/use-session';
import { prefetchDashboard } from '../dashboard/prefetch';
import { LogoMark } from '../public/layout/Logo';
import { PasswordField } from './PasswordField';
import { useSignInForm } from './use-sign-in-form';

// Loaded when asked for (a dialog library and its own form): the login page hydrates without them.
const loadForgotPassword = () => import('./ForgotPasswordModal');
const ForgotPasswordModal = lazy(() => loadForgotPassword().then((m) => ({ default: m.ForgotPasswordModal })));

export const DASHBOARD_HOME = '~/dashboard/feeds';

/** /login. Already signed in → straight to the dashboard's feeds. */
export default function LoginPage() {
  useDocumentTitle('Login', 'Sign in to your Poshan dashboard: your diet plans, weekly weight, BMI and updates from your dietitian.');
  const signedIn = useSignedIn();
  if (signedIn) return <Redirect to={DASHBOARD_HOME} replace />;
  return <LoginScreen />;
}

const PERKS = [
  { Icon: FileText, text: 'Your diet plans as PDFs, whenever you need them' },
  { Icon: CalendarCheck, text: 'Weekly weight tracking with your history at a glance' },
  { Icon: HeartPulse, text: 'Tips and updates from your dietitian, live' },
];

function LoginScreen() {
  const [forgotOpen, setForgotOpen] = useState(false);
  // Mounted from the first opening on, so that closing it animates like any dialog.
  const [forgotAsked, setForgotAsked] = useState(false);
  const { register, errors, onSubmit, prepare } = useSignInForm(ROLE.client);

  return (
    <section className="bg-slate-50 px-4 py-10 sm:py-16">
      <div className="mx-auto grid max-w-4xl overflow-hidden rounded-3xl bg-white shadow-xl ring-1 ring-slate-200 md:grid-cols-2">
        <div
          className="flex flex-col justify-between gap-8 bg-gradient-to-br from-brand-700 to-brand-900 p-7 text-white sm:p-10"
          data-testid="login-marketing"
        >
          <div className="flex items-center gap-3">
            <LogoMark className="h-12 w-12 rounded-xl ring-2 ring-white/40" />
            <span className="text-2xl font-extrabold tracking-tight">Poshan</span>
          </div>
          <div>
            <p className="text-2xl leading-snug font-bold sm:text-3xl">We provide personalised diet plans for a healthier lifestyle.</p>
            <ul className="mt-6 hidden flex-col gap-3 text-brand-50 sm:flex">
              {PERKS.map(({ Icon, text }) => (
                <li key={text} className="flex items-start gap-3">
                  <Icon className="mt-0.5 h-5 w-5 shrink-0 text-brand-200" aria-hidden="true" />
                  <span>{text}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>

        <div className="p-7 sm:p-10">
          <h1 className="text-3xl font-bold text-slate-900">Login</h1>
          <p className="mt-1 text-slate-600">Welcome back! Sign in to your dashboard.</p>
          <form
            method="post"
            onSubmit={onSubmit}
            onFocus={() => {
              prepare();
              prefetchDashboard();
            }}
            noValidate
            className="mt-7 flex flex-col gap-5"
            data-testid="login-form"
          >
            <TextField
              label="Email"
              type="email"
              autoComplete="username"
              placeholder="you@example.com"
              error={errors.email?.message}
              {...register('email')}
            />
            <div className="flex flex-col gap-1.5">
              <PasswordField
                label="Password"
                autoComplete="current-password"
                placeholder="Your password"
                error={errors.password?.message}
                {...register('password')}
              />
              <button
                type="button"
                onPointerEnter={() => void loadForgotPassword()}
                onFocus={() => void loadForgotPassword()}
                onClick={() => {
                  setForgotAsked(true);
                  setForgotOpen(true);
                }}
                className="self-end rounded text-sm font-semibold text-brand-800 underline-offset-4 hover:underline"
              >
                Forgot password?
              </button>
            </div>
            <Button type="submit" size="lg" className="w-full">
              Login
            </Button>
          </form>
        </div>
      </div>
      {forgotAsked && (
        <Suspense fallback={null}>
          <ForgotPasswordModal open={forgotOpen} onOpenChange={setForgotOpen} />
        </Suspense>
      )}
    </section>
  );
}
