import { type Kysely, sql } from 'kysely';

/**
 * A UTR names one bank transfer, so it backs one open or confirmed claim; a
 * rejected claim lets its UTR go. Before, every claim held its UTR for good,
 * so a mistyped or wrongly used UTR, once rejected, refused the payer whose
 * transfer it really is. Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payment_claims drop constraint payment_claims_utr_key`.execute(db);
  await sql`create unique index payment_claims_utr_open_once on payment_claims (utr) where state in ('pending', 'confirmed')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists payment_claims_utr_open_once`.execute(db);
  await sql`alter table payment_claims add constraint payment_claims_utr_key unique (utr)`.execute(db);
}
