import { Check, ChevronDown, MessageCircle, X } from 'lucide-react';
import { Select } from 'radix-ui';
import { Link, useSearchParams } from 'wouter';
import { DEFAULT_PLAN_TYPE, PLAN_TYPE_LABELS, PLAN_TYPES, type PlanType, unlockPriceMessage } from '../../../../server/catalogue/plans';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { chatLink, EXTERNAL, SITE } from '../../../site-config';
import { PageHeader } from '../components/PageHeader';
import { cardFeatures, chatPlanName, otherPlans, type PricingCard, pricingCards, tierLabel } from './pricing-cards';

const isPlanType = (v: string | null): v is PlanType => PLAN_TYPES.includes(v as PlanType);

function PlanTypeSelect({ value, onChange }: { value: PlanType; onChange: (type: PlanType) => void }) {
  return (
    <div className="flex flex-col gap-2 xs:flex-row xs:items-center">
      <span id="plan-type-label" className="font-semibold text-slate-800">
        Plan type
      </span>
      <Select.Root value={value} onValueChange={(v) => isPlanType(v) && onChange(v)}>
        <Select.Trigger
          aria-labelledby="plan-type-label"
          className="inline-flex min-w-72 items-center justify-between gap-3 rounded-xl border border-slate-300 bg-white px-4 py-3 text-left font-semibold text-slate-900 shadow-sm hover:border-brand-600"
          data-testid="plan-type"
        >
          {/* The label itself, not Radix's copy of the chosen item: it is in the prerendered HTML too. */}
          <Select.Value>{PLAN_TYPE_LABELS[value]}</Select.Value>
          <Select.Icon>
            <ChevronDown className="h-5 w-5 text-brand-700" aria-hidden="true" />
          </Select.Icon>
        </Select.Trigger>
        <Select.Portal>
          <Select.Content
            position="popper"
            sideOffset={6}
            className="z-[1200] min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-xl bg-white shadow-xl ring-1 ring-slate-200"
          >
            <Select.Viewport className="p-1.5">
              {PLAN_TYPES.map((type) => (
                <Select.Item
                  key={type}
                  value={type}
                  className="flex cursor-pointer items-center justify-between gap-3 rounded-lg px-3 py-2.5 text-slate-800 outline-none select-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900 data-[state=checked]:font-bold"
                >
                  <Select.ItemText>{PLAN_TYPE_LABELS[type]}</Select.ItemText>
                  <Select.ItemIndicator>
                    <Check className="h-4 w-4 text-brand-700" aria-hidden="true" />
                  </Select.ItemIndicator>
                </Select.Item>
              ))}
            </Select.Viewport>
          </Select.Content>
        </Select.Portal>
      </Select.Root>
    </div>
  );
}

