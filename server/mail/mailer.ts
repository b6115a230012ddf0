import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../observability/metrics.js';
import { randomUUID } from 'node:crypto';
import * as repo from './repo.js';

/** `html`, when given, is sent as the alternative to the plain text (see compose.ts). */
export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * Parts only the recipient may see (a password link is a credential). They
   * are delivered, but never stored in the outbox or logged: there the mail
   * reads HIDDEN_IN_OUTBOX instead.
   */
  sensitive?: string[];
  /** Files sent with the mail (an appointment's .ics invitation); kept in the outbox so a retry sends them too. */
  attachments?: MailAttachment[];
};

/** A small text file attached to a mail; never health data (it is kept in the outbox as it is). */
export type MailAttachment = { filename: string; contentType: string; content: string };

export const HIDDEN_IN_OUTBOX = '[link hidden: only the recipient receives it; send a new one from the console]';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function hide(body: string, sensitive: string[], html: boolean): string {
  let out = body;
  for (const secret of sensitive) {
    if (!secret) continue;
    out = out.split(secret).join(html ? escapeHtml(HIDDEN_IN_OUTBOX) : HIDDEN_IN_OUTBOX);
    if (html) out = out.split(escapeHtml(secret)).join(escapeHtml(HIDDEN_IN_OUTBOX));
  }
  return out;
}

/** The mail as the outbox keeps it: sensitive parts hidden in both bodies. */
export function redacted(mail: Mail): { text: string; html: string | null } {
  const sensitive = mail.sensitive ?? [];
  return { text: hide(mail.text, sensitive, false), html: mail.html == null ? null : hide(mail.html, sensitive, true) };
}

/**
 * Local delivery when there is no SMTP_URL: production logs only that a mail
 * was kept (never its body); a test process passes a sink that captures the
 * whole mail, the way a real mailbox would receive it.
 */
export type MailSink = (mail: Mail & { outboxId: number }) => void;

/**
 * How a delivery ended; 'queued' when the sender found its lease taken over
 * before it sent (it stalled past MAIL_LEASE_SECONDS, and the sweep or a
 * retry delivers the mail instead).
 */
export type Delivery = { id: number; status: 'sent' | 'failed' | 'logged' | 'queued' };

/** A mail written to the outbox and leased to its writer for delivery. */
export type RecordedMail = { id: number; claimToken: string };

export interface Mailer {
  /** Records the mail in the outbox, then delivers it (SMTP) or logs it (no SMTP). Never throws on delivery failure. */
  send(mail: Mail): Promise<Delivery>;
  /**
   * Records the mail in the outbox and delivers it in the background. For
   * public endpoints: the answer must not wait on (or reveal, by its timing)
   * an SMTP round trip. The outbox row shows how delivery went.
   */
  queue(mail: Mail): Promise<{ id: number }>;
  /**
   * Delivers a mail already written to the outbox with recordMail, in the
   * background like queue(). For mail that must be recorded in the same
   * transaction as the change it reports (a reminder sent exactly once).
   */
  deliverRecorded(recorded: RecordedMail, mail: Mail): void;
  /** Resolves when every queued delivery has finished (for shutdown and tests). */
  drain(): Promise<void>;
  /**
   * Delivers a failed mail again, or a queued one whose sender died before
   * sending it (its lease ran out); null when the mail is neither (delivered,
   * being delivered, or retried already).
   */
  retry(id: number): Promise<Delivery | null>;
  /**
   * Delivers (or, when it cannot be sent again, fails) every mail left queued
   * by a sender whose lease ran out: a process that stopped between writing a
   * mail and sending it. Run at start-up and with each reminder sweep.
   */
  sweepAbandoned(): Promise<{ delivered: number; failed: number }>;
}

/** Why a mail left behind with a hidden one-time link is failed rather than sent: the link was never stored. */
export const ABANDONED_WITH_HIDDEN_LINK =
  'Delivery was interrupted, and the one-time link in this mail is never stored, so it cannot be sent again. Send a new link from the console, or the recipient can use Forgot password.';
const ABANDONED_BATCH = 50;

/**
 * Writes a mail to the outbox as queued (sensitive parts hidden), in the
 * caller's transaction if it passes one, leased to the caller for delivery
 * (deliverRecorded); should the caller never deliver it, the sweep does.
 */
export async function recordMail(db: Db, mail: Mail): Promise<RecordedMail> {
  const kept = redacted(mail);
  const claimToken = randomUUID();
  const row = await repo.insertQueuedMail(
    db,
    {
      to_address: mail.to,
      subject: mail.subject,
      body_text: kept.text,
      body_html: kept.html,
      attachments: mail.attachments?.length ? JSON.stringify(mail.attachments) : null,
    },
    claimToken,
  );
  return { id: row.id, claimToken };
}

