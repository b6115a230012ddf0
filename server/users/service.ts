import { z } from 'zod';
import type { Db } from '../db/index.js';
import { conflict } from '../errors.js';
import { hashPassword } from '../auth/password.js';
import { ROLE } from '../auth/roles.js';
import { passwordField } from '../auth/schema.js';

// The password rule lives in the zod-only auth schema so the reset-password form can import it.
export { PASSWORD_MIN, passwordField } from '../auth/schema.js';

export const newUserInput = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .toLowerCase()
    .min(1, 'Email is required')
    .max(254)
    .pipe(z.email('Enter a valid email address')),
  password: passwordField.optional(),
  firstName: z.string().trim().min(1, 'First name is required').max(100),
  lastName: z.string().trim().max(100).default(''),
  role: z.union([z.literal(ROLE.admin), z.literal(ROLE.client)]),
  heightM: z.number().gt(0.3, 'Height must be between 0.3 and 2.7 m').lt(2.7, 'Height must be between 0.3 and 2.7 m').optional(),
  weightKg: z.number().gt(1, 'Weight must be between 1 and 500 kg').lte(500, 'Weight must be between 1 and 500 kg').optional(),
  phone: z.string().trim().max(20).optional(),
  conditionNotes: z.string().trim().max(5000).optional(),
});
export type NewUserInput = z.input<typeof newUserInput>;

/** Splits "First Middle Last" into first name and the rest. */
export function splitFullName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/);
  return { firstName: parts[0] ?? '', lastName: parts.slice(1).join(' ') };
}

export async function createUser(db: Db, raw: NewUserInput) {
  const input = newUserInput.parse(raw);
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', input.email))
    .executeTakeFirst();
  if (existing) throw conflict(`An account with the email ${input.email} already exists.`);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  try {
    return await db
      .insertInto('users')
      .values({
        email: input.email,
        first_name: input.firstName,
        last_name: input.lastName,
        role: input.role,
        password_hash: passwordHash,
        height_m: input.heightM ?? null,
        weight_kg: input.weightKg ?? null,
        phone: input.phone ?? null,
        condition_notes: input.conditionNotes ?? null,
      })
      .returning(['id', 'email', 'first_name', 'last_name', 'role'])
      .executeTakeFirstOrThrow();
  } catch (err) {
    // Two creators racing on the same email: the unique index decides.
    if ((err as { code?: string }).code === '23505') throw conflict(`An account with the email ${input.email} already exists.`);
    throw err;
  }
}
