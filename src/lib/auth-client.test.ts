import { observable } from '@trpc/server/observable';
import { afterEach, describe, expect, it } from 'vitest';
import { decryptPassword, generateRsaKeyPair, parseEncryptedPassword, publicJwk } from '../../server/auth/key-crypto';
import { encryptPassword, isHandled, signedOutPath, signingOutLink } from './auth-client';
import { session } from './session';

describe('encryptPassword', () => {
  it('produces enc:<kid>:<base64url> that the server decrypts back to the password', async () => {
    const { publicKey, privateKey } = await generateRsaKeyPair();
    const kid = 'test-kid_1';
    const password = 'pässwörd with ₹ and emoji 🙂';
    const sent = await encryptPassword({ kid, jwk: publicJwk(publicKey, kid) }, password);

    expect(sent).toMatch(/^enc:test-kid_1:[A-Za-z0-9_-]+$/);
    expect(sent).not.toContain(password);
    const parsed = parseEncryptedPassword(sent);
    expect(parsed?.kid).toBe(kid);
    expect(parsed?.ciphertext.byteLength).toBe(256);
    expect(decryptPassword(privateKey, parsed!.ciphertext)).toBe(password);
  });

  it('encrypts the same password differently each time (OAEP is randomised)', async () => {
    const { publicKey } = await generateRsaKeyPair();
    const key = { kid: 'k', jwk: publicJwk(publicKey, 'k') };
    expect(await encryptPassword(key, 'same')).not.toBe(await encryptPassword(key, 'same'));
  });
});

describe('signedOutPath', () => {
  it('sends the console back to its own sign-in and everything else to the root', () => {
    expect(signedOutPath('/admin')).toBe('/admin/login');
    expect(signedOutPath('/admin/clients/12')).toBe('/admin/login');
    expect(signedOutPath('/administrators')).toBe('/');
    expect(signedOutPath('/dashboard/feeds')).toBe('/');
    expect(signedOutPath('/login')).toBe('/');
  });
});

describe('signingOutLink', () => {
  afterEach(() => session.endSignOut());

  /** Runs one operation through the link; `sent` lists what reached the next link (the network). */
  function run(path: string) {
    const sent: string[] = [];
    const link = signingOutLink()({} as never);
    const op = { id: 1, type: 'query', path, input: undefined, context: {}, signal: null } as never;
    return new Promise<{ sent: string[]; error: unknown }>((resolve) => {
      link({
        op,
        next: (o: { path: string }) =>
          observable((observer) => {
            sent.push(o.path);
            observer.next({ result: { type: 'data', data: 'ok' } } as never);
            observer.complete();
          }),
      } as never).subscribe({
        error: (error) => resolve({ sent, error }),
        complete: () => resolve({ sent, error: null }),
      });
    });
  }

  it('sends everything while nobody is signing out', async () => {
    expect(await run('feed.list')).toEqual({ sent: ['feed.list'], error: null });
  });

  it('while signing out, sends the sign-out only: any other call fails here, unsent and handled (no toast)', async () => {
    session.beginSignOut();
    const refused = await run('feed.list');
    expect(refused.sent).toEqual([]);
    expect(isHandled(refused.error)).toBe(true);
    expect(await run('auth.signOut')).toEqual({ sent: ['auth.signOut'], error: null });
    session.endSignOut();
    expect((await run('feed.list')).sent).toEqual(['feed.list']);
  });
});
