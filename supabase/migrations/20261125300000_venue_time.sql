-- Venue time (issue 25, decision 0033): a quote's own time, not the scan's, decides its windows,
-- its age on screen and whether it is stale.
--
-- 1. movers.quoted_at: the venue's time of the quote behind the row (Binance's close or event
--    time, Coinbase's and GeckoTerminal's answer time on their own clock). movers.ts stays the
--    time of the ingest that wrote the row (enqueue_alerts selects the rows of one ingest by it).
--    The kept top lists, movers_feed and the broadcasts carry quoted_at.
-- 2. ingest_scan: a window's reference sample must be at most 1.5 windows old (the 10-second
--    window: a sample between 15 and 5 seconds before the quote, on the venue's clock), else the
--    window is null — never a percent from a sample minutes old. A quote stamped more than
--    5 seconds after the ingest's time (a venue clock ahead of ours) is refused and counted in
--    `skipped`. A quote older than the one a mover shows does not replace it. Everything else is
--    as in 20261123300000 (validation, results, lock, statements).
-- 3. source_health: each source's cadence (how often each of its instruments is refreshed), the
--    venue time of its newest quote, and the measured clock skew (venue minus server).
-- 4. The schedule: one pg_cron job per venue at its own cadence (private.schedule_source_scan);
--    guarded for pg_cron/pg_net as 20261121001000.

-- ---------------------------------------------------------------------------------------------
-- 1. movers.quoted_at, the kept lists and the feed
-- ---------------------------------------------------------------------------------------------
alter table public.movers add column quoted_at timestamptz;
comment on column public.movers.quoted_at is
  'The venue''s own time of the quote behind this row (decision 0033); ts is the time of the ingest.';
update public.movers set quoted_at = ts where quoted_at is null;

create or replace function private.refresh_movers_top() returns void
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('private.refresh_movers_top'));
  insert into private.movers_top as t (window_minutes, entries, refreshed_at)
  select w.w,
         coalesce((
           select jsonb_agg(to_jsonb(e) order by abs(e.pct) desc, e.ts desc, e.id desc)
           from (
             select m.id, m.instrument_id, m.symbol, m.exchange, m.exchange_type, m.network, m.source,
                    m.pool_url, m.price, m.price_3hour_ago,
                    coalesce(case w.w
                      when 0 then m.pct_10sec when 5 then m.pct_5min when 10 then m.pct_10min
                      when 15 then m.pct_15min when 20 then m.pct_20min when 25 then m.pct_25min
                      else m.pct_30min end, m.pct) as pct,
                    w.w as window_used, m.pct_3hour, m.volume_24h, m.ts,
                    coalesce(m.quoted_at, m.ts) as quoted_at
             from public.movers m
             -- Ranking ids alone (narrow rows) is twice as fast as ranking whole rows.
             where m.id in (
               select k.id from public.movers k
               order by abs(coalesce(case w.w
                          when 0 then k.pct_10sec when 5 then k.pct_5min when 10 then k.pct_10min
                          when 15 then k.pct_15min when 20 then k.pct_20min when 25 then k.pct_25min
                          else k.pct_30min end, k.pct)) desc, k.ts desc, k.id desc
               limit 100)
           ) e
         ), '[]'::jsonb),
         now()
  from unnest(array[0, 5, 10, 15, 20, 25, 30]) as w (w)
  on conflict (window_minutes) do update set entries = excluded.entries, refreshed_at = excluded.refreshed_at;
end;
$$;
revoke execute on function private.refresh_movers_top() from public, anon, authenticated;
select private.refresh_movers_top();

-- The feed gains quoted_at (a new result column: the function is dropped and created again, with
-- the grants of 20261121000300). Rules and errors are those of 20261121001300.
drop function public.movers_feed(integer);
create function public.movers_feed(window_minutes integer default null)
returns table (
  id bigint, instrument_id bigint, symbol text, exchange text, exchange_type public.exchange_type,
  network text, source text, pool_url text, price numeric, price_3hour_ago numeric,
  pct numeric, window_used integer, pct_3hour numeric, volume_24h numeric, ts timestamptz,
  quoted_at timestamptz
)
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  caller public.profiles;
  w integer;
