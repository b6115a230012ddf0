import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../seed/demo.js';
import { PASSWORD_TOO_COMMON, PASSWORD_TOO_SHORT, newPasswordField, signInInput } from './schema.js';

const problems = async (password: string) => {
  const result = await newPasswordField.safeParseAsync(password);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe('newPasswordField', () => {
  it('refuses fewer than 10 characters with one message', async () => {
    expect(await problems('abc12345!')).toEqual([PASSWORD_TOO_SHORT]);
    expect(PASSWORD_TOO_SHORT).toBe('Password must be at least 10 characters');
  });

  it.each(['password123', 'qwertyuiop', '1234567890', 'iloveyou12', 'Password1!', 'P@ssw0rd2024'])(
    'refuses the common password %s',
    async (p) => {
      expect(await problems(p)).toEqual([PASSWORD_TOO_COMMON]);
    },
  );

  it.each(['correct horse 42', 'a-fresh-start-2026', 'brand-new-pass', 'yet-another-password'])('accepts %s', async (p) => {
    expect(await problems(p)).toEqual([]);
  });

  it('accepts the demo accounts’ passwords listed in the README', async () => {
    for (const account of DEMO_ACCOUNTS) expect(await problems(account.password)).toEqual([]);
  });

  it('leaves sign-in alone: an old short password still parses', () => {
    expect(signInInput.parse({ email: 'a@b.c', password: 'short', role: 2 }).password).toBe('short');
  });
});
