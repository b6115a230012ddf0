import { createDecipheriv, createECDH, createHmac, createPublicKey, type ECDH, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

/**
 * A push service and a browser, both run by the test itself on 127.0.0.1
 * (allowed only with PUSH_ALLOW_INSECURE_ENDPOINTS=true): the browser's keys
 * are made here (P-256 and a 16-byte auth secret), and each request the
 * server sends is checked (VAPID signature) and decrypted here with
 * node:crypto as RFC 8291 says (aes128gcm, RFC 8188).
 */

export type Received = { path: string; headers: http.IncomingHttpHeaders; body: Buffer };

/** The local push service: records every request, answers 201 unless told otherwise for a path. */
export function startPushService() {
  const received: Received[] = [];
  const answers = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = answers.get(req.url ?? '') ?? 201;
      res.end();
    });
  });
  return new Promise<{ url: string; received: Received[]; answers: Map<string, number>; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        received,
        answers,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}

/** What a browser holds for one subscription: its ECDH key pair and auth secret. */
export type Browser = { ecdh: ECDH; auth: Buffer; endpoint: string; keys: { p256dh: string; auth: string } };
export function makeBrowser(endpoint: string): Browser {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 §3.4 + RFC 8188: decrypts an aes128gcm push message body as the browser would. */
export function decryptPush(browser: Browser, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  expect(recordSize).toBeGreaterThanOrEqual(ciphertext.length);
  const ecdhSecret = browser.ecdh.computeSecret(serverPublic);
  const prkKey = hmac(browser.auth, ecdhSecret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.ecdh.getPublicKey(), serverPublic, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then any padding zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString('utf8');
}

/** Checks the VAPID header (RFC 8292): signed with the key the server publishes, for the push service's origin. */
export function checkVapid(headers: http.IncomingHttpHeaders, publicKey: string, audience: string) {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(String(headers.authorization));
  expect(match).not.toBeNull();
  const [, jwt, k] = match!;
  expect(k).toBe(publicKey);
  const [head, claims, signature] = jwt!.split('.');
  const raw = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature!, 'base64url'),
  );
  expect(signed).toBe(true);
  const payload = JSON.parse(Buffer.from(claims!, 'base64url').toString('utf8'));
  expect(payload.aud).toBe(audience);
  expect(payload.exp * 1000).toBeGreaterThan(Date.now());
}
