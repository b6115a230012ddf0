import { findPlan } from '../../../../server/catalogue/plans';
import { formatRupees } from '../../../lib/format';
import { SITE } from '../../../site-config';

export type FaqItem = { id: number; panel: string; question: string; answer: string };

const startingPrice = formatRupees(findPlan('WL', 'tier-kickstart')?.sellPrice ?? 0);

/** Six questions carrying the spec's content points. */
export const FAQ_ITEMS: FaqItem[] = [
  {
    id: 1,
    panel: 'panel1',
    question: 'How much does a diet plan cost?',
    answer: `Plans start at ${startingPrice} per month. Longer plans cost less per month, and Easy EMI is available so you can spread the payment.`,
  },
  {
    id: 2,
    panel: 'panel2',
    question: 'Is there a free trial?',
    answer: `Yes. Every plan begins with a ${SITE.planTrialDays}-day free trial. During those ${SITE.planTrialDays} days you can cancel your plan or change it, free of charge.`,
  },
  {
    id: 3,
    panel: 'panel3',
    question: 'Can I cancel or change my plan after the trial?',
    answer:
      'Once the trial is over the plan can no longer be cancelled, but you can still ask for modifications at any time — a new goal, a change in routine or a food you would rather avoid.',
  },
  {
    id: 4,
    panel: 'panel4',
    question: 'How often will I have follow-ups?',
    answer: 'On 1-month plans your dietitian follows up twice a month. On longer plans, follow-ups are weekly.',
  },
  {
    id: 5,
    panel: 'panel5',
    question: 'What extra do I get with the 1-year plan?',
    answer: 'Everything in the shorter plans, plus access to our health webinars, where our experts cover a new topic each session.',
  },
  {
    id: 6,
    panel: 'panel6',
    question: 'What if I travel or fall ill during my plan?',
    answer:
      'Use the diet pause feature: pause your plan while you are away and resume it when you are back, without losing your remaining days.',
  },
];
