import { ClipboardList, PhoneCall, Salad } from 'lucide-react';
import { Suspense, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { FORM_HOOKS, lazyWithData } from '../../../lib/lazy-with-data';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { SectionHeading } from '../components/SectionHeading';
import { GetInTouch } from './GetInTouch';

// The booking form (its rules, the slot picker, the data layer, a dialog) loads when the visitor
// points at Book now or opens it: the page itself hydrates without any of it.
const loadModal = () => import('./ConsultationModal');
type ModalProps = Parameters<typeof import('./ConsultationModal').ConsultationModal>[0];
const ConsultationModal = lazyWithData<ModalProps>(() => loadModal().then((m) => ({ default: m.ConsultationModal })), {
  before: FORM_HOOKS,
});

const STEPS = [
  {
    Icon: ClipboardList,
    title: 'Tell us about you',
    desc: 'Fill in the short form: your goals, basic measurements and any medical condition.',
  },
  { Icon: PhoneCall, title: 'Talk to a dietitian', desc: 'We call you within one working day for a free, no-obligation consultation.' },
  { Icon: Salad, title: 'Get your plan', desc: 'Choose a plan that suits you and receive a diet built around your food and routine.' },
];

/**
 * The consultation page. `?book=` with any value opens the booking
 * modal; 'Book now' adds it and closing removes it, so the address always
 * says whether the modal is open.
 */
export default function ConsultPage() {
  useDocumentTitle(
    'Book a free consultation',
    'Book a free consultation with a certified dietitian. Request a callback: Mon-Sat 09:00AM-8:00PM, Sun 10:00AM-4:00PM.',
  );
  const [params, setParams] = useSearchParams();
  const open = params.has('book');
  // Mounted from the first opening on, so that closing it animates like any dialog.
  const [asked, setAsked] = useState(open);
  if (open && !asked) setAsked(true);
  const setOpen = (next: boolean) =>
    setParams(
      (prev) => {
        const updated = new URLSearchParams(prev);
        if (next) updated.set('book', 'true');
        else updated.delete('book');
        return updated;
      },
      { replace: !next },
    );

  return (
    <>
      <GetInTouch onBook={() => setOpen(true)} onBookIntent={() => void loadModal()} />
      <section aria-labelledby="steps-title" className="bg-white py-16 md:py-20">
        <div className="page-container">
          <SectionHeading id="steps-title" eyebrow="How it works" title="From first call to first meal in three steps" />
          <ol className="mt-10 grid gap-6 md:grid-cols-3">
            {STEPS.map(({ Icon, title, desc }, i) => (
              <li key={title} className="relative rounded-2xl bg-slate-50 p-7 ring-1 ring-slate-200">
                <span className="absolute top-6 right-6 text-5xl font-extrabold text-brand-100" aria-hidden="true">
                  {i + 1}
                </span>
                <Icon className="h-8 w-8 text-brand-700" aria-hidden="true" />
                <h3 className="mt-4 text-xl font-bold text-slate-900">
                  <span className="sr-only">Step {i + 1}: </span>
                  {title}
                </h3>
                <p className="mt-2 text-slate-600">{desc}</p>
              </li>
            ))}
          </ol>
          <p className="mt-10 text-center text-slate-700">
            Questions first? Read our{' '}
            <Link href="/faq" className="font-semibold text-brand-800 underline underline-offset-4">
              frequently asked questions
            </Link>{' '}
            or{' '}
            <Link href="/pricing-plans" className="font-semibold text-brand-800 underline underline-offset-4">
              see our plans
            </Link>
            .
          </p>
        </div>
      </section>
      {asked && (
        <Suspense fallback={null}>
          <ConsultationModal open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
