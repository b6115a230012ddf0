import { GraduationCap, MessageCircle, Stethoscope, Users } from 'lucide-react';
import { CHAT_MESSAGES, chatLink, SITE } from '../../../site-config';
import { ExternalLink } from '../components/ExternalLink';

const CREDENTIALS = [
  { Icon: GraduationCap, text: 'M.Sc. Clinical Nutrition & Dietetics' },
  { Icon: Stethoscope, text: '12 years in hospital and clinical practice' },
  { Icon: Users, text: 'Leads a team of certified dietitians' },
];

/** Meet the Founder with a Consult Now button that opens a chat. */
export function MeetFounder() {
  return (
    <section aria-labelledby="founder-title" className="bg-white py-16 md:py-20">
      <div className="page-container grid items-center gap-12 mdx:grid-cols-[2fr_3fr]">
        <img
          src="/images/founder.svg"
          alt={`Portrait of ${SITE.founderName}`}
          width={480}
          height={560}
          loading="lazy"
          decoding="async"
          className="mx-auto h-auto w-full max-w-sm rounded-3xl shadow-lg mdx:mx-0"
        />
        <div>
          <p className="text-sm font-bold tracking-widest text-brand-700 uppercase">Meet the founder</p>
          <h2 id="founder-title" className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
            {SITE.founderName}
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-700">
            {SITE.founderName} spent over a decade in hospital wards watching patients leave with a printed diet chart and no one to ask
            when real life got in the way. She started {SITE.brandName} so that expert nutrition care would come with a person attached —
            someone who plans around your family’s kitchen, your work hours and your medical reports, and who is still there in week twelve.
          </p>
          <ul className="mt-6 space-y-3">
            {CREDENTIALS.map(({ Icon, text }) => (
              <li key={text} className="flex items-center gap-3 font-medium text-slate-800">
                <Icon className="h-5 w-5 text-brand-700" aria-hidden="true" />
                {text}
              </li>
            ))}
          </ul>
          <ExternalLink
            href={chatLink(CHAT_MESSAGES.consult)}
            className="mt-8 inline-flex items-center gap-2 rounded-xl bg-brand-700 px-6 py-3 text-lg font-bold text-white shadow hover:bg-brand-800"
          >
            <MessageCircle className="h-5 w-5" aria-hidden="true" />
            Consult Now
          </ExternalLink>
        </div>
      </div>
    </section>
  );
}
