import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Logger } from '../logger.js';

export type Mail = { to: string; subject: string; text: string };

export interface Mailer {
  /** Records the mail in the outbox, then delivers it (SMTP) or logs it (no SMTP). Never throws on delivery failure. */
  send(mail: Mail): Promise<{ id: number; status: 'sent' | 'failed' | 'logged' }>;
  /**
   * Records the mail in the outbox and delivers it in the background. For
   * public endpoints: the answer must not wait on (or reveal, by its timing)
   * an SMTP round trip. The outbox row shows how delivery went.
   */
  queue(mail: Mail): Promise<{ id: number }>;
  /** Resolves when every queued delivery has finished (for shutdown and tests). */
  drain(): Promise<void>;
}

/**
 * Every mail is written to the outbox first, so the back office and tests can
 * read what was sent; without SMTP_URL the outbox and the log are the delivery.
 */
export function createMailer(opts: { db: Kysely<Database>; logger: Logger; smtpUrl?: string; from: string }): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  const inFlight = new Set<Promise<unknown>>();

  const record = (mail: Mail) =>
    opts.db
      .insertInto('outbox')
      .values({ to_address: mail.to, subject: mail.subject, body_text: mail.text, status: 'queued' })
      .returning('id')
      .executeTakeFirstOrThrow();

  const deliver = async (row: { id: number }, mail: Mail): Promise<{ id: number; status: 'sent' | 'failed' | 'logged' }> => {
    if (!transport) {
      opts.logger.info(`mail (no SMTP_URL, kept in outbox #${row.id}) to ${mail.to}: ${mail.subject}\n${mail.text}`);
      await opts.db.updateTable('outbox').set({ status: 'logged' }).where('id', '=', row.id).execute();
      return { id: row.id, status: 'logged' };
    }
    try {
      await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
      await opts.db.updateTable('outbox').set({ status: 'sent', sent_at: new Date() }).where('id', '=', row.id).execute();
      return { id: row.id, status: 'sent' };
    } catch (err) {
      const message = (err as Error).message;
      opts.logger.warn(`mail delivery failed (outbox #${row.id})`, { error: message });
      await opts.db.updateTable('outbox').set({ status: 'failed', error: message }).where('id', '=', row.id).execute();
      return { id: row.id, status: 'failed' };
    }
  };

  return {
    async send(mail) {
      return deliver(await record(mail), mail);
    },
    async queue(mail) {
      const row = await record(mail);
      const job = deliver(row, mail)
        .catch((err: Error) => opts.logger.warn(`mail delivery failed (outbox #${row.id})`, { error: err.message }))
        .finally(() => inFlight.delete(job));
      inFlight.add(job);
      return { id: row.id };
    },
    async drain() {
      await Promise.all([...inFlight]);
    },
  };
}
