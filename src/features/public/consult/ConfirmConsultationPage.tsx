import { useMutation } from '@tanstack/react-query';
import { CalendarCheck, CalendarPlus, LinkIcon, Video } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearch } from 'wouter';
import { consultationWhen, visitorWords } from '../../../../server/consultation/schema';
import type { RouterOutputs } from '../../../lib/router-types';
import { Button, buttonClasses } from '../../../components/ui/Button';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { errorMessage } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { viewerTimeZone } from '../../appointments/slots';
import { VisitorNextSteps } from './VisitorNextSteps';

type Booked = NonNullable<RouterOutputs['consultation']['confirmHold']['appointment']>;

/**
 * /confirm-consultation?hold=…&exp=…&sig=… (the link in a visitor's booking mail). Opening the page
 * changes nothing (a mail scanner may open links); the button confirms the held time.
 */
export default function ConfirmConsultationPage() {
  const params = new URLSearchParams(useSearch());
  const link = { hold: params.get('hold') ?? '', exp: params.get('exp') ?? '', sig: params.get('sig') ?? '' };
  const complete = Boolean(link.hold && link.exp && link.sig);
  const [booked, setBooked] = useState<Booked | null>(null);
  useDocumentTitle(booked ? 'Your consultation is booked' : 'Confirm your consultation time');
  if (booked) return <BookedScreen booked={booked} />;
  return (
    <section className="bg-slate-50 px-4 py-10 sm:py-16">
      <div className="mx-auto max-w-md rounded-3xl bg-white p-7 shadow-xl ring-1 ring-slate-200 sm:p-10">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          {complete ? <CalendarCheck className="h-6 w-6" aria-hidden="true" /> : <LinkIcon className="h-6 w-6" aria-hidden="true" />}
        </span>
        <h1 className="mt-4 text-2xl font-bold text-slate-900">Confirm your consultation time</h1>
        {complete ? (
          <ConfirmButton link={link} onBooked={setBooked} />
        ) : (
          <p className="mt-3 text-slate-700" role="alert">
            This link is incomplete. Open the link from the email again, or wait for our call.
          </p>
        )}
      </div>
    </section>
  );
}

function ConfirmButton({ link, onBooked }: { link: { hold: string; exp: string; sig: string }; onBooked: (booked: Booked) => void }) {
  const trpc = useTRPC();
  const overlay = useLoadingOverlay();
  const confirm = useMutation(trpc.consultation.confirmHold.mutationOptions());
  const [answer, setAnswer] = useState<{ ok: boolean; message: string } | null>(null);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      const done = await overlay.run(confirm.mutateAsync(link));
      if (done.appointment) onBooked(done.appointment);
      else setAnswer({ ok: true, message: done.message });
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

/**
 * The booked consultation: its time in the visitor's zone (the same words as the booked mail), the
 * calendar invitation to download (the mail's .ics) and the link to join the call.
 */
function BookedScreen({ booked }: { booked: Booked }) {
  const tz = viewerTimeZone();
  const words = visitorWords({ state: 'booked', start: booked.start, dietitianName: booked.dietitianName, tz });
  const icsHref = `data:text/calendar;charset=utf-8,${encodeURIComponent(booked.ics)}`;
  return (
    <section className="bg-slate-50 px-4 py-10 sm:py-16">
      <div className="mx-auto max-w-lg rounded-3xl bg-white p-7 shadow-xl ring-1 ring-slate-200 sm:p-10" data-testid="consultation-booked">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <CalendarCheck className="h-6 w-6" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-2xl font-bold text-slate-900">{words.title}</h1>
        <div className="mt-3">
          <VisitorNextSteps words={words} when={consultationWhen(booked.start, tz)} />
        </div>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <a href={icsHref} download={`consultation-${booked.id}.ics`} className={buttonClasses('primary', 'md', 'min-h-11')}>
            <CalendarPlus className="h-5 w-5" aria-hidden="true" />
            Add to calendar
          </a>
          <a href={booked.callUrl} className={buttonClasses('secondary', 'md', 'min-h-11')}>
            <Video className="h-5 w-5" aria-hidden="true" />
            Join the video call
          </a>
        </div>
        <p className="mt-3 text-sm text-slate-600">We have emailed you the call link and the invitation too.</p>
      </div>
    </section>
  );
}
