import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Kysely } from 'kysely';
import webpush from 'web-push';
import type { Database } from '../db/schema.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Logger } from '../logger.js';
import { type EndpointPolicy, RefusedEndpointError, endpointProblem, guardedLookup, literalHostProblem } from './endpoint.js';
import * as repo from './repo.js';
import type { VapidKeys } from './vapid.js';

/**
 * Sends push deliveries (decision 115). Each delivery row (one notification,
 * one device) is sent by a job; the row, not the job, is the truth:
 * - an attempt claims the row under a lease, so a job run twice, two
 *   instances, or a job the queue hands out again after a restart send it
 *   once; a sender that stopped mid-attempt leaves the row to the sweep once
 *   its lease runs out (the push service then sees the same Topic, which
 *   replaces a copy still waiting there, and the phone the same tag);
 * - 201/202 settles it sent; 404/410 means the browser dropped the
 *   subscription: it is deleted; 429, 5xx and network errors are tried again
 *   after 30 s, 1, 2, 4 min (PUSH_ATTEMPTS in all), then it is failed and
 *   counted on the console's health card; an endpoint the policy refuses is
 *   failed at once, without a connection.
 */
export const PUSH_DELIVERY_JOB = 'push-delivery';
export const PUSH_SWEEP_JOB = 'push-sweep';
export const PUSH_ATTEMPTS = 5;
const LEASE_SECONDS = 60;
const REQUEST_TIMEOUT_MS = 10_000;
const SWEEP_BATCH = 100;
export const retryDelaySeconds = (attempt: number) => 30 * 2 ** (attempt - 1);

export type PushDeps = { db: Kysely<Database>; logger: Logger; vapid: VapidKeys; policy: EndpointPolicy };
/** How an attempt ended; a retry says when the next attempt is due. */
export type PushOutcome = 'sent' | 'gone' | 'failed' | 'dropped' | 'skipped' | { retryInSeconds: number };

/** The push service's answer, or why no request was made. */
type Answer = { status: number; body: string } | { refused: string };

/** Topic: the same for every attempt at one notification, so the push service keeps one copy (RFC 8030 §5.4). */
const topicOf = (notificationKey: string) => createHash('sha256').update(notificationKey).digest('base64url').slice(0, 32);

function post(endpoint: URL, details: webpush.RequestDetails, policy: EndpointPolicy): Promise<Answer> {
  const literal = literalHostProblem(endpoint, policy);
  if (literal) return Promise.resolve({ refused: literal });
  const client = endpoint.protocol === 'http:' ? http : https;
  return new Promise((resolve, reject) => {
    const req = client.request(
      endpoint,
      { method: 'POST', headers: details.headers, lookup: guardedLookup(policy), timeout: REQUEST_TIMEOUT_MS, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (body.length < 2000) body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('the push service did not answer in time')));
    req.on('error', (err) => (err instanceof RefusedEndpointError ? resolve({ refused: err.message }) : reject(err)));
    req.end(details.body ?? undefined);
  });
}

/** One attempt at one delivery; what became of it. */
export async function deliverPush(deps: PushDeps, deliveryId: number): Promise<PushOutcome> {
  const claim = await repo.claimDelivery(deps.db, deliveryId, LEASE_SECONDS);
  if (!claim) return 'skipped';
  const sub = claim.subscription_id === null ? undefined : await repo.findSubscription(deps.db, claim.subscription_id);
  if (!sub) {
    await repo.settleDelivery(deps.db, claim.id, 'dropped', 'the device unsubscribed or signed out first');
    return 'dropped';
  }
  const problem = endpointProblem(sub.endpoint, deps.policy);
  if (problem) return fail(deps, claim.id, `refused: ${problem}`);
  let answer: Answer;
  try {
    const details = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      JSON.stringify(claim.payload),
      {
        vapidDetails: { subject: deps.vapid.subject, publicKey: deps.vapid.publicKey, privateKey: deps.vapid.privateKey },
        TTL: claim.ttl_seconds,
        urgency: claim.urgency,
        topic: topicOf(claim.notification_key),
        contentEncoding: 'aes128gcm',
      },
    );
    answer = await post(new URL(sub.endpoint), details, deps.policy);
  } catch (err) {
    return retryOrFail(deps, claim, (err as Error).message);
  }
  if ('refused' in answer) return fail(deps, claim.id, `refused: ${answer.refused}`);
  if (answer.status >= 200 && answer.status < 300) {
    await repo.settleDelivery(deps.db, claim.id, 'sent', null);
    return 'sent';
  }
  if (answer.status === 404 || answer.status === 410) {
    // The browser has dropped this subscription for good: forget the device (its other deliveries are dropped).
    await repo.settleDelivery(deps.db, claim.id, 'gone', `push service answered ${answer.status}`);
    await repo.deleteSubscription(deps.db, sub.id);
    return 'gone';
  }
  const error = `push service answered ${answer.status}${answer.body ? `: ${answer.body.slice(0, 200)}` : ''}`;
  if (answer.status === 429 || answer.status >= 500) return retryOrFail(deps, claim, error);
  // 400, 401, 403, 413...: sending the same request again would not help.
  return fail(deps, claim.id, error);
}

async function fail(deps: PushDeps, id: number, error: string): Promise<PushOutcome> {
  await repo.settleDelivery(deps.db, id, 'failed', error);
  deps.logger.warn(`push delivery failed (#${id})`, { error });
  return 'failed';
}

async function retryOrFail(deps: PushDeps, claim: { id: number; attempts: number }, error: string): Promise<PushOutcome> {
  if (claim.attempts >= PUSH_ATTEMPTS) return fail(deps, claim.id, error);
  const retryInSeconds = retryDelaySeconds(claim.attempts);
  await repo.deliverLater(deps.db, claim.id, retryInSeconds, error);
  return { retryInSeconds };
}

/** Queues a job per delivery (after the transaction that recorded them committed). */
export async function enqueuePushDeliveries(jobs: JobQueue, ids: number[], startAfterSeconds?: number) {
  for (const id of ids) await jobs.send(PUSH_DELIVERY_JOB, { deliveryId: id }, { startAfterSeconds });
}

/** Sends every delivery that is due and has no job: queued before a stop, or left by a sender whose lease ran out. */
export async function sweepPushDeliveries(deps: PushDeps): Promise<number> {
  let sent = 0;
  for (const { id } of await repo.owedDeliveries(deps.db, SWEEP_BATCH)) {
    if ((await deliverPush(deps, id)) === 'sent') sent += 1;
  }
  return sent;
}

/** The delivery job (a retry queues the next attempt with its delay) and the sweep, every minute. */
export async function schedulePush(jobs: JobQueue, deps: PushDeps) {
  await jobs.define(PUSH_DELIVERY_JOB, async (data) => {
    const id = Number(data.deliveryId);
    if (!Number.isInteger(id)) return;
    const outcome = await deliverPush(deps, id);
    if (typeof outcome === 'object') await enqueuePushDeliveries(jobs, [id], outcome.retryInSeconds);
  });
  await jobs.define(PUSH_SWEEP_JOB, async () => void (await sweepPushDeliveries(deps)), { everyMinutes: 1 });
}
