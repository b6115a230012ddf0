import {
  Activity,
  Baby,
  CalendarCheck,
  Dumbbell,
  GraduationCap,
  HeartPulse,
  Home,
  MessageSquareText,
  Scale,
  Smartphone,
  Sparkles,
  Stethoscope,
} from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/Button';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { SITE } from '../../../site-config';
import { PageHeader } from '../components/PageHeader';
import { SectionHeading } from '../components/SectionHeading';
import { EXPERTISE, REMOTE_BENEFITS, SERVICES } from '../content';

const SERVICE_ICONS = [Scale, Dumbbell, Stethoscope, Baby, Sparkles, GraduationCap];
const BENEFIT_ICONS = [Home, MessageSquareText, Smartphone, Activity];

const VALUES = [
  { label: 'Clients guided', value: '300+' },
  { label: 'Plans written', value: '250+' },
  { label: 'Specialities', value: `${EXPERTISE.length}` },
];

/** About (#about), top services (#services), remote work benefits, expertise (#expertise). */
export default function AboutPage() {
  useDocumentTitle(
    'About us',
    `Who we are and what we do: ${SITE.brandName} is a team of certified dietitians offering personalised, online diet plans and condition care.`,
  );
  return (
    <>
      <PageHeader
        eyebrow="About us"
        title="Nutrition care that fits real lives"
        lead={`${SITE.brandName} is a team of certified dietitians helping people across India eat well, feel better and manage their health — without giving up the food they grew up with.`}
      />

      <section id="about" aria-labelledby="about-title" className="scroll-mt-20 bg-white py-16 md:py-20">
        <div className="page-container grid items-center gap-12 mdx:grid-cols-2">
          <div>
            <SectionHeading id="about-title" align="left" eyebrow="Our story" title="Built by dietitians, for the way you actually live" />
            <div className="mt-6 space-y-4 text-lg leading-relaxed text-slate-700">
              <p>
                We started {SITE.brandName} after years in hospitals and clinics, where we saw the same thing again and again: people left
                with a diet chart, tried hard for two weeks, and then life happened. Nobody was there to adjust the plan.
              </p>
              <p>
                So we built a service around the follow-up. Your dietitian gets to know your routine, your reports and your kitchen, writes
                a plan you can actually cook, and keeps changing it with you until the results stick.
              </p>
            </div>
            <dl className="mt-8 grid grid-cols-3 gap-4">
              {VALUES.map((v) => (
                <div key={v.label} className="rounded-2xl bg-brand-50 p-4 text-center">
                  <dt className="text-sm text-slate-700">{v.label}</dt>
                  <dd className="order-first text-2xl font-extrabold text-brand-800">{v.value}</dd>
                </div>
              ))}
            </dl>
          </div>
          <img
            src="/images/about-team.svg"
            alt="Three dietitians around a table with fresh vegetables, a laptop and a notebook"
            width={560}
            height={460}
            loading="lazy"
            decoding="async"
            className="h-auto w-full rounded-3xl"
          />
        </div>
      </section>

      <section id="services" aria-labelledby="services-title" className="scroll-mt-20 bg-slate-50 py-16 md:py-20">
        <div className="page-container">
          <SectionHeading
            id="services-title"
            eyebrow="What we do"
            title="Our top services"
            lead="Every plan is personal. These are the areas where our dietitians help most often."
          />
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {SERVICES.map((service, i) => {
              const Icon = SERVICE_ICONS[i % SERVICE_ICONS.length]!;
              return (
                <li key={service.id} className="rounded-2xl bg-white p-7 shadow-sm ring-1 ring-slate-200">
                  <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-100 text-brand-800">
                    <Icon className="h-6 w-6" aria-hidden="true" />
                  </span>
                  <h3 className="mt-5 text-xl font-bold text-slate-900">{service.title}</h3>
                  <p className="mt-2 text-slate-600">{service.desc}</p>
                </li>
              );
            })}
          </ul>
        </div>
      </section>

      <section aria-labelledby="remote-title" className="bg-white py-16 md:py-20">
        <div className="page-container">
          <SectionHeading
            id="remote-title"
            eyebrow="Why online works"
            title="Expert care, without the clinic visits"
            lead="Working remotely lets us see you more often, not less."
          />
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {REMOTE_BENEFITS.map((benefit, i) => {
              const Icon = BENEFIT_ICONS[i % BENEFIT_ICONS.length]!;
              return (
                <li key={benefit.id} className="rounded-2xl border border-brand-100 bg-brand-50/60 p-6">
                  <Icon className="h-7 w-7 text-brand-700" aria-hidden="true" />
                  <h3 className="mt-4 text-lg font-bold text-slate-900">{benefit.title}</h3>
                  <p className="mt-2 text-slate-600">{benefit.desc}</p>
                </li>
              );
            })}
          </ul>
        </div>
      </section>

      <section id="expertise" aria-labelledby="expertise-title" className="scroll-mt-20 bg-slate-900 py-16 text-white md:py-20">
        <div className="page-container grid items-center gap-10 mdx:grid-cols-2">
          <div>
            <SectionHeading
              id="expertise-title"
              tone="dark"
              align="left"
              eyebrow="Our expertise"
              title="Conditions we know inside out"
              lead="Our dietitians specialise in the conditions where food makes the biggest difference, and work alongside the advice of your doctor."
            />
            <Link href="/consult?book=true" className={buttonClasses('primary', 'lg', 'mt-8')}>
              <CalendarCheck className="h-5 w-5" aria-hidden="true" />
              Consult Now
            </Link>
          </div>
          <ul className="flex flex-wrap gap-3">
            {EXPERTISE.map((item) => (
              <li
                key={item}
                className="inline-flex items-center gap-2 rounded-full bg-white/10 px-4 py-2 font-semibold ring-1 ring-white/20"
              >
                <HeartPulse className="h-4 w-4 text-brand-300" aria-hidden="true" />
                {item}
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}
