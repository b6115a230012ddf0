import { Bot, FileText, HeartHandshake, RefreshCw, UserCheck, Utensils, X } from 'lucide-react';
import { SITE } from '../../../site-config';
import { SectionHeading } from '../components/SectionHeading';
import { AI_POINTS, type AiPoint } from '../content';

const ICONS: Record<AiPoint['icon'], typeof FileText> = { file: FileText, utensils: Utensils, refresh: RefreshCw, heart: HeartHandshake };

const AI_LIMITS = [
  'Same answer for everyone who asks',
  'Cannot read your blood reports',
  'No follow-up when you slip',
  'No one responsible for the result',
];

/** The claim that human expertise beats algorithms. */
export function AiVersusExpert() {
  return (
    <section aria-labelledby="ai-title" className="bg-slate-900 py-16 text-white md:py-20">
      <div className="page-container">
        <SectionHeading
          id="ai-title"
          tone="dark"
          eyebrow="Free AI advice vs real results"
          title="An algorithm can write a diet. Only an expert can make it work for you."
          lead="Chatbots are quick and free, and they are a fine place to start. Lasting change needs someone who knows your body, your reports and your routine."
        />
        <div className="mt-12 grid gap-6 lg:grid-cols-[1fr_2fr]">
          <div className="rounded-2xl bg-slate-800 p-7 ring-1 ring-slate-700">
            <p className="flex items-center gap-3 text-lg font-bold">
              <Bot className="h-6 w-6 text-slate-300" aria-hidden="true" />
              Free AI advice
            </p>
            <ul className="mt-5 space-y-3">
              {AI_LIMITS.map((limit) => (
                <li key={limit} className="flex items-start gap-3 text-slate-300">
                  <X className="mt-0.5 h-5 w-5 shrink-0 text-rose-300" aria-hidden="true" />
                  {limit}
                </li>
              ))}
            </ul>
          </div>
          <div className="rounded-2xl bg-brand-800 p-7 ring-1 ring-brand-600">
            <p className="flex items-center gap-3 text-lg font-bold">
              <UserCheck className="h-6 w-6 text-brand-200" aria-hidden="true" />
              Your {SITE.brandName} dietitian
            </p>
            <ul className="mt-5 grid gap-6 sm:grid-cols-2">
              {AI_POINTS.map((point) => {
                const Icon = ICONS[point.icon];
                return (
                  <li key={point.title}>
                    <Icon className="h-6 w-6 text-brand-200" aria-hidden="true" />
                    <h3 className="mt-3 font-bold">{point.title}</h3>
                    <p className="mt-1 text-brand-50">{point.desc}</p>
                  </li>
                );
              })}
            </ul>
          </div>
        </div>
      </div>
    </section>
  );
}
