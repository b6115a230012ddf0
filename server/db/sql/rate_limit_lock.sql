-- The rate limits' locks: one transaction-scoped advisory lock per bucket, taken in one order (the buckets' bytes,
-- as JavaScript sorts them), so two writers never wait on each other in a circle. Every limit takes its buckets
-- here, the sign-in limits (auth/limits-repo.ts) as message_send, so a bucket's key is made one way.
create or replace function rate_limit_lock(p_buckets text[]) returns void
language plpgsql volatile as $$
begin
  perform pg_advisory_xact_lock(hashtextextended(b.bucket, 0))
     from (select distinct u.bucket collate "C" as bucket from unnest(p_buckets) as u(bucket) order by 1) b;
end
$$;