begin
  select * into caller from public.profiles p where p.id = (select auth.uid());
  if caller.id is null or caller.banned or not caller.subscription_active or caller.plan = 'none' then
    raise exception 'Active subscription required' using errcode = 'PT403',
      hint = 'Subscribe to a plan to see market data.';
  end if;
  w := coalesce(window_minutes, caller.selected_window_minutes);
  if not (w = any (public.allowed_windows(caller.plan))) then
    raise exception 'The % plan does not offer a % minute window', caller.plan, w using errcode = 'PT403';
  end if;
  return query
    select x.id, x.instrument_id, x.symbol, x.exchange, x.exchange_type, x.network, x.source, x.pool_url,
           x.price, x.price_3hour_ago, x.pct, x.window_used, x.pct_3hour, x.volume_24h, x.ts,
           coalesce(x.quoted_at, x.ts)
    from private.movers_top t,
         rows from (jsonb_to_recordset(t.entries) as (
           id bigint, instrument_id bigint, symbol text, exchange text, exchange_type public.exchange_type,
           network text, source text, pool_url text, price numeric, price_3hour_ago numeric, pct numeric,
           window_used integer, pct_3hour numeric, volume_24h numeric, ts timestamptz, quoted_at timestamptz
         )) with ordinality as x (id, instrument_id, symbol, exchange, exchange_type, network, source, pool_url,
                                  price, price_3hour_ago, pct, window_used, pct_3hour, volume_24h, ts,
                                  quoted_at, ord)
    where t.window_minutes = w
    order by x.ord;
end;
$$;
revoke execute on function public.movers_feed(integer) from public, anon;
grant execute on function public.movers_feed(integer) to authenticated, service_role;
comment on function public.movers_feed(integer) is
  'The window''s top 100 movers for an active subscriber, each with its venue quote time (quoted_at).';

-- ---------------------------------------------------------------------------------------------
-- 2. ingest_scan on venue time
-- ---------------------------------------------------------------------------------------------
create or replace function public.ingest_scan(quotes jsonb, scanned_at timestamptz default now())
returns jsonb
  language plpgsql security definer
  set search_path = ''
  -- The window query's estimated cost crosses jit_above_cost; compiling it costs more than it saves.
  set jit = off
as $$
declare
  retention constant interval := interval '200 minutes';
  stale_after constant interval := interval '15 minutes';
  -- A venue clock ahead of ours by more than this is wrong: such a quote is refused (skipped).
  future_bound constant interval := interval '5 seconds';
  -- The batch as parallel arrays (one element per accepted quote): arrays of scalars unnest
  -- fast; an array of composites does not.
  keys text[];
  symbols text[];
  exchanges text[];
  types public.exchange_type[];
  networks text[];
  sources text[];
  pool_urls text[];
  ids bigint[];
  prices numeric[];
  volumes numeric[];
  stamps timestamptz[];
  valid_stamps jsonb;
  received integer;
  accepted integer;
  upserted integer;
  removed integer;
  pruned integer;
  sent integer := 0;
