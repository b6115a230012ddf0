import { randomUUID } from 'node:crypto';
import { bucket } from '../auth/rate-limit.js';
import type { Db } from '../db/index.js';
import { MESSAGES_CHANNEL } from '../messages/events.js';
import { messagePush, NOTICE_AFTER_MS } from '../messages/notify.js';
import { awayReply, nextOpening } from '../messages/office-hours.js';
import * as notices from '../messages/notices-repo.js';
import * as repo from '../messages/repo.js';
import { sendMessages } from '../messages/send-repo.js';
import type { OfficeHours } from '../messages/schema.js';
import type { FileStorage } from '../storage/storage.js';
import { cameraName, storeDemoPhoto } from './demo-files.js';
import type { DemoDish, DemoPhoto } from './demo-photos.js';
import { addDays, serviceInstant } from '../time.js';

/**
 * Each demo client's conversation with the dietitian: a few days of messages
 * both ways, one with a photo, sent through the same database function as a
 * real send (seq, read mark, away reply outside office hours). The client has
 * one message of the dietitian's still to read, the dietitian one of Rohan's.
 */

type Line = { daysAgo: number; at: string; from: 'client' | 'dietitian'; text: string; photo?: DemoDish };

export const ASHA_MESSAGES: Line[] = [
  {
    daysAgo: 6,
    at: '09:10',
    from: 'client',
    text: 'Good morning Meera! Weighed myself today: 71.6 kg. First time below 72 since college!',
  },
  {
    daysAgo: 6,
    at: '10:05',
    from: 'dietitian',
    text: 'That is wonderful, Asha: almost 7 kg since we began. Keep the evening walks going. This week add a katori of dal at lunch, so you are not hungry by 5 pm.',
  },
  {
    daysAgo: 4,
    at: '13:20',
    from: 'client',
    text: 'Office lunch today. Is this portion okay? 2 rotis, dal, bhindi, rice and salad.',
    photo: 'thali',
  },
  {
    daysAgo: 4,
    at: '15:40',
    from: 'dietitian',
    text: 'Lovely plate! Keep the rice to the small mound you have there, and add a katori of curd for protein and calcium. Try to finish lunch by 1:30 so the evening snack does not turn into a second lunch.',
  },
  {
    daysAgo: 2,
    at: '21:45',
    from: 'client',
    text: 'We have a family wedding on Sunday. Any tips so I do not undo the whole week?',
  },
  {
    daysAgo: 1,
    at: '09:30',
    from: 'dietitian',
    text: 'Enjoy the wedding! Start with a salad or a soup, pick one starter, and choose phulka over naan. One sweet is fine: have it after the meal, not on an empty stomach. Drink water between courses.',
  },
  { daysAgo: 1, at: '10:02', from: 'client', text: 'Thank you! Will do. Should I skip my evening snack that day?' },
  {
    daysAgo: 1,
    at: '12:15',
    from: 'dietitian',
    text: 'No, keep it: a small snack at 5 (roasted chana or a fruit) stops you from arriving at the buffet starving. We will look at the week together at your next session.',
  },
];

export const ROHAN_MESSAGES: Line[] = [
  {
    daysAgo: 5,
    at: '19:10',
    from: 'client',
    text: 'Hi Meera, bench press is up to 70 kg this week. But I feel bloated after the 4 pm protein shake. Should I switch to something else?',
  },
  {
    daysAgo: 5,
    at: '19:40',
    from: 'dietitian',
    text: 'Great progress! Try the shake with water instead of milk, or swap it for 2 boiled eggs and a banana on alternate days. Tell me how it goes.',
  },
  { daysAgo: 3, at: '12:15', from: 'client', text: 'Post-workout today: egg bhurji with 2 multigrain toasts. Better?', photo: 'bhurji' },
  {
    daysAgo: 3,
    at: '17:05',
    from: 'dietitian',
    text: 'Much better: about 25 g of protein, and no bloating from milk. Add cucumber or tomato on the side for fibre.',
  },
  {
    daysAgo: 1,
    at: '20:40',
    from: 'client',
    text: 'Quick one: can I have paneer tikka at a team dinner on Friday? And what about the naan?',
  },
];

