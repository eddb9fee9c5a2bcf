-- Pacing a shared delivery limit without a round trip per request (issue 24, decision 0066).
--
-- take_delivery_tokens (decision 0049) grants only tokens that are there now; a worker that got
-- none sleeps the answered wait and asks again, so each request beyond the burst waited its
-- 1/rate plus a round trip to the database. One Resend team at 2 requests a second then sent ten
-- batch calls in well over the 4.5 s the rate allows.
--
-- public.reserve_delivery_slots(name, rate, burst, wanted, horizon_ms) reserves, in the same
-- bucket row, up to `wanted` send times no further than `horizon_ms` ahead: slot k goes out
-- when the bucket (refilled at `rate` up to `burst`) would have had its token, so the slots of
-- all workers together never exceed burst + rate × time, exactly as tokens taken one by one.
-- The bucket goes below zero by the reserved slots; take_delivery_tokens and
-- pause_delivery_bucket read the same row and wait behind them. A worker that dies with slots
-- reserved wastes at most `horizon_ms` of the limit (a delay for the others, never a burst).
-- Answers the waits (milliseconds from now, ascending) and the wait of the next slot not reserved.
create function public.reserve_delivery_slots(name text, rate double precision, burst integer, wanted integer,
                                              horizon_ms integer)
returns table (waits_ms integer[], next_ms integer)
  language plpgsql security definer
  set search_path = ''
as $$
declare
  t timestamptz;
  b private.delivery_buckets;
  level double precision;
  w integer;
  n integer := 0;
  waits integer[] := '{}';
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
  if horizon_ms is null or horizon_ms not between 0 and 60000 then
    raise exception 'horizon_ms must be 0-60000' using errcode = '22023';
  end if;
  insert into private.delivery_buckets as d (name, tokens, updated_at)
  values (reserve_delivery_slots.name, reserve_delivery_slots.burst, clock_timestamp())
  on conflict on constraint delivery_buckets_pkey do nothing;
  select * into b from private.delivery_buckets d where d.name = reserve_delivery_slots.name for update;
  -- The row lock serializes the takers: read the clock after waiting for it.
  t := clock_timestamp();
  level := least(reserve_delivery_slots.burst::double precision,
                 b.tokens + greatest(0, extract(epoch from (t - b.updated_at))) * reserve_delivery_slots.rate);
  loop
    -- Slot n + 1 is due when the level, less the n slots before it, reaches one token.
    w := greatest(0, ceil((n + 1 - level) / reserve_delivery_slots.rate * 1000))::integer;
    exit when n >= reserve_delivery_slots.wanted or w > reserve_delivery_slots.horizon_ms;
    waits := waits || w;
    n := n + 1;
  end loop;
  update private.delivery_buckets d set tokens = level - n, updated_at = t
  where d.name = reserve_delivery_slots.name;
  waits_ms := waits;
  next_ms := w;
  return next;
end;
$$;
comment on function public.reserve_delivery_slots(text, double precision, integer, integer, integer) is
  'Reserves send times on a delivery limit shared by all workers, at most horizon_ms ahead (service role).';
revoke execute on function public.reserve_delivery_slots(text, double precision, integer, integer, integer) from public, anon, authenticated;
grant execute on function public.reserve_delivery_slots(text, double precision, integer, integer, integer) to service_role;