begin
  if quotes is null or jsonb_typeof(quotes) <> 'array' then
    raise exception 'quotes must be a JSON array of quotes' using errcode = '22023';
  end if;
  scanned_at := coalesce(scanned_at, now());
  received := jsonb_array_length(quotes);

  -- Scans run one at a time: an overlapping scan waits instead of racing for the same rows.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('public.ingest_scan'));

  -- 1. Validate. A quote that would violate a constraint is skipped (and counted), not fatal.
  --    Every cast sits behind the test that makes it safe (CASE keeps the order).
  --    Each distinct `ts` text is checked once (a scan's quotes share a few stamps): ISO 8601 date
  --    and time, then a day that exists in its month. valid_stamps maps the texts that pass to
  --    themselves and the others to null.
  select coalesce(jsonb_object_agg(s.t,
           case when s.t ~ '^[1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,9})?)?([Zz]|[+-](0[0-9]|1[0-4])(:?[0-5][0-9])?)?$'
             then case when substr(s.t, 9, 2)::int <= extract(day from
                              make_date(substr(s.t, 1, 4)::int, substr(s.t, 6, 2)::int, 1) + interval '1 month - 1 day')
                    then s.t end
           end), '{}'::jsonb)
    into valid_stamps
  from (select distinct e.value ->> 'ts' as t from jsonb_array_elements(quotes) e
        where jsonb_typeof(e.value -> 'ts') = 'string') s;

  with raw as (
    select e.value as q, e.ordinality as ord
    from jsonb_array_elements(quotes) with ordinality e
    where jsonb_typeof(e.value) = 'object'
  ),
  -- Materialized, so each quote is parsed once (inlined, the parse would be repeated per use).
  fields as materialized (
    select r.ord,
           coalesce(jsonb_typeof(r.q -> 'venueKey'), 'null') as venue_key_type, r.q ->> 'venueKey' as venue_key,
           case when jsonb_typeof(r.q -> 'symbol') = 'string' then r.q ->> 'symbol' end as symbol,
           case when jsonb_typeof(r.q -> 'exchange') = 'string' then r.q ->> 'exchange' end as exchange,
           case when r.q ->> 'exchangeType' in ('cex', 'dex') and jsonb_typeof(r.q -> 'exchangeType') = 'string'
             then (r.q ->> 'exchangeType')::public.exchange_type end as exchange_type,
           coalesce(jsonb_typeof(r.q -> 'network'), 'null') as network_type, r.q ->> 'network' as network,
           coalesce(jsonb_typeof(r.q -> 'source'), 'null') as source_type, r.q ->> 'source' as source,
           coalesce(jsonb_typeof(r.q -> 'poolUrl'), 'null') as pool_url_type, r.q ->> 'poolUrl' as pool_url,
           case when jsonb_typeof(r.q -> 'price') = 'number' then (r.q ->> 'price')::numeric end as price,
           coalesce(jsonb_typeof(r.q -> 'volume24h'), 'null') as volume_type,
           case when jsonb_typeof(r.q -> 'volume24h') = 'number' then (r.q ->> 'volume24h')::numeric end as volume_24h,
           coalesce(jsonb_typeof(r.q -> 'ts'), 'null') as ts_type,
           -- Null unless the text passed the check above.
           case when jsonb_typeof(r.q -> 'ts') = 'string' then (valid_stamps ->> (r.q ->> 'ts'))::timestamptz end as ts
    from raw r
  ),
  valid as (
    select f.ord,
           -- The instrument's identity: the quote's venueKey, else the rule of private.instrument_venue_key.
           case when f.venue_key_type = 'string' then f.venue_key
             else private.instrument_venue_key(f.exchange_type, case when f.network_type = 'string' then f.network end,
                                               case when f.pool_url_type = 'string' then f.pool_url end, f.exchange, f.symbol)
           end as venue_key,
           f.symbol, f.exchange, f.exchange_type,
           case when f.network_type = 'string' then f.network end as network,
           case when f.source_type = 'string' then f.source else 'simulated' end as source,
           case when f.pool_url_type = 'string' then f.pool_url end as pool_url,
           f.price, f.volume_24h,
           case when f.ts_type = 'null' then scanned_at else f.ts end as ts
    from fields f
    where (f.venue_key_type = 'null' or (f.venue_key_type = 'string' and char_length(f.venue_key) between 1 and 200))
      and char_length(f.symbol) between 1 and 64
      and char_length(f.exchange) between 1 and 120
      and f.exchange_type is not null
      and (f.network_type = 'null' or (f.network_type = 'string' and char_length(f.network) between 1 and 64))
      and (f.source_type = 'null' or (f.source_type = 'string' and char_length(f.source) between 1 and 40))
      and (f.pool_url_type = 'null'
           or (f.pool_url_type = 'string' and f.pool_url ~ '^https://[^[:space:]]+$' and char_length(f.pool_url) <= 2048))
      and f.price > 0
      and (f.volume_type = 'null' or f.volume_24h >= 0)
      and (f.ts_type = 'null' or f.ts is not null)
  ),
  -- One quote per instrument (venue key): the latest (then the last in the array); the others
  -- are skipped.
  one as (
    select distinct on (v.venue_key) v.*
    from valid v
    where v.ts > scanned_at - retention and v.ts <= scanned_at + future_bound
    order by v.venue_key, v.ts desc, v.ord desc
  )
  select coalesce(array_agg(o.venue_key), '{}'), array_agg(o.symbol), array_agg(o.exchange), array_agg(o.exchange_type),
         array_agg(o.network), array_agg(o.source), array_agg(o.pool_url), array_agg(o.price),
         array_agg(o.volume_24h), array_agg(o.ts)
    into keys, symbols, exchanges, types, networks, sources, pool_urls, prices, volumes, stamps
  from one o;
  accepted := cardinality(keys);

  -- 2. Instruments, by venue key: new ones are inserted; known ones are updated only when
  --    something changed (the venue renamed the pair or the DEX; a network or pool link the quote
  --    does not know is kept); unchanged ones are not touched. In key order, so concurrent
  --    writers cannot deadlock.
  insert into public.instruments as i (venue_key, symbol, exchange, exchange_type, network, source, pool_url)
  select b.venue_key, b.symbol, b.exchange, b.exchange_type, b.network, b.source, b.pool_url
  from unnest(keys, symbols, exchanges, types, networks, sources, pool_urls)
         as b (venue_key, symbol, exchange, exchange_type, network, source, pool_url)
  left join public.instruments k on k.venue_key = b.venue_key
  where k.id is null
     or (k.symbol, k.exchange, k.exchange_type, k.network, k.source, k.pool_url)
        is distinct from (b.symbol, b.exchange, b.exchange_type, coalesce(b.network, k.network), b.source,
                          coalesce(b.pool_url, k.pool_url))
  order by b.venue_key
  on conflict (venue_key) do update
    set symbol = excluded.symbol,
        exchange = excluded.exchange,
        exchange_type = excluded.exchange_type,
        network = coalesce(excluded.network, i.network),
        source = excluded.source,
        pool_url = coalesce(excluded.pool_url, i.pool_url)
    where (i.symbol, i.exchange, i.exchange_type, i.network, i.source, i.pool_url)
          is distinct from (excluded.symbol, excluded.exchange, excluded.exchange_type,
                            coalesce(excluded.network, i.network), excluded.source,
                            coalesce(excluded.pool_url, i.pool_url));

  -- From here on the batch is keyed by instrument id, in id order, with the instrument's stored
  -- attributes. (One aggregate pass keeps the arrays aligned.)
  select coalesce(array_agg(s.id), '{}'), array_agg(s.symbol), array_agg(s.exchange), array_agg(s.exchange_type),
         array_agg(s.network), array_agg(s.source), array_agg(s.pool_url), array_agg(s.price),
         array_agg(s.volume_24h), array_agg(s.ts)
    into ids, symbols, exchanges, types, networks, sources, pool_urls, prices, volumes, stamps
  from (
    select i.id, i.symbol, i.exchange, i.exchange_type, i.network, i.source, i.pool_url, b.price, b.volume_24h, b.ts
    from unnest(keys, prices, volumes, stamps) as b (venue_key, price, volume_24h, ts)
    join public.instruments i on i.venue_key = b.venue_key
    order by i.id
  ) s;

  -- 3. History: one sample per quote (a sample already stored for that instant is kept).
  insert into public.price_history (instrument_id, ts, price, volume_24h)
  select b.instrument_id, b.ts, b.price, b.volume_24h
  from unnest(ids, stamps, prices, volumes) as b (instrument_id, ts, price, volume_24h)
  on conflict (instrument_id, ts) do nothing;

  -- 4. Windows and movers; the kept top 100 is refreshed once, below.
  perform pg_catalog.set_config('app.movers_top_deferred', 'on', true);
  -- refs is materialized: each window's probes run once per instrument, however often pcts
  -- refers to the reference.
  with refs as materialized (
    select b.*,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '10 seconds'
           and h.ts >= b.ts - interval '15 seconds' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '10 seconds' and h.ts <= b.ts - interval '5 seconds' order by h.ts limit 1)
      ) as r_10sec,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '5 minutes'
           and h.ts >= b.ts - interval '450 seconds' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '5 minutes' and h.ts <= b.ts - interval '150 seconds' order by h.ts limit 1)
      ) as r_5min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '10 minutes'
           and h.ts >= b.ts - interval '15 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '10 minutes' and h.ts <= b.ts - interval '5 minutes' order by h.ts limit 1)
      ) as r_10min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '15 minutes'
           and h.ts >= b.ts - interval '1350 seconds' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '15 minutes' and h.ts <= b.ts - interval '450 seconds' order by h.ts limit 1)
      ) as r_15min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '20 minutes'
           and h.ts >= b.ts - interval '30 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '20 minutes' and h.ts <= b.ts - interval '10 minutes' order by h.ts limit 1)
      ) as r_20min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '25 minutes'
           and h.ts >= b.ts - interval '2250 seconds' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '25 minutes' and h.ts <= b.ts - interval '750 seconds' order by h.ts limit 1)
      ) as r_25min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '30 minutes'
           and h.ts >= b.ts - interval '45 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '30 minutes' and h.ts <= b.ts - interval '15 minutes' order by h.ts limit 1)
      ) as r_30min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '3 hours'
           and h.ts >= b.ts - interval '270 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '3 hours' and h.ts <= b.ts - interval '90 minutes' order by h.ts limit 1)
      ) as r_3hour
    from unnest(ids, symbols, exchanges, types, networks, sources, pool_urls, stamps, prices, volumes)
           as b (instrument_id, symbol, exchange, exchange_type, network, source, pool_url, ts, price, volume_24h)
  ),
  pcts as (
    select r.*,
           round(100 * (r.price - r.r_10sec) / nullif(r.r_10sec, 0), 4) as p_10sec,
           round(100 * (r.price - r.r_5min) / nullif(r.r_5min, 0), 4) as p_5min,
           round(100 * (r.price - r.r_10min) / nullif(r.r_10min, 0), 4) as p_10min,
           round(100 * (r.price - r.r_15min) / nullif(r.r_15min, 0), 4) as p_15min,
           round(100 * (r.price - r.r_20min) / nullif(r.r_20min, 0), 4) as p_20min,
           round(100 * (r.price - r.r_25min) / nullif(r.r_25min, 0), 4) as p_25min,
           round(100 * (r.price - r.r_30min) / nullif(r.r_30min, 0), 4) as p_30min,
           round(100 * (r.price - r.r_3hour) / nullif(r.r_3hour, 0), 4) as p_3hour
    from refs r
  ),
  -- Known movers are updated in place (a join, cheaper than a speculative insert per row), in
  -- instrument id order; new ones are inserted.
  updated as (
    update public.movers m
      set symbol = p.symbol, exchange = p.exchange, exchange_type = p.exchange_type, network = p.network,
          source = p.source, pool_url = p.pool_url, price = p.price, price_3hour_ago = p.r_3hour,
          pct = coalesce(p.p_30min, p.p_25min, p.p_20min, p.p_15min, p.p_10min, p.p_5min, p.p_10sec, 0),
          pct_10sec = p.p_10sec, pct_5min = p.p_5min, pct_10min = p.p_10min, pct_15min = p.p_15min,
          pct_20min = p.p_20min, pct_25min = p.p_25min, pct_30min = p.p_30min, pct_3hour = p.p_3hour,
          volume_24h = p.volume_24h, ts = scanned_at, quoted_at = p.ts
    from pcts p
    where m.instrument_id = p.instrument_id
      -- A quote older than the one the row shows (a venue's clock went back, a late answer) does
      -- not replace it.
      and (m.quoted_at is null or m.quoted_at <= p.ts)
    returning m.instrument_id
  ),
  inserted as (
    insert into public.movers (instrument_id, symbol, exchange, exchange_type, network, source, pool_url, price,
                               price_3hour_ago, pct, pct_10sec, pct_5min, pct_10min, pct_15min, pct_20min,
                               pct_25min, pct_30min, pct_3hour, volume_24h, ts, quoted_at)
    select p.instrument_id, p.symbol, p.exchange, p.exchange_type, p.network, p.source, p.pool_url, p.price,
           p.r_3hour, coalesce(p.p_30min, p.p_25min, p.p_20min, p.p_15min, p.p_10min, p.p_5min, p.p_10sec, 0),
           p.p_10sec, p.p_5min, p.p_10min, p.p_15min, p.p_20min, p.p_25min, p.p_30min, p.p_3hour, p.volume_24h,
           scanned_at, p.ts
    from pcts p
    where not exists (select 1 from public.movers k where k.instrument_id = p.instrument_id)
    order by p.instrument_id
    on conflict (instrument_id) do nothing
    returning instrument_id
  )
  select (select count(*) from updated) + (select count(*) from inserted) into upserted;

  -- Stale movers: not quoted for 15 minutes.
  delete from public.movers m where m.ts < scanned_at - stale_after;
  get diagnostics removed = row_count;

  perform pg_catalog.set_config('app.movers_top_deferred', '', true);
  if upserted > 0 or removed > 0 then
    perform private.refresh_movers_top();
  end if;

  -- 5. Retention: a range delete on price_history_ts_idx.
  delete from public.price_history h where h.ts < scanned_at - retention;
  get diagnostics pruned = row_count;

  -- 6. One broadcast per scan: a message per window (market:movers:<window>) and the teaser.
  if upserted > 0 then
    sent := private.broadcast_movers(scanned_at);
  end if;

  return jsonb_build_object(
    'instruments', accepted,
    'movers', upserted,
    'stale', removed,
    'pruned', pruned,
    'broadcasts', sent,
    'skipped', received - accepted
  );
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 3. Source health: cadence, newest quote, clock skew
-- ---------------------------------------------------------------------------------------------
alter table public.source_health
  -- How often each of the source's instruments is refreshed, in seconds (for the DEX source: a
  -- whole round of its networks).
  add column cadence_seconds numeric check (cadence_seconds > 0 and cadence_seconds <= 86400),
  -- The venue time of the newest quote the source delivered (kept while it fails).
  add column last_quote_at timestamptz,
  -- The venue's clock minus ours, measured on the last answer (HTTP Date header or the venue's
  -- own time), in milliseconds.
  add column clock_skew_ms integer check (clock_skew_ms between -86400000 and 86400000);

