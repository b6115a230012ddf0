import { type Kysely, sql } from 'kysely';

/**
 * Sends that arrive together are stored in one call (decision 124):
 * `message_send_batch` runs `message_send` for each send of a batch, in one
 * transaction, and answers each send's row with its place in the batch
 * (`idx`, from 1). Each send keeps every rule of its own (repeat check, rate
 * limit, office hours, who may write, read mark, NOTIFY, pushes, away reply);
 * what the batch saves is the round trip, the statement and the commit per send.
 *
 * Locks are taken in one order by every batch, so two batches (on two
 * instances) never wait on each other in a circle: first every sender's
 * rate-limit lock, by key; then the conversations, by id (a sender's sends to
 * one conversation keep their order). A single send takes the same two locks
 * in the same order (its sender's, then its conversation's).
 *
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function message_send_batch(p_sends jsonb, p_channel text)
    returns table (
      idx integer, outcome text, full_at timestamptz, client_id integer, push_ids integer[],
      id integer, conversation_id integer, seq integer, sender_id integer, sender_role text,
      client_message_id uuid, text text, sent_at timestamptz, sender_first text, sender_last text)
    language plpgsql volatile as $$
    declare
      s record;
    begin
      perform pg_advisory_xact_lock(l.k)
         from (select distinct hashtextextended(b.bucket, 0) as k
                 from jsonb_to_recordset(p_sends) as b(bucket text) order by 1) l;
      for s in
        select * from rows from (jsonb_to_recordset(p_sends) as (
            conversation_id integer, sender_id integer, sender_role text, client_message_id uuid, text text,
            at timestamptz, bucket text, limit_max integer, limit_window_ms bigint, hours_version text,
            away_until timestamptz, away_text text, push jsonb))
          with ordinality as x(conversation_id, sender_id, sender_role, client_message_id, text, at, bucket, limit_max,
                               limit_window_ms, hours_version, away_until, away_text, push, n)
         order by x.conversation_id, x.n
      loop
        return query select s.n::integer, m.*
          from message_send(s.conversation_id, s.sender_id, s.sender_role, s.client_message_id, s.text, s.at,
                            s.bucket, s.limit_max, s.limit_window_ms, s.hours_version, s.away_until, s.away_text,
                            s.push, p_channel) m;
      end loop;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists message_send_batch(jsonb, text)`.execute(db);
}
