import type { Db } from '../db/index.js';
import { unauthorized } from '../errors.js';
import { fullNameOf, type SessionUser } from '../auth/session.js';
import * as repo from './repo.js';
import type { UpdateProfileInput } from './schema.js';

/** The signed-in user's own profile. Health data: only its owner reads or changes it here. */

const GONE = 'Your session has expired. Please sign in again.';

type ProfileRow = NonNullable<Awaited<ReturnType<typeof repo.findProfile>>>;
const toProfile = (row: ProfileRow) => ({
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  fullName: fullNameOf(row),
  phone: row.phone,
  heightM: row.height_m,
  weightKg: row.weight_kg,
});

export async function getProfile(db: Db, actor: SessionUser) {
  const row = await repo.findProfile(db, actor.id);
  if (!row) throw unauthorized(GONE);
  return toProfile(row);
}

/** Changes only the fields sent; the others keep their saved values. */
export async function updateProfile(db: Db, actor: SessionUser, input: UpdateProfileInput) {
  const row = await repo.updateProfile(db, actor.id, {
    first_name: input.firstName,
    last_name: input.lastName,
    phone: input.phone,
    height_m: input.heightM,
    weight_kg: input.weightKg,
  });
  if (!row) throw unauthorized(GONE);
  return { message: 'Your profile has been saved.', data: toProfile(row) };
}