create or replace function public.record_source_health(reports jsonb, scanned_at timestamptz default now())
returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  written integer;
begin
  if reports is null or jsonb_typeof(reports) <> 'array' then
    raise exception 'reports must be a JSON array' using errcode = '22023';
  end if;
  scanned_at := coalesce(scanned_at, now());
  insert into public.source_health as h (source, state, quotes, failure, http_status, message, backoff_until,
                                         last_attempt_at, last_success_at, cadence_seconds, last_quote_at,
                                         clock_skew_ms)
  select r.source, r.state, coalesce(r.quotes, 0),
         case when r.state = 'failing' then
           case when r.failure in ('network', 'timeout', 'http', 'parse', 'empty', 'config') then r.failure
                else 'other' end
         end,
         case when r.state = 'failing' and r."httpStatus" between 100 and 599 then r."httpStatus" end,
         left(r.message, 300),
         case when r.state = 'backoff' then coalesce(r."backoffUntil", scanned_at) end,
         scanned_at,
         case when r.state = 'ok' and coalesce(r.quotes, 0) > 0 then scanned_at end,
         case when r."cadenceSeconds" > 0 and r."cadenceSeconds" <= 86400 then r."cadenceSeconds" end,
         -- A quote time ahead of the ingest beyond ingest_scan's bound is not believed.
         case when r.state = 'ok' and r."lastQuoteAt" <= scanned_at + interval '5 seconds' then r."lastQuoteAt" end,
         case when r."skewMs" between -86400000 and 86400000 then r."skewMs" end
  from jsonb_to_recordset(reports) as r (source text, state text, quotes integer, failure text,
                                         "httpStatus" integer, message text, "backoffUntil" timestamptz,
                                         "cadenceSeconds" numeric, "lastQuoteAt" timestamptz, "skewMs" integer)
  where r.source ~ '^[a-z][a-z0-9_-]{0,39}$'
    and r.state in ('ok', 'backoff', 'failing')
  on conflict (source) do update
    set state = excluded.state, quotes = excluded.quotes, failure = excluded.failure,
        http_status = excluded.http_status, message = excluded.message,
        backoff_until = excluded.backoff_until, last_attempt_at = excluded.last_attempt_at,
        last_success_at = coalesce(excluded.last_success_at, h.last_success_at),
        cadence_seconds = coalesce(excluded.cadence_seconds, h.cadence_seconds),
        last_quote_at = greatest(excluded.last_quote_at, h.last_quote_at),
        clock_skew_ms = coalesce(excluded.clock_skew_ms, h.clock_skew_ms);
  get diagnostics written = row_count;
  return written;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 4. One schedule per venue (hosted: pg_cron seconds schedules; locally devstack/cron.ts)
