import { ArrowRight, CalendarCheck, MessageCircle, PhoneCall } from 'lucide-react';
import { lazyWithData } from '../../../lib/lazy-with-data';
import { type ReactNode, Suspense, useState } from 'react';
import { Link } from 'wouter';
import { EXTERNAL } from '../../../site-config';
import { SectionHeading } from '../components/SectionHeading';
import { CONNECT_CARDS, type ConnectCard } from '../content';
import { revealClasses, useReveal } from '../lib/use-reveal';

// Loaded on first use: the home page does not need dialog code until a card asks for it.
const ContactUsModal = lazyWithData(() => import('../contact/ContactUsModal'));

const ICONS: Record<ConnectCard['icon'], typeof MessageCircle> = { chat: MessageCircle, phone: PhoneCall, calendar: CalendarCheck };

const cardClasses =
  'group flex h-full w-full flex-col items-start rounded-2xl bg-white p-7 text-left shadow-sm ring-1 ring-slate-200 transition hover:-translate-y-1 hover:shadow-lg hover:ring-brand-300 motion-reduce:hover:translate-y-0';

function CardBody({ card, action }: { card: ConnectCard; action: ReactNode }) {
  const Icon = ICONS[card.icon];
  return (
    <>
      <span className="flex h-14 w-14 items-center justify-center rounded-2xl bg-brand-100 text-brand-800 group-hover:bg-brand-700 group-hover:text-white">
        <Icon className="h-7 w-7" aria-hidden="true" />
      </span>
      <span className="mt-5 text-xl font-bold text-slate-900">{card.title}</span>
      <span className="mt-2 flex-1 text-slate-600">{card.desc}</span>
      <span className="mt-5 inline-flex items-center gap-1 font-semibold text-brand-800">
        {action}
        <ArrowRight className="h-4 w-4 transition-transform group-hover:translate-x-1" aria-hidden="true" />
      </span>
    </>
  );
}

/**
 * Card id 1 opens its external link in a new tab; a card with a link
 * navigates; a card without one opens the Contact Us modal. Animates in once
 * at 20% visibility.
 */
export function ConnectCards() {
  const { ref, shown } = useReveal<HTMLElement>(0.2);
  // null until first opened, so the modal's chunk is fetched only then.
  const [contactOpen, setContactOpen] = useState<boolean | null>(null);
  return (
    <section ref={ref} aria-labelledby="connect-title" data-testid="connect" data-shown={shown} className="bg-white py-16 md:py-20">
      <div className={`page-container ${revealClasses(shown)}`}>
        <SectionHeading
          id="connect-title"
          eyebrow="Connect with us"
          title="Talk to a real dietitian, your way"
          lead="Ask a quick question, have a proper conversation, or book a free consultation to get started."
        />
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {CONNECT_CARDS.map((card) => (
            <li key={card.id} data-testid={`connect-card-${card.id}`}>
              {card.id === 1 && card.link ? (
                <a href={card.link} {...EXTERNAL} className={cardClasses}>
                  <CardBody
                    card={card}
                    action={
                      <>
                        Start chatting<span className="sr-only"> (opens in a new tab)</span>
                      </>
                    }
                  />
                </a>
              ) : card.link ? (
                <Link href={card.link} className={cardClasses}>
                  <CardBody card={card} action="Book now" />
                </Link>
              ) : (
                <button type="button" className={cardClasses} onClick={() => setContactOpen(true)} aria-haspopup="dialog">
                  <CardBody card={card} action="See how to reach us" />
                </button>
              )}
            </li>
          ))}
        </ul>
      </div>
      {contactOpen !== null && (
        <Suspense fallback={null}>
          <ContactUsModal open={contactOpen} onOpenChange={setContactOpen} />
        </Suspense>
      )}
    </section>
  );
}
