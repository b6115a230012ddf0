import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../observability/metrics.js';
import { requeueFailedMail } from './repo.js';

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
};

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

export interface Mailer {
  /** Records the mail in the outbox, then delivers it (SMTP) or logs it (no SMTP). Never throws on delivery failure. */
  send(mail: Mail): Promise<{ id: number; status: 'sent' | 'failed' | 'logged' }>;
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
  deliverRecorded(outboxId: number, mail: Mail): void;
  /** Resolves when every queued delivery has finished (for shutdown and tests). */
  drain(): Promise<void>;
  /** Delivers a failed outbox mail again; null when that mail is not failed (already retried, or delivered). */
  retry(id: number): Promise<{ id: number; status: 'sent' | 'failed' | 'logged' } | null>;
}

/** Writes a mail to the outbox as queued (sensitive parts hidden), in the caller's transaction if it passes one. */
export function recordMail(db: Db, mail: Mail) {
  const kept = redacted(mail);
  return db
    .insertInto('outbox')
    .values({ to_address: mail.to, subject: mail.subject, body_text: kept.text, body_html: kept.html, status: 'queued' })
    .returning('id')
    .executeTakeFirstOrThrow();
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

  const deliver = async (row: { id: number }, mail: Mail): Promise<{ id: number; status: 'sent' | 'failed' | 'logged' }> => {
    if (!transport) {
      // The body (it may hold a reset link) stays in the outbox, never in the log.
      opts.logger.info('mail kept in the outbox (no SMTP_URL)', { outboxId: row.id, subject: mail.subject });
      opts.sink?.({ ...mail, outboxId: row.id });
      await opts.db.updateTable('outbox').set({ status: 'logged' }).where('id', '=', row.id).execute();
      opts.metrics?.mailDelivered('logged');
      return { id: row.id, status: 'logged' };
    }
    try {
      await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      await opts.db.updateTable('outbox').set({ status: 'sent', sent_at: new Date() }).where('id', '=', row.id).execute();
      opts.metrics?.mailDelivered('sent');
      return { id: row.id, status: 'sent' };
    } catch (err) {
      const message = (err as Error).message;
      opts.logger.warn(`mail delivery failed (outbox #${row.id})`, { error: message });
      await opts.db.updateTable('outbox').set({ status: 'failed', error: message }).where('id', '=', row.id).execute();
      opts.metrics?.mailDelivered('failed');
      return { id: row.id, status: 'failed' };
    }
  };

  const deliverRecorded = (outboxId: number, mail: Mail) => {
    const job: Promise<unknown> = deliver({ id: outboxId }, mail)
      .catch((err: Error) => opts.logger.warn(`mail delivery failed (outbox #${outboxId})`, { error: err.message }))
      .finally(() => inFlight.delete(job));
    inFlight.add(job);
  };

  return {
    async send(mail) {
      return deliver(await record(mail), mail);
    },
    async queue(mail) {
      const row = await record(mail);
      deliverRecorded(row.id, mail);
      return { id: row.id };
    },
    deliverRecorded,
    async drain() {
      await Promise.all([...inFlight]);
    },
    async retry(id) {
      const row = await requeueFailedMail(opts.db, id, HIDDEN_IN_OUTBOX);
      if (!row) return null;
      return deliver(row, { to: row.to_address, subject: row.subject, text: row.body_text });
    },
  };
}
