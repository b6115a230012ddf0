import { z } from 'zod';
import type { Db } from '../db/index.js';
import { hashPassword } from '../auth/password.js';
import { ROLE } from '../auth/roles.js';
import { heightMetres, weightKilograms } from '../measurements/schema.js';
// The password rule lives in the zod-only auth schema so the password forms can import it.
import { newPasswordField } from '../auth/schema.js';
import * as repo from './repo.js';
import { emailText, optionalText, requiredText } from '../validation.js';
import { clientNotFound } from '../auth/guards.js';
import type { SessionUser } from '../auth/session.js';
import { fullNameOf } from '../auth/session.js';
import { revokeAllSessionsOfUser } from '../auth/sessions-repo.js';
import type { AppDeps } from '../deps.js';
import { badRequest, conflict } from '../errors.js';
import { fromHalfStars } from '../rating/schema.js';
import { listWeights } from '../weight/repo.js';
import { changedFields, recordAudit } from '../audit/record.js';
import { markBookingConverted } from '../consultation/repo.js';
import { mapPage, type PageRequest } from '../db/paging.js';
import { createSetPasswordLink, welcomeMail } from './invite.js';
import type { ClientDetail, ClientFormValues, ClientSearch } from './schema.js';

export const newUserInput = z.object({
  email: emailText().pipe(z.email('Enter a valid email address')),
  password: newPasswordField.optional(),
  firstName: requiredText('First name is required', 100),
  lastName: optionalText('Last name', 100).transform((v) => v ?? ''),
  role: z.union([z.literal(ROLE.admin), z.literal(ROLE.client)]),
  heightM: heightMetres.optional(),
  weightKg: weightKilograms.optional(),
  phone: optionalText('Phone', 20).transform((v) => v ?? undefined),
  conditionNotes: optionalText('Condition notes', 5000, { multiline: true }).transform((v) => v ?? undefined),
});
export type NewUserInput = z.input<typeof newUserInput>;

/** Splits "First Middle Last" into first name and the rest. */
export function splitFullName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/);
  return { firstName: parts[0] ?? '', lastName: parts.slice(1).join(' ') };
}

export async function createUser(db: Db, raw: NewUserInput) {
  const input = await newUserInput.parseAsync(raw);
  const existing = await repo.findUserIdByEmail(db, input.email);
  if (existing) throw conflict(`An account with the email ${input.email} already exists.`);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  try {
    return await repo.insertUser(db, {
      email: input.email,
      first_name: input.firstName,
      last_name: input.lastName,
      role: input.role,
      password_hash: passwordHash,
      height_m: input.heightM ?? null,
      weight_kg: input.weightKg ?? null,
      phone: input.phone ?? null,
      condition_notes: input.conditionNotes ?? null,
    });
  } catch (err) {
    // Two creators racing on the same email: the unique index decides.
    if ((err as { code?: string }).code === '23505') throw conflict(`An account with the email ${input.email} already exists.`);
    throw err;
  }
}

/* The console's side: a dietitian lists, creates, edits, deactivates and invites clients. */

type Deps = Pick<AppDeps, 'db' | 'mailer' | 'config'>;

type SummaryRow = Awaited<ReturnType<typeof repo.pageClients>>['items'][number];
const toSummary = (r: SummaryRow) => ({
  id: r.id,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  fullName: fullNameOf(r),
  phone: r.phone,
  isActive: r.is_active,
  hasPassword: Boolean(r.has_password),
  createdAt: r.created_at,
});

export async function listClients(db: Db, input: PageRequest & ClientSearch) {
  return mapPage(await repo.pageClients(db, input), toSummary);
}

export async function getClient(db: Db, input: { id: number }): Promise<ClientDetail> {
  const { id } = input;
  const [row, rating, booking] = await Promise.all([repo.findClient(db, id), repo.ratingOf(db, id), repo.bookingOf(db, id)]);
  if (!row) throw clientNotFound('id');
  return {
    ...toSummary(row),
    heightM: row.height_m,
    weightKg: row.weight_kg,
    conditionNotes: row.condition_notes,
    rating: rating
      ? {
          id: rating.id,
          stars: fromHalfStars(rating.half_stars),
          comment: rating.comment,
          isPublished: rating.is_published,
          createdAt: rating.created_at,
        }
      : null,
    bookingId: booking?.id ?? null,
  };
}

/** Oldest first, for the weight chart (bounded like the client's own history). */
export async function clientWeights(db: Db, input: { id: number }) {
  const { id } = input;
  if (!(await repo.findClient(db, id))) throw clientNotFound('id');
  const rows = await listWeights(db, id);
  return rows.reverse();
}

/**
 * Opens an account for a client, without a password: the welcome mail carries
 * a set-password link. A booking named in the input is marked converted in
 * the same transaction. The mail is sent once everything has committed.
 */
