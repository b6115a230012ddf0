import { type Kysely, sql } from 'kysely';

/**
 * A message is sent in one call to the database (decision 123): `message_send`
 * does, under the sender's rate-limit lock and the conversation's row lock,
 * what the send's transaction did in about ten round trips (the repeat check,
 * the rate-limit slot, the seq, the insert, the sender's read mark, the NOTIFY,
 * the recipients' pushes and the away reply), so a send costs the server one
 * statement, as the least-possible server's does.
 *
 * Two pieces it shares with the application, so each rule is written once:
 * - `message_recipients`: who hears of a message on one side (the client if
 *   active; else the primary dietitian if active, else every active dietitian),
 *   also read by the unread-message e-mails;
 * - `record_push_notices`: one push row per notice and device of a live
 *   sign-in, unless the person turned pushes of that category off; every
 *   notification in the app records its pushes through it.
 * A subscription's `service_host` (the push service, for the console's health
 * card) is now a generated column, so the SQL and the app read the same value.
 *
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table push_subscriptions add column service_host text
      generated always as (lower(substring(endpoint, '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]+)'))) stored`.execute(db);

  await sql`
    create function message_recipients(p_client_id integer, p_primary_id integer, p_side text)
    returns table (user_id integer, email text, first_name text)
    language sql stable as $$
      select u.id, u.email, u.first_name from users u
       where p_side = 'client' and u.id = p_client_id and u.is_active
      union all
      select d.id, d.email, d.first_name from (
        select t.id, t.email, t.first_name from users t
         where p_side = 'team' and t.role = 1 and t.is_active
           and (t.id = p_primary_id
                or not exists (select 1 from users p where p.id = p_primary_id and p.role = 1 and p.is_active))
         order by t.id) d
    $$`.execute(db);

  await sql`
    create function record_push_notices(p_notices jsonb) returns setof integer
    -- plpgsql, not sql: its plan is kept per connection (a SQL function that writes is planned on every call).
    language plpgsql volatile as $$
    begin
      return query
      insert into push_deliveries as d (notification_key, subscription_id, service_host, payload, ttl_seconds, urgency)
      select n.key, s.id, s.service_host, n.payload, n.ttl_seconds, n.urgency
        from jsonb_to_recordset(p_notices)
               as n(user_id integer, category text, key text, payload jsonb, ttl_seconds integer, urgency text)
        cross join lateral (
          select ps.id, ps.service_host from push_subscriptions ps
           where ps.user_id = n.user_id
             and exists (select 1 from sessions x
                          where x.family_id = ps.family_id and x.revoked_at is null and x.refresh_expires_at > now())
           order by ps.id limit 50) s
       where coalesce((select p.push from notification_preferences p
                        where p.user_id = n.user_id and p.category = n.category), true)
      on conflict (notification_key, subscription_id) do nothing
      returning d.id;
    end
    $$`.execute(db);

  await sql`
    create function message_send(
      p_conversation_id integer, p_sender_id integer, p_sender_role text, p_key uuid, p_text text, p_at timestamptz,
      p_bucket text, p_limit_max integer, p_limit_window_ms bigint,
      p_hours_version text, p_away_until timestamptz, p_away_text text,
      p_push jsonb, p_channel text)
    returns table (
      outcome text, full_at timestamptz, client_id integer, push_ids integer[],
      id integer, conversation_id integer, seq integer, sender_id integer, sender_role text,
      client_message_id uuid, text text, sent_at timestamptz, sender_first text, sender_last text)
    language plpgsql volatile as $$
    #variable_conflict use_column
    declare
      c record;
      m record;
      v_refusal text;
      v_full_at timestamptz;
      v_first text;
      v_last text;
      v_seq integer;
      v_told integer[];
      v_pushes integer[] := '{}';
    begin
      -- One send at a time per sender: the repeat check and the rate limit below see every earlier send committed.
      perform pg_advisory_xact_lock(hashtextextended(p_bucket, 0));

      select x.id, x.conversation_id, x.seq, x.sender_id, x.sender_role, x.client_message_id, x.text, x.sent_at,
             s.first_name, s.last_name
        into m
        from messages x left join users s on s.id = x.sender_id
       where x.sender_id = p_sender_id and x.client_message_id = p_key;
      if found then
        return query select 'repeat'::text, null::timestamptz, null::integer, null::integer[],
          m.id, m.conversation_id, m.seq, m.sender_id, m.sender_role, m.client_message_id, m.text, m.sent_at,
          m.first_name, m.last_name;
        return;
      end if;

      -- The caller judged "closed" by office hours it kept: they must still be the stored ones.
      if p_sender_role = 'client' and p_hours_version is distinct from
           (select (extract(epoch from ms.updated_at) * 1000000)::bigint::text from message_settings ms where ms.id = 1) then
        v_refusal := 'stale-hours';
      end if;

      -- The sender's rate limit: the max-th newest slot inside the window means the bucket is full.
      if v_refusal is null then
        select a.at into v_full_at from login_attempts a
         where a.bucket = p_bucket and a.at > p_at - p_limit_window_ms * interval '1 millisecond'
         order by a.at desc offset p_limit_max - 1 limit 1;
        if found then v_refusal := 'limited'; end if;
      end if;

      -- The conversation's row lock and its next seq, if this sender may write in it now.
      if v_refusal is null then
        update conversations cv
           set last_seq = cv.last_seq + 1, last_message_at = p_at, last_sender_role = p_sender_role
          from users u
         where cv.id = p_conversation_id and u.id = cv.client_id and u.is_active
           and (p_sender_role <> 'client' or cv.client_id = p_sender_id)
        returning cv.id, cv.client_id, cv.primary_dietitian_id, cv.auto_replied_until, cv.last_seq
          into c;
        if not found then
          select case when cv.id is null then 'missing'
                      when p_sender_role = 'client' and cv.client_id <> p_sender_id then 'forbidden'
                      else 'deactivated' end
            into v_refusal
            from (select 1) one left join conversations cv on cv.id = p_conversation_id;
        end if;
      end if;
      if v_refusal is not null then
        return query select v_refusal, v_full_at, null::integer, null::integer[],
          null::integer, null::integer, null::integer, null::integer, null::text, null::uuid, null::text,
          null::timestamptz, null::text, null::text;
        return;
      end if;

      v_seq := c.last_seq;
      insert into login_attempts (bucket, at) values (p_bucket, p_at);
      insert into messages (conversation_id, seq, sender_id, sender_role, client_message_id, text, sent_at)
      values (c.id, v_seq, p_sender_id, p_sender_role, p_key, p_text, p_at)
      returning messages.id into m;
      select s.first_name, s.last_name into v_first, v_last from users s where s.id = p_sender_id;

      -- The sender has read everything up to their own message; every instance hears of it on commit.
      insert into conversation_reads as r (conversation_id, user_id, last_read_seq, read_at)
      values (c.id, p_sender_id, v_seq, p_at)
      on conflict (conversation_id, user_id) do update set
        last_read_seq = greatest(r.last_read_seq, excluded.last_read_seq),
        read_at = case when excluded.last_read_seq > r.last_read_seq then excluded.read_at else r.read_at end;
      perform pg_notify(p_channel, json_build_object('kind', 'message', 'conversationId', c.id, 'seq', v_seq)::text);

      -- The other side's devices hear of it at once (nothing to build when none of them has a device).
      select array_agg(rc.user_id) into v_told
        from message_recipients(c.client_id, c.primary_dietitian_id,
                                case when p_sender_role = 'client' then 'team' else 'client' end) rc
       where exists (select 1 from push_subscriptions ps where ps.user_id = rc.user_id);
      if v_told is not null then
        v_pushes := array(select record_push_notices((
          -- p_push is a notice as record_push_notices takes it, less its person and key (made here per recipient).
          select jsonb_agg(p_push || jsonb_build_object('user_id', t.user_id,
                                                      'key', (p_push->>'key_prefix') || v_seq || ':' || t.user_id))
            from unnest(v_told) as t(user_id))));
      end if;

      -- A client writing while the office is closed hears once per closed period when to expect an answer.
      if p_sender_role = 'client' and p_away_until is not null
         and (c.auto_replied_until is null or c.auto_replied_until < p_away_until) then
        update conversations set last_seq = last_seq + 1, last_message_at = p_at, last_sender_role = 'client',
                                 auto_replied_until = p_away_until
         where conversations.id = c.id returning last_seq into v_seq;
        insert into messages (conversation_id, seq, sender_id, sender_role, client_message_id, text, sent_at)
        values (c.id, v_seq, null, 'system', null, p_away_text, p_at);
        perform pg_notify(p_channel, json_build_object('kind', 'message', 'conversationId', c.id, 'seq', v_seq)::text);
      end if;

      return query select 'sent'::text, null::timestamptz, c.client_id, v_pushes,
        m.id, c.id, c.last_seq, p_sender_id, p_sender_role, p_key, p_text, p_at, v_first, v_last;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists message_send(integer, integer, text, uuid, text, timestamptz, text, integer, bigint, text, timestamptz, text, jsonb, text)`.execute(
    db,
  );
  await sql`drop function if exists record_push_notices(jsonb)`.execute(db);
  await sql`drop function if exists message_recipients(integer, integer, text)`.execute(db);
  await sql`alter table push_subscriptions drop column if exists service_host`.execute(db);
}
