-- History that can be compared (issue 27, decision 0035).
--
-- Besides the 3 hours of samples in price_history, each instrument keeps 5-minute candles for
-- 7 days (public.candles_5m) and hourly candles for 90 days (public.candles_1h). A scheduled job,
-- private.rollup_candles(), reads price_history (it never touches public.ingest_scan): it
-- recomputes every 5-minute bucket from the last one it rolled (so a bucket still filling is
-- rewritten until it is complete), the hours those buckets belong to from the 5-minute candles,
-- and prunes both tables by age in the same run. On a hosted project pg_cron runs it every minute
-- (guarded as the scan's schedule is); the local stack's cron runner calls
-- public.run_candle_rollup() (service role only) on the same beat.
--
-- A candle's volume is an estimate of what traded in the bucket, from price_history's rolling
-- 24-hour totals as the domain's estimateIntervalVolumes does: the rise of the total plus what
-- left the 24-hour window meanwhile (total × elapsed / 24 h), never below 0.
--
-- Reading: nobody reads the tables through the Data API; the Pro RPCs of
-- 20261125400100_pro_analytics.sql serve them.

create table public.candles_5m (
  instrument_id bigint not null,
  bucket timestamptz not null check (extract(epoch from bucket)::bigint % 300 = 0),
  open numeric not null check (open >= 0),
  high numeric not null check (high >= 0),
  low numeric not null check (low >= 0),
  close numeric not null check (close >= 0),
  volume numeric not null default 0 check (volume >= 0),
  samples integer not null check (samples >= 1),
  primary key (instrument_id, bucket),
  check (low <= high)
);
alter table public.candles_5m enable row level security;
comment on table public.candles_5m is
  '5-minute candles per instrument rolled up from price_history; kept 7 days (private.rollup_candles).';
create index candles_5m_bucket_idx on public.candles_5m (bucket);

create table public.candles_1h (
  instrument_id bigint not null,
  bucket timestamptz not null check (extract(epoch from bucket)::bigint % 3600 = 0),
  open numeric not null check (open >= 0),
  high numeric not null check (high >= 0),
  low numeric not null check (low >= 0),
  close numeric not null check (close >= 0),
  volume numeric not null default 0 check (volume >= 0),
  samples integer not null check (samples >= 1),
  primary key (instrument_id, bucket),
  check (low <= high)
);
alter table public.candles_1h enable row level security;
comment on table public.candles_1h is
  'Hourly candles per instrument rolled up from candles_5m; kept 90 days (private.rollup_candles).';
create index candles_1h_bucket_idx on public.candles_1h (bucket);

-- No policies: API roles read through the Pro RPCs only.
revoke all on public.candles_5m, public.candles_1h from anon, authenticated;

-- Where the rollup stopped: the next run recomputes from the bucket holding this time.
create table private.candle_rollup_state (
  id integer primary key default 1 check (id = 1),
  rolled_to timestamptz not null,
  last_run_at timestamptz not null default now(),
  last_run_ms numeric,
  last_candles_5m integer,
  last_candles_1h integer,
  last_pruned integer
);
alter table private.candle_rollup_state enable row level security;
comment on table private.candle_rollup_state is 'One row: how far private.rollup_candles has rolled, and its last run.';

-- Instruments that go take their candles with them (price_history does the same by trigger).
create function private.delete_instrument_candles() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  delete from public.candles_5m c using gone g where c.instrument_id = g.id;
  delete from public.candles_1h c using gone g where c.instrument_id = g.id;
  return null;
end;
$$;
create trigger instruments_delete_candles after delete on public.instruments
  referencing old table as gone
  for each statement execute function private.delete_instrument_candles();

create function private.truncate_instrument_candles() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  truncate public.candles_5m, public.candles_1h;
  delete from private.candle_rollup_state;
  return null;
end;
$$;
create trigger instruments_truncate_candles after truncate on public.instruments
  for each statement execute function private.truncate_instrument_candles();
revoke execute on function private.delete_instrument_candles(), private.truncate_instrument_candles()
  from public, anon, authenticated;

-- One run. `upto`: the newest sample time to read (now by default). `since`: recompute from the
-- bucket holding this time instead of from the stored mark (tests and a backfill use it; never
-- further back than price_history keeps). Returns the candles written and the rows pruned.
create function private.rollup_candles(upto timestamptz default now(), since timestamptz default null)
returns table (candles_5m integer, candles_1h integer, pruned integer)
  language plpgsql security definer
  set search_path = ''
as $$
declare
  started timestamptz := clock_timestamp();
  mark timestamptz;
  from5 timestamptz;
  from1 timestamptz;
  n5 integer;
  n1 integer;
  p5 integer;
  p1 integer;
begin
  -- One run at a time; a second caller waits and then finds little left to do.
  perform pg_advisory_xact_lock(7271001);
  select s.rolled_to into mark from private.candle_rollup_state s where s.id = 1;
  from5 := coalesce(since, mark, upto - interval '3 hours');
  from5 := to_timestamp(floor(extract(epoch from from5) / 300) * 300);
  from1 := to_timestamp(floor(extract(epoch from from5) / 3600) * 3600);

  insert into public.candles_5m as c (instrument_id, bucket, open, high, low, close, volume, samples)
  select b.instrument_id, b.bucket,
         (array_agg(b.price order by b.ts asc))[1], max(b.price), min(b.price),
         (array_agg(b.price order by b.ts desc))[1],
         coalesce(sum(b.volume), 0), count(*)::integer
  from (
    select s.instrument_id, s.ts, s.price,
           to_timestamp(floor(extract(epoch from s.ts) / 300) * 300) as bucket,
           case when s.prev_ts is not null and s.prev_volume is not null and s.volume_24h is not null then
             greatest(0, s.volume_24h - s.prev_volume
                         + s.volume_24h * extract(epoch from s.ts - s.prev_ts) / 86400)
           end as volume
    from (
      select h.instrument_id, h.ts, h.price, h.volume_24h,
             lag(h.ts) over w as prev_ts, lag(h.volume_24h) over w as prev_volume
      from public.price_history h
      where h.ts >= from5 - interval '5 minutes' and h.ts <= upto
      window w as (partition by h.instrument_id order by h.ts)
    ) s
    where s.ts >= from5
  ) b
  group by b.instrument_id, b.bucket
  on conflict (instrument_id, bucket) do update
    set open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close,
        volume = excluded.volume, samples = excluded.samples
    where (c.open, c.high, c.low, c.close, c.volume, c.samples)
          is distinct from (excluded.open, excluded.high, excluded.low, excluded.close, excluded.volume, excluded.samples);
  get diagnostics n5 = row_count;

  insert into public.candles_1h as c (instrument_id, bucket, open, high, low, close, volume, samples)
  select f.instrument_id, to_timestamp(floor(extract(epoch from f.bucket) / 3600) * 3600) as hour,
         (array_agg(f.open order by f.bucket asc))[1], max(f.high), min(f.low),
         (array_agg(f.close order by f.bucket desc))[1], sum(f.volume), sum(f.samples)::integer
  from public.candles_5m f
  where f.bucket >= from1 and f.bucket <= upto
  group by f.instrument_id, hour
  on conflict (instrument_id, bucket) do update
    set open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close,
        volume = excluded.volume, samples = excluded.samples
    where (c.open, c.high, c.low, c.close, c.volume, c.samples)
          is distinct from (excluded.open, excluded.high, excluded.low, excluded.close, excluded.volume, excluded.samples);
  get diagnostics n1 = row_count;

  -- Retention by age (docs/retention: 5-minute candles 7 days, hourly candles 90 days).
  delete from public.candles_5m c where c.bucket < upto - interval '7 days';
  get diagnostics p5 = row_count;
  delete from public.candles_1h c where c.bucket < upto - interval '90 days';
  get diagnostics p1 = row_count;

  -- Venue times can trail the scan a little: the next run starts 10 minutes back.
  insert into private.candle_rollup_state as s (id, rolled_to, last_run_at, last_run_ms, last_candles_5m, last_candles_1h, last_pruned)
  values (1, greatest(upto - interval '10 minutes', from5), now(),
          round((extract(epoch from clock_timestamp() - started) * 1000)::numeric, 3), n5, n1, p5 + p1)
  on conflict (id) do update
    set rolled_to = greatest(excluded.rolled_to, case when since is null then s.rolled_to else excluded.rolled_to end),
        last_run_at = excluded.last_run_at, last_run_ms = excluded.last_run_ms,
        last_candles_5m = excluded.last_candles_5m, last_candles_1h = excluded.last_candles_1h,
        last_pruned = excluded.last_pruned;

  return query select n5, n1, p5 + p1;
end;
$$;
revoke execute on function private.rollup_candles(timestamptz, timestamptz) from public, anon, authenticated;
grant execute on function private.rollup_candles(timestamptz, timestamptz) to service_role;

-- The local cron runner's way in (service role only, over PostgREST).
create function public.run_candle_rollup(since timestamptz default null)
returns table (candles_5m integer, candles_1h integer, pruned integer)
  language sql security definer
  set search_path = ''
as $$
  select * from private.rollup_candles(now(), since);
$$;
comment on function public.run_candle_rollup(timestamptz) is
  'Rolls price_history up into 5-minute and hourly candles and prunes them by age; service role only.';
revoke execute on function public.run_candle_rollup(timestamptz) from public, anon, authenticated;
grant execute on function public.run_candle_rollup(timestamptz) to service_role;

-- Hosted: pg_cron runs the rollup every minute (no pg_net needed: it is plain SQL). Guarded: where
-- pg_cron is missing (PGlite, plain PostgreSQL) only the functions exist and the local stack's
-- cron runner calls public.run_candle_rollup() instead.
do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'pg_cron') then
    begin
      execute 'select cron.unschedule(j.jobid) from cron.job j where j.jobname = $1' using 'candle-rollup';
      execute 'select cron.schedule($1, $2, $3)' using 'candle-rollup', '* * * * *', 'select private.rollup_candles()';
    exception when others then
      raise notice 'The candle rollup is not scheduled: % (%)', sqlerrm, sqlstate;
    end;
  end if;
end;
$$;
