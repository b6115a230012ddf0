import { MessageCircle } from 'lucide-react';
import { CHAT_MESSAGES, chatLink, SITE } from '../../../site-config';
import { ExternalLink } from '../components/ExternalLink';
import { revealClasses, useReveal } from '../lib/use-reveal';

/** The trial starts in a chat with prefilled text; the banner animates in at 30% visibility. */
export function FreeTrialBanner() {
  const { ref, shown } = useReveal<HTMLElement>(0.3);
  return (
    <section ref={ref} aria-labelledby="free-trial-title" data-testid="free-trial" data-shown={shown} className="bg-white py-12">
      <div className="page-container">
        <div
          className={`flex flex-col items-start gap-6 rounded-3xl bg-gradient-to-br from-brand-700 to-brand-900 p-8 text-white shadow-xl md:flex-row md:items-center md:justify-between md:p-12 ${revealClasses(shown)}`}
        >
          <div>
            <p className="text-sm font-bold tracking-widest text-brand-200 uppercase">Free trial</p>
            <h2 id="free-trial-title" className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">
              Try {SITE.brandName} free for {SITE.freeTrialDays} days
            </h2>
            <p className="mt-3 max-w-xl text-lg text-brand-50">
              No payment upfront. Chat with a dietitian, get your first meals planned, and decide afterwards.
            </p>
          </div>
          <ExternalLink
            href={chatLink(CHAT_MESSAGES.freeTrial)}
            className="inline-flex shrink-0 items-center gap-2 rounded-xl bg-white px-6 py-3 text-lg font-bold text-brand-900 shadow hover:bg-brand-50"
          >
            <MessageCircle className="h-5 w-5" aria-hidden="true" />
            Start my free trial
          </ExternalLink>
        </div>
      </div>
    </section>
  );
}
