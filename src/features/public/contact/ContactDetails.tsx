import { Clock, Mail, MessageCircle, Phone } from 'lucide-react';
import { SITE } from '../../../site-config';
import { CONTACT_CARDS, type ContactCard } from '../content';

const ICONS: Record<ContactCard['icon'], typeof Phone> = { phone: Phone, mail: Mail, chat: MessageCircle, clock: Clock };

/** The ways to reach the team (contact card id, title, data1, data2, icon). */
export function ContactDetails({ compact = false }: { compact?: boolean }) {
  return (
    <ul className={`grid gap-3 ${compact ? '' : 'sm:grid-cols-2 mdx:grid-cols-1'}`}>
      {CONTACT_CARDS.map((card) => {
        const Icon = ICONS[card.icon];
        const external = card.href?.startsWith('http');
        return (
          <li key={card.id} className="flex items-start gap-4 rounded-xl bg-white p-4 ring-1 ring-slate-200">
            <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-800">
              <Icon className="h-5 w-5" aria-hidden="true" />
            </span>
            <div className="min-w-0">
              <p className="font-bold text-slate-900">{card.title}</p>
              {card.icon === 'clock' ? (
                // Every day's hours in the same type, so Sunday reads as clearly as the weekdays.
                <dl className="mt-0.5 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 font-medium text-slate-800" data-testid="support-hours">
                  {SITE.hours.map((h) => (
                    <div key={h.days} className="contents">
                      <dt>{h.days}</dt>
                      <dd className="tabular-nums">{h.time}</dd>
                    </div>
                  ))}
                </dl>
              ) : card.href ? (
                <a
                  href={card.href}
                  className="font-medium break-words text-brand-800 underline-offset-4 hover:underline"
                  {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                >
                  {card.data1}
                  {external && <span className="sr-only"> (opens in a new tab)</span>}
                </a>
              ) : (
                <p className="font-medium text-slate-800">{card.data1}</p>
              )}
              {card.icon !== 'clock' && <p className="text-sm text-slate-600">{card.data2}</p>}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