-- ---------------------------------------------------------------------------------------------
-- One call of the scan function for the named sources only, or null when the scan is not
-- configured (or pg_net is missing).
create function private.invoke_source_scan(sources text[]) returns bigint
  language plpgsql security definer
  set search_path = ''
as $$
declare
  url text;
  secret text;
  request_id bigint;
begin
  select max(s.value) filter (where s.key = 'scan_url'), max(s.value) filter (where s.key = 'scan_secret')
    into url, secret
  from private.app_settings s
  where s.key in ('scan_url', 'scan_secret');
  if coalesce(url, '') = '' or coalesce(secret, '') = ''
     or not exists (select 1 from pg_catalog.pg_extension where extname = 'pg_net') then
    return null;
  end if;
  execute 'select net.http_post(url := $1, body := $2, headers := $3, timeout_milliseconds := $4)'
    into request_id
    using url, jsonb_build_object('sources', to_jsonb(sources)),
          jsonb_build_object('Authorization', 'Bearer ' || secret, 'Content-Type', 'application/json'), 30000;
  return request_id;
end;
$$;

-- (Re)schedules the job 'market-scan-<source>' every `seconds` (1–59; pg_cron 1.5 or newer), and
-- removes the all-sources job 'market-scan' so no venue is read twice. Returns the job id. Raises
-- 55000 without pg_cron and pg_net, 0A000 on an older pg_cron, 22023 on a bad source or interval.
create function private.schedule_source_scan(source text, seconds integer) returns bigint
  language plpgsql security definer
  set search_path = ''
