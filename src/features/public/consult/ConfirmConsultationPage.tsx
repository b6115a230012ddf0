import { useMutation } from '@tanstack/react-query';
import { CalendarCheck, LinkIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearch } from 'wouter';
import { Button, buttonClasses } from '../../../components/ui/Button';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { errorMessage } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';
import { useDocumentTitle } from '../../../lib/use-document-title';

/**
 * /confirm-consultation?hold=…&exp=…&sig=… (the link in a visitor's booking mail). Opening the page
 * changes nothing (a mail scanner may open links); the button confirms the held time.
 */
export default function ConfirmConsultationPage() {
  useDocumentTitle('Confirm your consultation time');
  const params = new URLSearchParams(useSearch());
  const link = { hold: params.get('hold') ?? '', exp: params.get('exp') ?? '', sig: params.get('sig') ?? '' };
  const complete = Boolean(link.hold && link.exp && link.sig);
  return (
    <section className="bg-slate-50 px-4 py-10 sm:py-16">
      <div className="mx-auto max-w-md rounded-3xl bg-white p-7 shadow-xl ring-1 ring-slate-200 sm:p-10">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          {complete ? <CalendarCheck className="h-6 w-6" aria-hidden="true" /> : <LinkIcon className="h-6 w-6" aria-hidden="true" />}
        </span>
        <h1 className="mt-4 text-2xl font-bold text-slate-900">Confirm your consultation time</h1>
        {complete ? (
          <ConfirmButton link={link} />
        ) : (
          <p className="mt-3 text-slate-700" role="alert">
            This link is incomplete. Open the link from the email again, or wait for our call.
          </p>
        )}
      </div>
    </section>
  );
}

function ConfirmButton({ link }: { link: { hold: string; exp: string; sig: string } }) {
  const trpc = useTRPC();
  const overlay = useLoadingOverlay();
  const confirm = useMutation(trpc.consultation.confirmHold.mutationOptions());
  const [answer, setAnswer] = useState<{ ok: boolean; message: string } | null>(null);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      const done = await overlay.run(confirm.mutateAsync(link));
      setAnswer({ ok: true, message: done.message });
    } catch (error) {
      setAnswer({ ok: false, message: errorMessage(error) });
    }
  };

  if (answer) {
    return (
      <div className="mt-3 flex flex-col gap-5">
        <p className={answer.ok ? 'text-slate-700' : 'text-red-800'} role={answer.ok ? 'status' : 'alert'}>
          {answer.message}
        </p>
        <Link href="~/" className={buttonClasses('secondary', 'md', 'self-start')}>
          Back to the home page
        </Link>
      </div>
    );
  }
  return (
    <form method="post" onSubmit={onSubmit} className="mt-3 flex flex-col gap-5">
      <p className="text-slate-700">
        We are holding the time you picked for your free video consultation. Confirm it to book it; unconfirmed, it is released and we call
        you instead.
      </p>
      <Button type="submit" size="lg">
        Confirm my time
      </Button>
    </form>
  );
}
