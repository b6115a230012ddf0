-- A sliding-window limit's count: when the max-th newest slot of a bucket after `p_since` was taken, or null when
-- there are fewer (the bucket has room). Once that slot leaves the window the bucket has room again. Read by the
-- sign-in limits (auth/limits-repo.ts) and by message_send.
create or replace function rate_limit_full_at(p_bucket text, p_since timestamptz, p_max integer) returns timestamptz
language sql stable as $$
  select a.at from login_attempts a
   where a.bucket = p_bucket and a.at > p_since
   order by a.at desc offset p_max - 1 limit 1
$$;
