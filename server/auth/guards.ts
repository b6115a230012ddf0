import { badRequest, forbidden, notFound } from '../errors.js';
import { ROLE } from './roles.js';
import type { SessionUser } from './session.js';

/**
 * A client may only name itself; an admin may act for any client.
 * Returns the id to act on (the caller's own when none is given).
 */
export function actingFor(actor: SessionUser, userId: number | undefined): number {
  if (userId === undefined || userId === actor.id) return actor.id;
  if (actor.role === ROLE.admin) return userId;
  throw forbidden('You can only access your own data.');
}

/**
 * For calls about a client's data: clients act for themselves; an admin must
 * name the client, who must exist.
 */
export async function clientToActFor(
  actor: SessionUser,
  userId: number | undefined,
  field: string,
  exists: (id: number) => Promise<boolean>,
): Promise<number> {
  if (actor.role === ROLE.admin && userId === undefined) {
    throw badRequest(`${field} is required`, { [field]: [`${field} is required`] });
  }
  const id = actingFor(actor, userId);
  if (actor.role === ROLE.admin && !(await exists(id))) throw notFound('That client does not exist.');
  return id;
}
