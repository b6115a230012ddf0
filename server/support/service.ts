import { publicFormLimits, takeSlot } from '../auth/rate-limit.js';
import type { SessionUser } from '../auth/session.js';
import { BRAND } from '../brand.js';
import type { AppDeps } from '../deps.js';
import type { RequestMeta } from '../trpc/context.js';
import { roleName } from '../auth/roles.js';
import * as repo from './repo.js';
import { SUPPORT_REQUEST_RECEIVED, type SupportRequestInput } from './schema.js';

/** Mail headers are one line: a name typed with line breaks must not add headers. */
export const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, ' ').trim();

/**
 * Stores a Contact Us request and tells the team by mail. A signed-in caller
 * is answered at the account's address, whatever the form sent.
 */
export async function createSupportRequest(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>,
  actor: SessionUser | null,
  meta: RequestMeta,
  input: SupportRequestInput,
) {
  const from = actor ? { name: actor.fullName, email: actor.email } : { name: input.name ?? '', email: input.email ?? '' };
  await takeSlot(deps.db, 'support requests', publicFormLimits(deps.config.rateLimits, 'support', meta.ip, from.email));
  const saved = await repo.insertSupportRequest(deps.db, { userId: actor?.id ?? null, ...from, message: input.message });
  await deps.mailer.queue({
    to: BRAND.supportEmail,
    subject: oneLine(`Support request #${saved.id} from ${from.name}`),
    text: [
      `Name: ${from.name}`,
      `Email: ${from.email}`,
      actor ? `Account: #${actor.id} (${roleName(actor.role)}, signed in)` : 'Account: none (visitor)',
      `Received: ${saved.created_at.toISOString()}`,
      '',
      input.message,
    ].join('\n'),
  });
  return { message: SUPPORT_REQUEST_RECEIVED };
}
