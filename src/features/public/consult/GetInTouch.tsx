import { CalendarCheck, Clock, PhoneCall } from 'lucide-react';
import { Button } from '../../../components/ui/Button';
import { SITE } from '../../../site-config';

/** Get in Touch (anchor `contact`): headline, callback line, working hours and 'Book now'. */
/** `onBookIntent`: the visitor is about to press Book now (pointer over it, or focus): a moment to start loading the form. */
export function GetInTouch({ onBook, onBookIntent }: { onBook: () => void; onBookIntent?: () => void }) {
  return (
    <section
      id="contact"
      aria-labelledby="get-in-touch-title"
      className="relative isolate scroll-mt-20 overflow-hidden bg-slate-900 text-white"
    >
      <div className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top_right,rgba(20,184,166,0.35),transparent_60%)]" />
      <div className="page-container grid items-center gap-10 py-16 md:py-24 mdx:grid-cols-[3fr_2fr]">
        <div>
          <p className="text-sm font-bold tracking-widest text-brand-300 uppercase">Get in touch</p>
          <h1 id="get-in-touch-title" className="mt-2 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
            Book your consultation now!
          </h1>
          <p className="mt-5 flex items-start gap-3 text-lg text-slate-200">
            <PhoneCall className="mt-1 h-5 w-5 shrink-0 text-brand-300" aria-hidden="true" />
            Request a callback and one of our dietitians will call you to understand your goals — free, with no obligation.
          </p>
          <Button size="lg" className="mt-8" onClick={onBook} onPointerEnter={onBookIntent} onFocus={onBookIntent} aria-haspopup="dialog">
            <CalendarCheck className="h-5 w-5" aria-hidden="true" />
            Book now
          </Button>
        </div>
        <div className="rounded-3xl bg-white/5 p-7 ring-1 ring-white/15 backdrop-blur">
          <h2 className="flex items-center gap-3 text-xl font-bold">
            <Clock className="h-6 w-6 text-brand-300" aria-hidden="true" />
            Working hours
          </h2>
          <dl className="mt-5 divide-y divide-white/10">
            {SITE.hours.map((h) => (
              <div key={h.days} className="flex items-center justify-between gap-4 py-3">
                <dt className="font-semibold text-slate-200">{h.days}</dt>
                <dd className="font-bold text-white tabular-nums">{h.time}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-4 text-sm text-slate-300">
            Prefer to call?{' '}
            <a href={SITE.phoneHref} className="font-semibold text-brand-200 underline underline-offset-4">
              {SITE.phoneDisplay}
            </a>
          </p>
        </div>
      </div>
    </section>
  );
}
