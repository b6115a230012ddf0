import type { Db } from '../db/index.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { findClientAccount } from '../users/repo.js';
import { ROLE } from './roles.js';
import type { SessionUser } from './session.js';

/** The one answer when a named client does not exist: 404, naming the field that held the id. */
export const CLIENT_MISSING = 'That client does not exist.';
export const clientNotFound = (field: string) => notFound(CLIENT_MISSING, { [field]: [CLIENT_MISSING] });

/**
 * A client may only name itself; an admin may act for any client.
 * Returns the id to act on (the caller's own when none is given).
 */
export function actingFor(actor: SessionUser, userId: number | undefined): number {
  if (userId === undefined || userId === actor.id) return actor.id;
  if (actor.role === ROLE.admin) return userId;
  throw forbidden('You can only access your own data.');
}

/** Checks that a client account (role 2, active or not) has this id; 404 otherwise. */
export async function requireClient(db: Db, clientId: number, field: string): Promise<void> {
  if (!(await findClientAccount(db, clientId))) throw clientNotFound(field);
}

/**
 * The guard for every call about a client's data: a client acts for itself
 * (naming another client is 403); a dietitian must name the client, who must exist (404).
 */
export async function clientToActFor(db: Db, actor: SessionUser, userId: number | undefined, field: string): Promise<number> {
  if (actor.role === ROLE.admin && userId === undefined) {
    throw badRequest(`${field} is required`, { [field]: [`${field} is required`] });
  }
  const id = actingFor(actor, userId);
  if (actor.role === ROLE.admin) await requireClient(db, id, field);
  return id;
}