/** The time a line was sent: `at` India time, `daysAgo` India-time days before today. */
const sentAt = (today: string, line: Line) => {
  const [h, m] = line.at.split(':').map(Number) as [number, number];
  return serviceInstant(addDays(today, -line.daysAgo), h * 60 + m);
};

/** The demo sends a handful of messages minutes apart: a sender's limit is never near. */
const DEMO_SEND_LIMIT = { max: 30, windowMs: 60_000 };

export async function seedConversation(
  trx: Db,
  storage: FileStorage,
  opts: {
    client: { id: number; name: string };
    dietitian: { id: number; name: string };
    lines: Line[];
    photos: Map<DemoDish, DemoPhoto>;
    officeHours: OfficeHours;
    today: string;
    now: Date;
  },
) {
  const { client, dietitian } = opts;
  const conversation = await repo.ensureConversation(trx, client.id);
  await repo.setPrimaryDietitian(trx, conversation.id, dietitian.id);
  const hoursVersion = (await repo.findSettings(trx))?.version ?? null;

  const sent: { seq: number; role: 'client' | 'dietitian'; at: Date }[] = [];
  for (const line of opts.lines) {
    const at = sentAt(opts.today, line);
    if (at.getTime() > opts.now.getTime()) continue;
    const sender = line.from === 'client' ? client : dietitian;
    const opensAt = line.from === 'client' ? nextOpening(opts.officeHours, at) : null;
    const [result] = await sendMessages(trx, [
      {
        conversationId: conversation.id,
        senderId: sender.id,
        senderRole: line.from,
        clientMessageId: randomUUID(),
        text: line.text,
        at,
        limit: { bucket: bucket.messageSender(sender.id), ...DEMO_SEND_LIMIT },
        hoursVersion: line.from === 'client' ? hoursVersion : null,
        away: opensAt ? { until: opensAt, text: awayReply(opensAt) } : null,
        push: messagePush(conversation.id, line.from, sender.name),
        withFiles: line.photo !== undefined,
        channel: MESSAGES_CHANNEL,
      },
    ]);
    if (result?.outcome !== 'sent') throw new Error(`The demo message was not sent: ${result?.outcome}`);
    if (line.photo) {
      const photo = opts.photos.get(line.photo)!;
      const id = await storeDemoPhoto(trx, storage, photo, {
        uploaderId: sender.id,
        clientId: client.id,
        use: 'message',
        at,
        name: cameraName(at),
      });
      await repo.insertMessageAttachments(trx, result.message.id, [id]);
    }
    sent.push({ seq: result.message.seq, role: line.from, at });
  }

  // Each side has read everything (automatic replies too) but the last message when it is still theirs to answer.
  const lastSeq = (await repo.findConversation(trx, conversation.id))?.last_seq ?? 0;
  const last = sent.at(-1);
  for (const side of ['client', 'dietitian'] as const) {
    const reader = side === 'client' ? client : dietitian;
    const unread = last && last.role !== side ? last : undefined;
    const readSeq = unread ? unread.seq - 1 : lastSeq;
    const readMessage = [...sent].reverse().find((m) => m.seq <= readSeq);
    if (readMessage) {
      const readAt = new Date(Math.min(readMessage.at.getTime() + 20 * 60_000, opts.now.getTime()));
      await repo.markRead(trx, conversation.id, reader.id, readSeq, readAt);
    }
    // The unread-message e-mail went out when it was due (so a fresh start mails nobody); nothing is owed for what was read.
    const noticeSide = side === 'client' ? 'client' : 'team';
    if (unread) await notices.recordNotice(trx, conversation.id, noticeSide, unread.seq, new Date(unread.at.getTime() + NOTICE_AFTER_MS));
    else await notices.settleNotice(trx, conversation.id, noticeSide, readSeq);
  }
  return conversation.id;
}