/**
 * Every mail is written to the outbox first (sensitive parts hidden), so the
 * back office can see what was sent; the whole mail exists only in memory on
 * its way to SMTP (or to the local sink without SMTP_URL).
 */
export function createMailer(opts: {
  db: Kysely<Database>;
  logger: Logger;
  smtpUrl?: string;
  from: string;
  metrics?: Metrics;
  sink?: MailSink;
}): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  const inFlight = new Set<Promise<unknown>>();

  const record = (mail: Mail) => recordMail(opts.db, mail);

  /**
   * Exactly once as far as this side can tell: the lease is checked (and
   * renewed) just before sending, so a sender that stalled past its lease
   * leaves the mail to whoever took it over; the outcome is recorded only
   * under the lease.
   */
  const deliver = async (claim: RecordedMail, mail: Mail): Promise<Delivery> => {
    const id = claim.id;
    if (!(await repo.renewMailClaim(opts.db, id, claim.claimToken))) {
      opts.logger.warn(`mail left to the sender that took it over (outbox #${id})`);
      return { id, status: 'queued' };
    }
    const settle = async (outcome: Parameters<typeof repo.settleMail>[3]) => {
      if (!(await repo.settleMail(opts.db, id, claim.claimToken, outcome)))
        opts.logger.warn(`mail delivered after its lease ran out (outbox #${id}): it may have gone out twice`);
      opts.metrics?.mailDelivered(outcome.status);
      return { id, status: outcome.status };
    };
    if (!transport) {
      // The body (it may hold a reset link) stays in the outbox, never in the log.
      opts.logger.info('mail kept in the outbox (no SMTP_URL)', { outboxId: id, subject: mail.subject });
      opts.sink?.({ ...mail, outboxId: id });
      return settle({ status: 'logged' });
    }
    try {
      await transport.sendMail({
        from: opts.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
      });
    } catch (err) {
      const message = (err as Error).message;
      opts.logger.warn(`mail delivery failed (outbox #${id})`, { error: message });
      return settle({ status: 'failed', error: message });
    }
    return settle({ status: 'sent', sent_at: new Date() });
  };

  const inBackground = <T>(what: string, work: Promise<T>) => {
    const job: Promise<unknown> = work
      .catch((err: Error) => opts.logger.warn(what, { error: err.message }))
      .finally(() => inFlight.delete(job));
    inFlight.add(job);
  };

  const deliverRecorded = (recorded: RecordedMail, mail: Mail) =>
    inBackground(`mail delivery failed (outbox #${recorded.id})`, deliver(recorded, mail));

  const stored = (row: {
    to_address: string;
    subject: string;
    body_text: string;
    body_html: string | null;
    attachments: MailAttachment[] | null;
  }): Mail => ({
    to: row.to_address,
    subject: row.subject,
    text: row.body_text,
    html: row.body_html ?? undefined,
    ...(row.attachments ? { attachments: row.attachments } : {}),
  });

  const sweepAbandoned = async () => {
    const done = { delivered: 0, failed: 0 };
    for (;;) {
      const claimToken = randomUUID();
      const rows = await repo.takeAbandonedMail(opts.db, claimToken, ABANDONED_BATCH);
      for (const row of rows) {
        const claim = { id: row.id, claimToken };
        const outcome = row.body_text.includes(HIDDEN_IN_OUTBOX)
          ? await repo.settleMail(opts.db, row.id, claimToken, { status: 'failed', error: ABANDONED_WITH_HIDDEN_LINK }).then(() => 'failed')
          : (await deliver(claim, stored(row))).status;
        if (outcome === 'failed') done.failed += 1;
        else done.delivered += 1;
      }
      if (rows.length < ABANDONED_BATCH) break;
    }
    if (done.delivered + done.failed > 0) opts.logger.info('mail left queued by a stopped sender, swept', done);
    return done;
  };

  return {
    async send(mail) {
      return deliver(await record(mail), mail);
    },
    async queue(mail) {
      const recorded = await record(mail);
      deliverRecorded(recorded, mail);
      return { id: recorded.id };
    },
    deliverRecorded,
    async drain() {
      await Promise.all([...inFlight]);
    },
    async retry(id) {
      const claimToken = randomUUID();
      const row = await repo.takeMailForRetry(opts.db, id, claimToken, HIDDEN_IN_OUTBOX);
      if (!row) return null;
      return deliver({ id: row.id, claimToken }, stored(row));
    },
    sweepAbandoned() {
      const sweep = sweepAbandoned();
      // Tracked so that shutdown (drain) waits for a sweep under way.
      inBackground('sweeping abandoned mail failed', sweep);
      return sweep;
    },
  };
}
