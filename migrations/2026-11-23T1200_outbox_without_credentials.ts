import { type Kysely, sql } from 'kysely';

/**
 * Mail kept before this release still holds password and set-password links
 * in the outbox, readable by every dietitian. Hide them: the recipients can
 * ask for a new link (or the console sends one).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update outbox
    set body_text = regexp_replace(
      body_text,
      '\\S*/reset-password\\?token=\\S+',
      '[link hidden: only the recipient receives it; send a new one from the console]',
      'g'
    )
    where body_text like '%/reset-password?token=%'
  `.execute(db);
}

export async function down(): Promise<void> {
  // The links are gone for good, as intended.
}
