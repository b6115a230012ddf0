import { BRAND } from '../server/brand';

/**
 * Everything about the public site that a non-developer might change: phone
 * and WhatsApp numbers, social accounts, video addresses and the chat-link
 * builder. The brand name itself lives in server/brand.ts (mails and PDFs use it too).
 *
 * Videos stream from cloud storage: set VITE_MEDIA_BASE_URL at build time to the
 * folder that holds hero-kitchen.mp4 and story-1.mp4 … story-4.mp4 (e.g.
 * https://storage.googleapis.com/poshan-media/videos). Every video has a
 * poster shipped with the app; without a media address the posters show on
 * their own, so the pages look complete offline and in tests.
 */
const mediaBase = String(import.meta.env.VITE_MEDIA_BASE_URL ?? '').replace(/\/+$/, '');
const video = (file: string) => (mediaBase ? `${mediaBase}/${file}` : null);

export const SITE = {
  brandName: BRAND.name,
  tagline: BRAND.tagline,
  founderName: BRAND.founderName,
  email: BRAND.supportEmail,
  phoneDisplay: BRAND.phoneDisplay,
  /** tel: link target, international format. */
  phoneHref: `tel:+${BRAND.whatsappNumber}`,
  whatsappNumber: BRAND.whatsappNumber,
  /** Support hours. */
  hours: [
    { days: 'Mon-Sat', time: '09:00AM-8:00PM' },
    { days: 'Sun', time: '10:00AM-4:00PM' },
  ],
  phoneLineHours: 'Mon-Sat 9:00 AM to 8:00 PM',
  social: {
    facebook: 'https://www.facebook.com/poshan.nutrition',
    instagram: 'https://www.instagram.com/poshan.nutrition',
    linkedin: 'https://www.linkedin.com/company/poshan-nutrition',
    youtube: 'https://www.youtube.com/@poshan.nutrition',
  },
  /** The recipes video channel linked from the footer. */
  recipesUrl: 'https://www.youtube.com/@poshan.nutrition/playlists',
  videos: {
    hero: video('hero-kitchen.mp4'),
    stories: [video('story-1.mp4'), video('story-2.mp4'), video('story-3.mp4'), video('story-4.mp4')],
    /** The signed-in Platform Guide (/platform-guide). */
    guide: video('platform-guide.mp4'),
  },
  /** Free-trial terms. The banner offers a no-payment taster; every paid plan then opens with a trial week. */
  freeTrialDays: 3,
  planTrialDays: 7,
} as const;

/** A WhatsApp click-to-chat link that opens with `text` already typed (URL-encoded). */
export function chatLink(text: string, number: string = SITE.whatsappNumber): string {
  return `https://wa.me/${number}?text=${encodeURIComponent(text)}`;
}

/** The prefilled chat messages of the site's hand-offs. */
export const CHAT_MESSAGES = {
  freeTrial: `Hi ${BRAND.name}! I'd like to start my ${SITE.freeTrialDays}-day free trial. Could you tell me how to begin?`,
  courses: `Hi ${BRAND.name}! I'm interested in your online certification courses. Could you share the details, fees and next batch dates?`,
  consult: `Hi ${BRAND.name}! I'd like to start a personalised diet plan and would like to consult a dietitian first.`,
  instantMessage: `Hi ${BRAND.name}! I have a question about your diet plans.`,
} as const;

/** Attributes for every link that leaves the site. */
export const EXTERNAL = { target: '_blank', rel: 'noopener noreferrer' } as const;
