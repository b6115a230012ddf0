-- Sends messages in one call: one send or many (sends that arrived together, send-batch.ts), in one transaction.
-- `p_sends` is a JSON array of sends as repo.ts writes them; each answers one row, `idx` its place in the array
-- (from 1). Each send keeps every rule of its own: the repeat check by the sender's key, the office hours' version,
-- the sender's rate limit, who may write, the gapless seq, the message, the sender's read mark, the NOTIFY, the
-- other side's pushes and a closed office's away reply. A refusal answers an `outcome` before any write, so no seq
-- or slot is taken.
--
-- Locks are taken in one order by every call, so two calls (on two instances) never wait on each other in a circle:
-- first every sender's rate-limit lock (rate_limit_lock), then the conversations, by id (a sender's sends to one
-- conversation keep their order). Each statement sees what committed before it, which lock-then-check relies on.
--
-- The NOTIFY carries the stored row (ids, text, names; the subscribers' own instance makes the view of it) so that
-- no instance reads the message again; a message with files, or one whose row would not fit in a NOTIFY, carries
-- its ids only and is read again by each instance.
create or replace function message_send(p_sends jsonb, p_channel text)
returns table (
  idx integer, outcome text, full_at timestamptz, client_id integer, push_ids integer[],
  id integer, conversation_id integer, seq integer, sender_id integer, sender_role text,
  client_message_id uuid, text text, sent_at timestamptz, sender_first text, sender_last text)
language plpgsql volatile as $$
#variable_conflict use_column
declare
  s record;
  c record;
  m record;
  v_refusal text;
  v_full_at timestamptz;
  v_first text;
  v_last text;
  v_seq integer;
  v_told integer[];
  v_pushes integer[];
  v_note text;
begin
  perform rate_limit_lock(array(select b.bucket from jsonb_to_recordset(p_sends) as b(bucket text)));
  for s in
    select * from rows from (jsonb_to_recordset(p_sends) as (
        conversation_id integer, sender_id integer, sender_role text, client_message_id uuid, text text,
        at timestamptz, bucket text, limit_max integer, limit_window_ms bigint, hours_version text,
        away_until timestamptz, away_text text, push jsonb, with_files boolean))
      with ordinality as x(conversation_id, sender_id, sender_role, client_message_id, text, at, bucket, limit_max,
                           limit_window_ms, hours_version, away_until, away_text, push, with_files, n)
     order by x.conversation_id, x.n
  loop
    v_refusal := null;
    v_full_at := null;
    v_pushes := '{}';

    select x.id, x.conversation_id, x.seq, x.sender_id, x.sender_role, x.client_message_id, x.text, x.sent_at,
           u.first_name, u.last_name
      into m
      from messages x left join users u on u.id = x.sender_id
     where x.sender_id = s.sender_id and x.client_message_id = s.client_message_id;
    if found then
      return query select s.n::integer, 'repeat'::text, null::timestamptz, null::integer, null::integer[],
        m.id, m.conversation_id, m.seq, m.sender_id, m.sender_role, m.client_message_id, m.text, m.sent_at,
        m.first_name, m.last_name;
      continue;
    end if;

    -- The caller judged "closed" by office hours it kept: they must still be the stored ones.
    if s.sender_role = 'client' and s.hours_version is distinct from
         (select (extract(epoch from ms.updated_at) * 1000000)::bigint::text from message_settings ms where ms.id = 1) then
      v_refusal := 'stale-hours';
    end if;

    if v_refusal is null then
      v_full_at := rate_limit_full_at(s.bucket, s.at - s.limit_window_ms * interval '1 millisecond', s.limit_max);
      if v_full_at is not null then v_refusal := 'limited'; end if;
    end if;

    -- The conversation's row lock and its next seq, if this sender may write in it now.
    if v_refusal is null then
      update conversations cv
         set last_seq = cv.last_seq + 1, last_message_at = s.at, last_sender_role = s.sender_role
        from users u
       where cv.id = s.conversation_id and u.id = cv.client_id and u.is_active
         and (s.sender_role <> 'client' or cv.client_id = s.sender_id)
      returning cv.id, cv.client_id, cv.primary_dietitian_id, cv.auto_replied_until, cv.last_seq
        into c;
      if not found then
        select case when cv.id is null then 'missing'
                    when s.sender_role = 'client' and cv.client_id <> s.sender_id then 'forbidden'
                    else 'deactivated' end
          into v_refusal
          from (select 1) one left join conversations cv on cv.id = s.conversation_id;
      end if;
    end if;
    if v_refusal is not null then
      return query select s.n::integer, v_refusal, v_full_at, null::integer, null::integer[],
        null::integer, null::integer, null::integer, null::integer, null::text, null::uuid, null::text,
        null::timestamptz, null::text, null::text;
      continue;
    end if;

    v_seq := c.last_seq;
    insert into login_attempts (bucket, at) values (s.bucket, s.at);
    insert into messages (conversation_id, seq, sender_id, sender_role, client_message_id, text, sent_at)
    values (c.id, v_seq, s.sender_id, s.sender_role, s.client_message_id, s.text, s.at)
    returning messages.id into m;
    select u.first_name, u.last_name into v_first, v_last from users u where u.id = s.sender_id;

    -- The sender has read everything up to their own message; every instance hears of it on commit.
    insert into conversation_reads as r (conversation_id, user_id, last_read_seq, read_at)
    values (c.id, s.sender_id, v_seq, s.at)
    on conflict (conversation_id, user_id) do update set
      last_read_seq = greatest(r.last_read_seq, excluded.last_read_seq),
      read_at = case when excluded.last_read_seq > r.last_read_seq then excluded.read_at else r.read_at end;
    v_note := json_build_object('kind', 'message', 'conversationId', c.id, 'seq', v_seq, 'row', json_build_object(
      'id', m.id, 'conversation_id', c.id, 'seq', v_seq, 'sender_id', s.sender_id, 'sender_role', s.sender_role,
      'client_message_id', s.client_message_id, 'text', s.text, 'sent_at', s.at,
      'sender_first', v_first, 'sender_last', v_last))::text;
    -- NOTIFY's payload is at most 8000 bytes.
    if coalesce(s.with_files, false) or octet_length(v_note) > 7900 then
      v_note := json_build_object('kind', 'message', 'conversationId', c.id, 'seq', v_seq)::text;
    end if;
    perform pg_notify(p_channel, v_note);

    -- The other side's devices hear of it at once (nothing to build when none of them has a device).
    select array_agg(rc.user_id) into v_told
      from message_recipients(c.client_id, c.primary_dietitian_id,
                              case when s.sender_role = 'client' then 'team' else 'client' end) rc
     where exists (select 1 from push_subscriptions ps where ps.user_id = rc.user_id);
    if v_told is not null then
      v_pushes := array(select record_push_notices((
        -- `push` is a notice as record_push_notices takes it, less its person and key (made here per recipient).
        select jsonb_agg(s.push || jsonb_build_object('user_id', t.user_id,
                                                      'key', (s.push->>'key_prefix') || v_seq || ':' || t.user_id))
          from unnest(v_told) as t(user_id))));
    end if;

    -- A client writing while the office is closed hears once per closed period when to expect an answer.
    if s.sender_role = 'client' and s.away_until is not null
       and (c.auto_replied_until is null or c.auto_replied_until < s.away_until) then
      update conversations set last_seq = last_seq + 1, last_message_at = s.at, last_sender_role = 'client',
                               auto_replied_until = s.away_until
       where conversations.id = c.id returning last_seq into v_seq;
      insert into messages (conversation_id, seq, sender_id, sender_role, client_message_id, text, sent_at)
      values (c.id, v_seq, null, 'system', null, s.away_text, s.at);
      perform pg_notify(p_channel, json_build_object('kind', 'message', 'conversationId', c.id, 'seq', v_seq)::text);
    end if;

    return query select s.n::integer, 'sent'::text, null::timestamptz, c.client_id, v_pushes,
      m.id, c.id, c.last_seq, s.sender_id, s.sender_role, s.client_message_id, s.text, s.at, v_first, v_last;
  end loop;
end
$$;