function PlanCard({ card }: { card: PricingCard }) {
  const { plan, highlighted, badge } = card;
  return (
    <li
      data-testid={`plan-card-${plan.id}`}
      data-highlighted={highlighted}
      className={`relative flex flex-col rounded-3xl p-8 ${
        highlighted
          ? 'bg-brand-900 text-white shadow-2xl ring-4 ring-brand-400 md:-translate-y-3'
          : 'bg-white text-slate-900 shadow-sm ring-1 ring-slate-200'
      }`}
    >
      {badge && (
        <p className="absolute -top-4 left-1/2 -translate-x-1/2 rounded-full bg-amber-300 px-4 py-1 text-sm font-bold whitespace-nowrap text-slate-900">
          {badge}
        </p>
      )}
      <p className={`text-sm font-bold tracking-widest uppercase ${highlighted ? 'text-brand-200' : 'text-brand-700'}`}>
        {tierLabel(plan)}
      </p>
      <h3 className="mt-2 text-2xl font-extrabold">{plan.name}</h3>
      <p className={`mt-1 font-semibold ${highlighted ? 'text-brand-100' : 'text-slate-700'}`}>
        {plan.duration} · save {plan.discount}%
      </p>
      <p className={`mt-4 ${highlighted ? 'text-brand-50' : 'text-slate-600'}`}>{plan.description}</p>
      <ul className="mt-6 flex-1 space-y-3" aria-label={`What ${plan.name} includes`}>
        {cardFeatures(plan).map(({ feature, included }) => (
          <li key={feature} className="flex items-start gap-3">
            {included ? (
              <Check className={`mt-0.5 h-5 w-5 shrink-0 ${highlighted ? 'text-brand-300' : 'text-brand-700'}`} aria-hidden="true" />
            ) : (
              <X className={`mt-0.5 h-5 w-5 shrink-0 ${highlighted ? 'text-slate-300' : 'text-slate-500'}`} aria-hidden="true" />
            )}
            {included ? (
              <span>{feature}</span>
            ) : (
              <del className={highlighted ? 'text-slate-300' : 'text-slate-600'}>
                <span className="sr-only">Not included: </span>
                {feature}
              </del>
            )}
          </li>
        ))}
      </ul>
      <a
        href={chatLink(unlockPriceMessage(chatPlanName(plan)))}
        {...EXTERNAL}
        className={`mt-8 inline-flex items-center justify-center gap-2 rounded-xl px-5 py-3 text-base font-bold ${
          highlighted ? 'bg-white text-brand-900 hover:bg-brand-50' : 'bg-brand-700 text-white hover:bg-brand-800'
        }`}
      >
        <MessageCircle className="h-5 w-5" aria-hidden="true" />
        Click to Unlock the Price
        <span className="sr-only"> of {plan.name} (opens a chat in a new tab)</span>
      </a>
    </li>
  );
}

function OtherPlansNote({ type }: { type: PlanType }) {
  const others = otherPlans(type);
  const link = (
    <Link href="/consult?book=true" className="font-bold text-brand-800 underline underline-offset-4">
      Schedule a consultation
    </Link>
  );
  return (
    <p
      className="mx-auto mt-12 max-w-3xl rounded-2xl bg-brand-50 px-6 py-5 text-center text-slate-800 ring-1 ring-brand-100"
      data-testid="other-plans"
    >
      {type === 'WL' || type === 'WG' ? (
        <>
          Looking for something in between? We also offer our <strong>Growth (3 Months)</strong> and <strong>Momentum (9 Months)</strong>{' '}
          plans. {link} and we will help you choose.
        </>
      ) : (
        <>
          We also have plans for {others.map((p) => chatPlanName(p)).join(', ')}. {link} to find the one that fits.
        </>
      )}
    </p>
  );
}

/** Plan-type dropdown (WL default), three cards, no prices: the price is shared in a chat. */
export default function PricingPage() {
  useDocumentTitle(
    'Pricing Plans',
    'Weight loss, weight gain, disease management and lifestyle diet plans, from one month to one year. Ask us for the price of any plan.',
  );
  const [params, setParams] = useSearchParams();
  const requested = params.get('type');
  const type = isPlanType(requested) ? requested : DEFAULT_PLAN_TYPE;
  const setType = (next: PlanType) => setParams(next === DEFAULT_PLAN_TYPE ? {} : { type: next }, { replace: true });

  return (
    <>
      <PageHeader
        eyebrow="Pricing"
        title="Pricing Plans"
        lead={`Every plan is written for you by a certified dietitian and starts with a ${SITE.planTrialDays}-day free trial. Easy EMI is available.`}
      />
      <section aria-labelledby="plans-title" className="bg-slate-50 py-14 md:py-20">
        <div className="page-container">
          <div className="flex flex-col items-start justify-between gap-6 md:flex-row md:items-end">
            <div>
              <h2 id="plans-title" className="text-3xl font-extrabold tracking-tight text-slate-900">
                {PLAN_TYPE_LABELS[type]}
              </h2>
              <p className="mt-2 text-slate-600">Choose a plan type to compare its plans.</p>
            </div>
            <PlanTypeSelect value={type} onChange={setType} />
          </div>
          <ul className="mt-14 grid items-stretch gap-8 md:grid-cols-3 md:gap-6" data-testid="plan-cards">
            {pricingCards(type).map((card) => (
              <PlanCard key={`${type}-${card.plan.id}`} card={card} />
            ))}
          </ul>
          <OtherPlansNote type={type} />
        </div>
      </section>
    </>
  );
}
