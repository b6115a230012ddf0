import { BadgeCheck, HeartPulse, MessagesSquare, Salad } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/Button';
import { SITE } from '../../../site-config';
import { SectionHeading } from '../components/SectionHeading';
import { WHY_CHOOSE_US } from '../content';

const ICONS = [BadgeCheck, Salad, MessagesSquare, HeartPulse];

export function WhyChooseUs() {
  return (
    <section aria-labelledby="why-title" className="bg-white py-16 md:py-20">
      <div className="page-container grid items-center gap-12 mdx:grid-cols-2">
        <img
          src="/images/why-choose-us.svg"
          alt="A dietitian on a video call reviewing a meal plan with a client"
          width={560}
          height={460}
          loading="lazy"
          decoding="async"
          className="h-auto w-full rounded-3xl"
        />
        <div>
          <SectionHeading
            id="why-title"
            align="left"
            eyebrow="Why choose us"
            title={`Why clients stay with ${SITE.brandName}`}
            lead="We are dietitians first: every plan starts with listening, and every follow-up is with the same person who knows your story."
          />
          <ul className="mt-8 grid gap-6 xs:grid-cols-2">
            {WHY_CHOOSE_US.map((reason, i) => {
              const Icon = ICONS[i % ICONS.length]!;
              return (
                <li key={reason.id}>
                  <Icon className="h-7 w-7 text-brand-700" aria-hidden="true" />
                  <h3 className="mt-2 font-bold text-slate-900">{reason.title}</h3>
                  <p className="mt-1 text-slate-600">{reason.desc}</p>
                </li>
              );
            })}
          </ul>
          <Link href="/about-us" className={buttonClasses('primary', 'lg', 'mt-8')}>
            Read More About Us
          </Link>
        </div>
      </div>
    </section>
  );
}
