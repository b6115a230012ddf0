import { publicBaseUrl } from '../http/public-url.js';
import type { SessionUser } from '../auth/session.js';
import { BRAND } from '../brand.js';
import type { Config } from '../env.js';
import { composeMail } from '../mail/compose.js';
import type { UserNotice } from '../notifications/notify.js';
import type { MealMark } from './schema.js';

/**
 * What the client is told of a dietitian's word on their journal. The event
 * only: never the meal, the photo or the comment (health data stays in the
 * app), in the push or the mail.
 */
export const JOURNAL_PATH = '/dashboard/journal';

type Client = { id: number; email: string; first_name: string };

export function commentNotice(deps: { config: Config }, client: Client, dietitian: SessionUser, commentId: number): UserNotice {
  const title = 'Your dietitian commented on your meal';
  return {
    userId: client.id,
    category: 'messages',
    key: `meal-comment:${commentId}`,
    push: { title, body: 'Open your meal journal to read it and reply.', path: JOURNAL_PATH },
    mail: composeMail({
      to: client.email,
      subject: title,
      greetingName: client.first_name,
      blocks: [
        `${dietitian.firstName} commented on a meal in your ${BRAND.name} journal. To keep your health details private, the comment is not in this e-mail: open your journal to read it and reply.`,
        { button: { label: 'Open my journal', href: `${publicBaseUrl(deps)}${JOURNAL_PATH}` } },
      ],
    }),
  };
}

/**
 * A client's answer in a comment thread, told to the care team (the primary dietitian, else every dietitian) by
 * push only: the client's first name and the event, never the meal or the words. A tap opens the client's page.
 */
export function replyNotices(client: { id: number; first_name: string }, team: { id: number }[], commentId: number): UserNotice[] {
  return team.map((dietitian) => ({
    userId: dietitian.id,
    category: 'messages',
    key: `meal-reply:${commentId}:${dietitian.id}`,
    push: { title: `${client.first_name} answered on a meal`, body: 'Open their journal to read it.', path: `/admin/clients/${client.id}` },
  }));
}

/** A mark is told by push only (a comment, if the dietitian has more to say, mails). */
export function markNotice(client: Pick<Client, 'id'>, entryId: number, mark: MealMark, at: Date): UserNotice {
  return {
    userId: client.id,
    category: 'messages',
    key: `meal-mark:${entryId}:${mark}:${at.getTime()}`,
    push: { title: 'Your dietitian looked at your meal', body: 'Open your meal journal to see.', path: JOURNAL_PATH },
  };
}