as $$
declare
  cron_version text;
  job bigint;
begin
  if source is null or source !~ '^[a-z][a-z0-9_-]{0,39}$' then
    raise exception 'No such market source: %', source using errcode = '22023';
  end if;
  if seconds is null or seconds not between 1 and 59 then
    raise exception 'A venue cadence of % seconds cannot be scheduled', seconds
      using errcode = '22023', hint = '1 to 59 seconds.';
  end if;
  if not exists (select 1 from pg_catalog.pg_extension where extname = 'pg_cron')
     or not exists (select 1 from pg_catalog.pg_extension where extname = 'pg_net') then
    raise exception 'Scheduling the scan needs the pg_cron and pg_net extensions'
      using errcode = '55000',
            hint = 'Enable pg_cron and pg_net (Dashboard, Database, Extensions). The local stack invokes the scan itself.';
  end if;
  select e.extversion into cron_version from pg_catalog.pg_extension e where e.extname = 'pg_cron';
  if string_to_array(split_part(cron_version, '-', 1), '.')::integer[] < array[1, 5] then
    raise exception 'pg_cron % cannot run a job every % seconds', cron_version, seconds
      using errcode = '0A000', hint = 'pg_cron 1.5 or newer schedules in seconds.';
  end if;
  execute 'select cron.unschedule(j.jobid) from cron.job j where j.jobname = any($1)'
    using array['market-scan', 'market-scan-' || source];
  execute 'select cron.schedule($1, $2, $3)' into job
    using 'market-scan-' || source, seconds || ' seconds',
          format('select private.invoke_source_scan(array[%L])', source);
  return job;
end;
$$;
revoke execute on function private.invoke_source_scan(text[]), private.schedule_source_scan(text, integer)
  from public, anon, authenticated;
grant execute on function private.schedule_source_scan(text, integer) to service_role;
