/**
 * The Platform Guide's steps. `scripts/guide-screenshots.ts` opens each `path` in the
 * running app with the demo data, signed in as the demo client, and saves what it shows as
 * `/images/guide/<id>.webp` at GUIDE_SHOT size; the page shows the same list with those pictures.
 * Add or reorder a step here, then run `npm run guide:screenshots`.
 */
export type GuideStep = {
  id: string;
  title: string;
  /** The screen's address in the app. */
  path: string;
  /** Shown to the demo client signed in (false: to a visitor). */
  signedIn: boolean;
  text: string;
  /** What the picture shows, for people who cannot see it. */
  alt: string;
};

/**
 * Every step is shot twice: in a small desktop window (so the text stays readable when the page
 * scales it down) and on a phone (shown below 640 px), each at these CSS sizes.
 */
export const GUIDE_SHOT = { width: 1024, height: 640 } as const;
export const GUIDE_PHONE_SHOT = { width: 375, height: 667 } as const;
/** Phone shots are taken at 2× so they stay sharp on phone screens. */
export const GUIDE_PHONE_SCALE = 2;

export const guideImage = (step: Pick<GuideStep, 'id'>, device: 'desktop' | 'phone' = 'desktop') =>
  `/images/guide/${step.id}${device === 'phone' ? '-phone' : ''}.webp`;

export const GUIDE_STEPS: readonly GuideStep[] = [
  {
    id: 'sign-in',
    title: 'Sign in',
    path: '/login',
    signedIn: false,
    text: 'Use the email and password from your welcome mail. Forgot password sends you a link to choose a new one.',
    alt: 'The Login page with email and password fields and the Login button.',
  },
  {
    id: 'feeds',
    title: 'Read your feed',
    path: '/dashboard/feeds',
    signedIn: true,
    text: 'Tips, recipes and news from your dietitians arrive here as they post them. Like a post to tell them it helped.',
    alt: 'The Feeds page: posts from the dietitians, each with its date, likes and a Like button.',
  },
  {
    id: 'diet-plans',
    title: 'Open your diet plans',
    path: '/dashboard/diet-plan',
    signedIn: true,
    text: 'Every plan your dietitian prepares is listed with the dates it covers. Download PDF opens it in a new tab to read or print.',
    alt: 'My Diet Plans: a table of plans with their From and To dates and a Download PDF button on each row.',
  },
  {
    id: 'update-weight',
    title: 'Log your weight',
    path: '/dashboard/update-weight',
    signedIn: true,
    text: 'Once a week, enter your weight; the date starts at today. Your dietitian sees it straight away.',
    alt: 'Update Weight: a weight field, a date field set to today and the Update button.',
  },
  {
    id: 'weight-history',
    title: 'See your progress',
    path: '/dashboard/weight-history',
    signedIn: true,
    text: 'Weight History draws your weigh-ins on a chart and lists them. Remove one you entered by mistake.',
    alt: 'Weight History: a line chart of weekly weights going down, and the list of weigh-ins below.',
  },
  {
    id: 'check-in',
    title: 'Answer your check-in',
    path: '/dashboard/check-in',
    signedIn: true,
    text: 'Between follow-ups, tell your dietitian how the week went: energy, sleep, cravings and anything that got in the way.',
    alt: 'The Check-in page with the questions of this week.',
  },
  {
    id: 'check-bmi',
    title: 'Check your BMI',
    path: '/dashboard/check-bmi',
    signedIn: true,
    text: 'Your height and weight fill in from your profile; the gauge shows where you are on the scale.',
    alt: 'Check BMI: height and weight fields and a gauge with the BMI and its category.',
  },
  {
    id: 'subscription',
    title: 'Know your plan',
    path: '/dashboard/active-subscription',
    signedIn: true,
    text: 'Your plan, what you paid and the dates it runs between. We mail you before it ends.',
    alt: 'Active Subscription: plan type, price, amount paid, start and end dates and the Active status.',
  },
  {
    id: 'profile',
    title: 'Keep your profile current',
    path: '/dashboard/profile',
    signedIn: true,
    text: 'Change your name, phone, height and weight, change your password, and sign out devices you no longer use.',
    alt: 'My Profile: the details form, the password form and the list of signed-in devices.',
  },
  {
    id: 'write-review',
    title: 'Tell us how it is going',
    path: '/dashboard/write-review',
    signedIn: true,
    text: 'Rate us with half stars and a few words. Your review helps other people choose.',
    alt: 'Write a Review: a star rating and a comment box with the Submit button.',
  },
];
