-- Who hears of a message on one side: the client if active; for the team, the primary dietitian if active, else
-- every active dietitian. Read by message_send (pushes), the unread-message e-mails and the journal's notices.
create or replace function message_recipients(p_client_id integer, p_primary_id integer, p_side text)
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
$$;
