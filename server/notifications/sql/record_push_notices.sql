-- One push row per notice and device of a live sign-in, unless the person turned pushes of that category off.
-- Every notification in the app records its pushes here (push/repo.ts), message_send too. plpgsql, not sql: its
-- plan is kept per connection (a SQL function that writes is planned on every call).
create or replace function record_push_notices(p_notices jsonb) returns setof integer
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
$$;
