-- Token buckets shared by every delivery worker (issue 24, decision 0049).
--
-- Decision 0031 kept the bucket of a shared limit (one Telegram bot: 30 messages a second; one
-- Resend team: 2 requests a second) inside one worker: two workers draining the same channel at
-- once (the scan's wake-up overlapping the schedule, or several hosts) could together exceed
-- the ceiling and learn it from 429s. The bucket now lives in one row per limit; a worker takes
-- tokens with one short, row-locked call, for as many senders as are waiting (at most the
-- burst), so two workers together never send faster than the rate allows.

create table private.delivery_buckets (
  name text primary key check (name ~ '^[a-z0-9][a-z0-9:_.-]{0,99}$'),
  tokens double precision not null,
  updated_at timestamptz not null default clock_timestamp()
);
comment on table private.delivery_buckets is
  'One token bucket per shared delivery limit (a Telegram bot, a Resend team), taken by every worker.';
alter table private.delivery_buckets enable row level security;
revoke all on private.delivery_buckets from anon, authenticated;

-- Takes up to `wanted` tokens from the bucket `name` (refilled at `rate` per second up to
-- `burst`); answers how many were granted and, when none, the milliseconds until one is there.
create function public.take_delivery_tokens(name text, rate double precision, burst integer, wanted integer)
returns table (granted integer, wait_ms integer)
  language plpgsql security definer
  set search_path = ''
as $$
declare
  t timestamptz := clock_timestamp();
  b private.delivery_buckets;
  level double precision;
  n integer;
begin
  if name is null or name !~ '^[a-z0-9][a-z0-9:_.-]{0,99}$' then
    raise exception 'name must be 1-100 lower-case letters, digits or :_.-' using errcode = '22023';
  end if;
  if rate is null or not (rate > 0 and rate <= 100000) then
    raise exception 'rate must be above 0 and at most 100000 per second' using errcode = '22023';
  end if;
  if burst is null or burst not between 1 and 10000 then
    raise exception 'burst must be 1-10000' using errcode = '22023';
  end if;
  if wanted is null or wanted not between 1 and 10000 then
    raise exception 'wanted must be 1-10000' using errcode = '22023';
  end if;
  insert into private.delivery_buckets as d (name, tokens, updated_at)
  values (take_delivery_tokens.name, take_delivery_tokens.burst, t)
  on conflict on constraint delivery_buckets_pkey do nothing;
  select * into b from private.delivery_buckets d where d.name = take_delivery_tokens.name for update;
  -- The row lock serializes the takers: read the clock again after waiting for it.
  t := clock_timestamp();
  level := least(take_delivery_tokens.burst::double precision,
                 b.tokens + greatest(0, extract(epoch from (t - b.updated_at))) * take_delivery_tokens.rate);
  n := greatest(0, least(take_delivery_tokens.wanted, floor(level)::integer));
  update private.delivery_buckets d set tokens = level - n, updated_at = t
  where d.name = take_delivery_tokens.name;
  granted := n;
  wait_ms := case when n > 0 then 0 else ceil((1 - level) / take_delivery_tokens.rate * 1000)::integer end;
  return next;
end;
$$;
comment on function public.take_delivery_tokens(text, double precision, integer, integer) is
  'Takes tokens from a delivery limit shared by all workers; granted, or the wait until one is there (service role).';
revoke execute on function public.take_delivery_tokens(text, double precision, integer, integer) from public, anon, authenticated;
grant execute on function public.take_delivery_tokens(text, double precision, integer, integer) to service_role;

-- The service answered 429 with retry_after: nothing may go out on this limit for `seconds`,
-- whichever worker asks next.
create function public.pause_delivery_bucket(name text, rate double precision, seconds double precision)
returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  t timestamptz := clock_timestamp();
begin
  if name is null or name !~ '^[a-z0-9][a-z0-9:_.-]{0,99}$' then
    raise exception 'name must be 1-100 lower-case letters, digits or :_.-' using errcode = '22023';
  end if;
  if rate is null or not (rate > 0 and rate <= 100000) then
    raise exception 'rate must be above 0 and at most 100000 per second' using errcode = '22023';
  end if;
  if seconds is null or not (seconds >= 0 and seconds <= 3600) then
    raise exception 'seconds must be 0-3600' using errcode = '22023';
  end if;
  insert into private.delivery_buckets as d (name, tokens, updated_at)
  values (pause_delivery_bucket.name, -seconds * rate, t)
  on conflict on constraint delivery_buckets_pkey do update
    set tokens = least(d.tokens + greatest(0, extract(epoch from (t - d.updated_at))) * pause_delivery_bucket.rate, 0)
                 - pause_delivery_bucket.seconds * pause_delivery_bucket.rate,
        updated_at = t;
end;
$$;
comment on function public.pause_delivery_bucket(text, double precision, double precision) is
  'A shared delivery limit answered 429: nothing goes out on it for the given seconds (service role).';
revoke execute on function public.pause_delivery_bucket(text, double precision, double precision) from public, anon, authenticated;
grant execute on function public.pause_delivery_bucket(text, double precision, double precision) to service_role;
