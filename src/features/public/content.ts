import { CHAT_MESSAGES, chatLink, SITE } from '../../site-config';

/**
 * The words and pictures of the public site, kept apart from the layout so
 * copy changes don't touch components. Shapes are those the server's public content calls return.
 */

export type Stat = { id: number; value: number; label: string; isPercentage: boolean; noAnimation?: boolean; display?: string };
export const STATS: Stat[] = [
  { id: 1, value: 250, label: 'Personalised plans', isPercentage: false },
  { id: 2, value: 300, label: 'Clients served', isPercentage: false },
  { id: 3, value: 98, label: 'Success rate', isPercentage: true },
  { id: 4, value: 24, label: 'Expert guidance', isPercentage: false, noAnimation: true, display: '24/7' },
];

export type Story = { id: number; video: string | null; poster: string; quote: string; name: string; result: string };
export const STORIES: Story[] = [
  {
    id: 1,
    video: SITE.videos.stories[0],
    poster: '/images/stories/ananya.svg',
    quote: 'I stopped fighting my cravings and started planning for them. My cycles are regular for the first time in years.',
    name: 'Ananya, 29, Pune',
    result: 'PCOS plan · 6 months',
  },
  {
    id: 2,
    video: SITE.videos.stories[1],
    poster: '/images/stories/rohit.svg',
    quote: 'Night shifts made me think a routine was impossible. My dietitian built one around my roster, and I lost 11 kg.',
    name: 'Rohit, 36, Bengaluru',
    result: 'Weight loss · 1 year',
  },
  {
    id: 3,
    video: SITE.videos.stories[2],
    poster: '/images/stories/farah.svg',
    quote: 'After my daughter was born I was exhausted. The plan gave me energy back without a single crash diet.',
    name: 'Farah, 32, Hyderabad',
    result: 'Post pregnancy · 3 months',
  },
  {
    id: 4,
    video: SITE.videos.stories[3],
    poster: '/images/stories/vikram.svg',
    quote: 'My HbA1c came down from 8.1 to 6.4 and I still eat my mother’s parathas — just differently.',
    name: 'Vikram, 54, Chandigarh',
    result: 'Diabetes plan · 6 months',
  },
];

export type ConnectCard = { id: number; title: string; desc: string; icon: 'chat' | 'phone' | 'calendar'; link?: string };
/** Id 1 opens an external link in a new tab, a card with a link navigates, a card without one opens Contact Us. */
export const CONNECT_CARDS: ConnectCard[] = [
  {
    id: 1,
    title: 'Instant messaging',
    desc: 'Message a dietitian on WhatsApp and get a reply within working hours.',
    icon: 'chat',
    link: chatLink(CHAT_MESSAGES.instantMessage),
  },
  { id: 2, title: 'Call an expert', desc: `Prefer to talk it through? Call us ${SITE.phoneLineHours}.`, icon: 'phone' },
  {
    id: 3,
    title: 'Book a free consultation',
    desc: 'A 20-minute call to understand your goals, history and routine — no obligation.',
    icon: 'calendar',
    link: '/consult?book=true',
  },
];

export type ContactCard = {
  id: number;
  title: string;
  data1: string;
  data2: string;
  icon: 'phone' | 'mail' | 'chat' | 'clock';
  href?: string;
};
export const CONTACT_CARDS: ContactCard[] = [
  { id: 1, title: 'Call us', data1: SITE.phoneDisplay, data2: SITE.phoneLineHours, icon: 'phone', href: SITE.phoneHref },
  { id: 2, title: 'Email us', data1: SITE.email, data2: 'We reply within one working day', icon: 'mail', href: `mailto:${SITE.email}` },
  {
    id: 3,
    title: 'WhatsApp',
    data1: SITE.phoneDisplay,
    data2: 'Quick questions, any time',
    icon: 'chat',
    href: chatLink(CHAT_MESSAGES.instantMessage),
  },
  {
    id: 4,
    title: 'Support hours',
    data1: `${SITE.hours[0].days} ${SITE.hours[0].time}`,
    data2: `${SITE.hours[1].days} ${SITE.hours[1].time}`,
    icon: 'clock',
  },
];

export type Course = { id: number; title: string; duration: string; desc: string };
export const COURSES: Course[] = [
  {
    id: 1,
    title: 'Dietitian Internship Certificate',
    duration: '3–6 months',
    desc: 'Shadow our dietitians on real (anonymised) cases: assessments, meal planning and follow-ups.',
  },
  {
    id: 2,
    title: 'Diploma in Nutrition & Dietetics',
    duration: '1 year',
    desc: 'From macronutrients to clinical nutrition, with assignments marked by practising dietitians.',
  },
  {
    id: 3,
    title: 'Certificate in Therapeutic Nutrition',
    duration: '3 months',
    desc: 'Nutrition for diabetes, thyroid, PCOS, hypertension, kidney and liver care.',
  },
];

