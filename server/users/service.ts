import { z } from 'zod';
import type { Db } from '../db/index.js';
import { conflict } from '../errors.js';
import { hashPassword } from '../auth/password.js';
import { ROLE } from '../auth/roles.js';
import { heightMetres, weightKilograms } from '../measurements/schema.js';
// The password rule lives in the zod-only auth schema so the password forms can import it.
import { newPasswordField } from '../auth/schema.js';
import * as repo from './repo.js';
import { emailText, optionalText, requiredText } from '../validation.js';

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