export async function createClient(deps: Deps, actor: SessionUser, input: ClientFormValues & { bookingId?: number }) {
  const { user, link } = await deps.db.transaction().execute(async (trx) => {
    const user = await createUser(trx, {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      role: ROLE.client,
      phone: input.phone ?? undefined,
      heightM: input.heightM ?? undefined,
      weightKg: input.weightKg ?? undefined,
      conditionNotes: input.conditionNotes ?? undefined,
    });
    if (input.bookingId !== undefined) {
      const booking = await markBookingConverted(trx, input.bookingId, user.id);
      if (!booking) {
        const message = 'That booking does not exist, or was already converted or closed.';
        throw badRequest(message, { bookingId: [message] });
      }
      await recordAudit(trx, actor, {
        action: 'booking.converted',
        entity: 'booking',
        entityId: booking.id,
        summary: `Converted booking #${booking.id} (${booking.name}) into client #${user.id}`,
        details: { clientId: user.id, from: booking.previousStatus },
      });
    }
    const link = await createSetPasswordLink(trx, deps, user.id);
    await recordAudit(trx, actor, {
      action: 'client.created',
      entity: 'client',
      entityId: user.id,
      summary: `Created client ${fullNameOf(user)} <${user.email}> and mailed a set-password link`,
      details: {
        email: user.email,
        phone: input.phone,
        heightM: input.heightM,
        weightKg: input.weightKg,
        bookingId: input.bookingId ?? null,
      },
    });
    return { user, link };
  });
  const sent = await deps.mailer.send(welcomeMail({ to: user.email, firstName: user.first_name, link, dietitianName: actor.fullName }));
  return {
    id: user.id,
    outboxId: sent.id,
    message:
      sent.status === 'failed'
        ? `${fullNameOf(user)} was added, but the welcome mail could not be sent. See the outbox, then resend the link.`
        : `${fullNameOf(user)} was added and a link to set a password was mailed to ${user.email}.`,
  };
}

export async function updateClient(db: Db, actor: SessionUser, input: ClientFormValues & { id: number }) {
  return db.transaction().execute(async (trx) => {
    const before = await repo.findClientForUpdate(trx, input.id);
    if (!before) throw clientNotFound('id');
    if (await repo.emailTakenByOther(trx, input.email, input.id)) {
      const message = `Another account already uses ${input.email}.`;
      throw conflict(message);
    }
    const after = {
      email: input.email,
      first_name: input.firstName,
      last_name: input.lastName,
      phone: input.phone,
      height_m: input.heightM ?? null,
      weight_kg: input.weightKg ?? null,
      condition_notes: input.conditionNotes,
    };
    const changes = changedFields(before, after);
    if (Object.keys(changes).length === 0) return { message: 'Nothing changed.' };
    await repo.updateClient(trx, input.id, after);
    await recordAudit(trx, actor, {
      action: 'client.updated',
      entity: 'client',
      entityId: input.id,
      summary: `Updated ${Object.keys(changes).join(', ')} of client ${input.firstName} ${input.lastName}`.trim(),
      details: changes,
    });
    return { message: 'The client’s details were saved.' };
  });
}

/** Deactivating refuses sign-in (auth checks is_active) and ends every session at once. */
export async function setClientActive(db: Db, actor: SessionUser, input: { id: number; active: boolean }) {
  return db.transaction().execute(async (trx) => {
    const before = await repo.findClientForUpdate(trx, input.id);
    if (!before) throw clientNotFound('id');
    const name = fullNameOf(before);
    if (before.is_active === input.active) {
      return { message: input.active ? `${name} is already active.` : `${name} is already deactivated.` };
    }
    await repo.updateClient(trx, input.id, { is_active: input.active });
    if (!input.active) await revokeAllSessionsOfUser(trx, input.id);
    await recordAudit(trx, actor, {
      action: input.active ? 'client.reactivated' : 'client.deactivated',
      entity: 'client',
      entityId: input.id,
      summary: input.active ? `Reactivated client ${name}` : `Deactivated client ${name} and ended their sessions`,
    });
    return {
      message: input.active ? `${name} can sign in again.` : `${name} was deactivated and signed out everywhere.`,
    };
  });
}

/** A fresh set-password link (the first one expired or was lost). */
export async function resendInvite(deps: Deps, actor: SessionUser, input: { id: number }) {
  const { id } = input;
  const { client, link } = await deps.db.transaction().execute(async (trx) => {
    const client = await repo.findClientForUpdate(trx, id);
    if (!client) throw clientNotFound('id');
    if (!client.is_active) throw badRequest('Reactivate this client before sending a set-password link.');
    const link = await createSetPasswordLink(trx, deps, id);
    await recordAudit(trx, actor, {
      action: 'client.invite_sent',
      entity: 'client',
      entityId: id,
      summary: `Mailed a new set-password link to ${client.email}`,
    });
    return { client, link };
  });
  const sent = await deps.mailer.send(welcomeMail({ to: client.email, firstName: client.first_name, link, dietitianName: actor.fullName }));
  return {
    outboxId: sent.id,
    message:
      sent.status === 'failed' ? 'The mail could not be sent. See the outbox.' : `A new set-password link was mailed to ${client.email}.`,
  };
}