export type AiPoint = { icon: 'file' | 'utensils' | 'refresh' | 'heart'; title: string; desc: string };
export const AI_POINTS: AiPoint[] = [
  {
    icon: 'file',
    title: 'Reads your reports, not just your prompt',
    desc: 'Your dietitian looks at blood work, medicines and history — the details a chatbot never asks for.',
  },
  {
    icon: 'utensils',
    title: 'Cooks in your kitchen',
    desc: 'Plans use the dal, sabzi and rotis you already eat, adjusted for your region, budget and family meals.',
  },
  {
    icon: 'refresh',
    title: 'Adjusts when life happens',
    desc: 'Travel, festivals, exams, night shifts: your plan changes at every follow-up instead of starting over.',
  },
  {
    icon: 'heart',
    title: 'Someone is accountable',
    desc: 'A real person tracks your progress every week and answers for the results — generic advice answers to no one.',
  },
];

export type Reason = { id: number; title: string; desc: string };
export const WHY_CHOOSE_US: Reason[] = [
  { id: 1, title: 'Certified dietitians only', desc: 'Every plan is written and reviewed by a qualified, registered dietitian.' },
  { id: 2, title: 'Food you already love', desc: 'No imported superfoods or starvation: Indian meals, balanced for your goals.' },
  {
    id: 3,
    title: 'Follow-ups that keep you going',
    desc: 'Regular check-ins by chat and video call, with your plan updated as you progress.',
  },
  {
    id: 4,
    title: 'Care for real conditions',
    desc: 'PCOD, thyroid, diabetes, hypertension and more — managed with your doctor’s advice in mind.',
  },
];

export type Testimonial = { id: number; img: string; clientName: string; clientReview: string; postedOn: string };
export const TESTIMONIALS: Testimonial[] = [
  {
    id: 1,
    img: '/images/clients/priya.svg',
    clientName: 'Priya Nair',
    clientReview:
      'I had tried every diet on the internet. This was the first time someone asked about my sleep, my periods and my office canteen. Down 8 kg in five months, and I never felt hungry.',
    postedOn: '2025-03',
  },
  {
    id: 2,
    img: '/images/clients/arjun.svg',
    clientName: 'Arjun Mehta',
    clientReview:
      'I wanted to gain muscle without living on shakes. The gym plan fits my training days, and my dietitian actually checks my progress photos every week.',
    postedOn: '2025-01',
  },
  {
    id: 3,
    img: '/images/clients/sunita.svg',
    clientName: 'Sunita Rao',
    clientReview:
      'My thyroid and cholesterol were both creeping up. Four months later my doctor reduced one of my medicines. The team is patient, kind and always on WhatsApp.',
    postedOn: '2024-11',
  },
];

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * 'YYYY-MM' → 'March 2025' (what en-IN's long month and year read). Spelled out, not through Intl: the
 * first `toLocaleDateString` of a page loads the locale's data, about 30 ms of the main thread on a
 * desktop and 120 ms on a phone, in the middle of the home page's hydration (decision 108).
 */
export const postedMonth = (yyyyMm: string) => {
  const [y, m] = yyyyMm.split('-').map(Number);
  const month = MONTHS[(m ?? 1) - 1];
  return month && y ? `${month} ${y}` : yyyyMm;
};

export type Service = { id: number; title: string; desc: string };
export const SERVICES: Service[] = [
  { id: 1, title: 'Weight loss', desc: 'Steady, sustainable fat loss with meals you enjoy — no crash diets, no rebound.' },
  { id: 2, title: 'Weight gain & gym nutrition', desc: 'Calorie- and protein-rich plans timed around your workouts.' },
  { id: 3, title: 'Disease management', desc: 'Nutrition for PCOD/PCOS, thyroid, diabetes, hypertension, kidney, liver and cholesterol.' },
  { id: 4, title: 'Women’s health', desc: 'Pregnancy, lactation and post-pregnancy plans that look after mother and baby.' },
  { id: 5, title: 'Lifestyle & skin', desc: 'Gut health, acidity, skin and acne, and bridal plans for the big day.' },
  { id: 6, title: 'Certification courses', desc: 'Online courses and internships for people who want to become nutrition professionals.' },
];

export const REMOTE_BENEFITS: Reason[] = [
  { id: 1, title: 'No waiting rooms', desc: 'Consult from home, the office or on the road — all you need is your phone.' },
  {
    id: 2,
    title: 'Help between appointments',
    desc: 'Message your dietitian when a question comes up instead of saving it for next month.',
  },
  { id: 3, title: 'Plans in your pocket', desc: 'Download every diet plan as a PDF and track your weight in your dashboard.' },
  { id: 4, title: 'Experts wherever you live', desc: 'Specialist care is no longer limited to big-city clinics.' },
];

export const EXPERTISE = [
  'PCOD / PCOS',
  'Thyroid disorders',
  'Type 2 diabetes',
  'Hypertension',
  'High cholesterol',
  'Fatty liver',
  'Kidney care',
  'Pregnancy & lactation',
  'Sports & gym nutrition',
  'Gut health',
] as const;
