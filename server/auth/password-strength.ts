import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

/**
 * The common-password check behind the new-password rule (schema.ts). It
 * holds zxcvbn's lists of common passwords, words and keyboard patterns
 * (about 400 KB), so the schema loads it only when a new password is
 * checked: the browser fetches it as its own chunk on the set-password form.
 *
 * zxcvbn estimates how many guesses an attacker trying common passwords and
 * their variations (l33t, reversed, keyboard walks, dates) would need; score
 * 3 means at least 10^8 guesses, "safely unguessable" for an online attack.
 */
export const MIN_STRENGTH_SCORE = 3;

let checker: ZxcvbnFactory | null = null;

export function isEasyToGuess(password: string): boolean {
  checker ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  return checker.check(password).score < MIN_STRENGTH_SCORE;
}
