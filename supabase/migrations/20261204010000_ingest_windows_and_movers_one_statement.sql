-- Issue 26, decision 0111, round 2: the window look-ups and the movers write in one statement.
-- Since 20261204000000 both run in the venue section, one after the other; the scored rows went
-- from the first to the second as 27 arrays (one per column, aggregated then unnested again, the
-- shape decision 0085 needed to carry them across the shared lock). Now the movers write reads
-- the scored rows directly. Nothing else in ingest_scan changed; the results are the same
-- (pgTAP 07, 53, 68, 93; the stack tests that ingest; the paired bench's check).

create or replace function public.ingest_scan(quotes jsonb, scanned_at timestamp with time zone DEFAULT now(),
                                   scan_group uuid DEFAULT NULL) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO ''
    SET jit TO 'off'
    SET work_mem TO '64MB'
    SET plan_cache_mode TO 'force_custom_plan'
    AS $_$
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
  -- Issue 26 (decision 0046): the venue's liquidity figures of each quote.
  volumes_usd numeric[];
  liquidities numeric[];
  spreads numeric[];
  pool_names text[];
  pool_births timestamptz[];
  valid_stamps jsonb;
  received integer;
  accepted integer;
  upserted integer;
  removed integer;
  -- Issue 26 (decision 0053, amended): what this scan changed. The mover rows it wrote (and those
  -- the rescore wrote after it) are re-ranked; the assets it touched are rescored.
  changed_ids bigint[];
  touched_assets text[];
  gone_assets text[];
  -- Decision 0111: the assets of rows whose price alone changed (rescored only where the asset
  -- has another row: decided in the shared section), and the assets owed a rescore by earlier
  -- shared sections that could not write a row an ingest in flight had locked.
  price_only_assets text[];
  owed_assets text[];
  pruned integer;
  sent integer := 0;
  venue integer;
  -- Decision 0104: the publication (the kept lists and the broadcast) left to a later call of the
  -- same scan, or owed by earlier ones.
  deferred boolean := false;
  owed_changed bigint[];
  owed_since timestamptz;
  owed_broadcast boolean;
  -- Decision 0104, round 2: how long and for how many calls a publication may be left to calls in
  -- flight. Past either, the call publishes whatever is in flight beside it.
  owed_bound constant interval := interval '1 second';
  owed_calls_bound constant integer := 6;
begin
  if quotes is null or jsonb_typeof(quotes) <> 'array' then
    raise exception 'quotes must be a JSON array of quotes' using errcode = '22023';
  end if;
  scanned_at := coalesce(scanned_at, now());
  received := jsonb_array_length(quotes);

  -- Decision 0104: a grouped call (scan_group: the scan function gives every scan call the same
  -- one, round 2) says it is in flight from its first statement to its commit. The lock is
  -- shared: it never waits and no one waits for it; it is only read (pg_locks) by the other calls
  -- of the group when they reach the publication below.
  if scan_group is not null then
    perform pg_catalog.pg_advisory_xact_lock_shared(pg_catalog.hashtext('public.ingest_scan:group'),
                                                    pg_catalog.hashtext(scan_group::text));
  end if;


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
  -- (A pool's creation time, poolCreatedAt, is checked the same way.)
  from (select distinct v.x ->> 0 as t
        from jsonb_array_elements(quotes) e,
             lateral (values (e.value -> 'ts'), (e.value -> 'poolCreatedAt')) v (x)
        where jsonb_typeof(v.x) = 'string') s;

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
           case when jsonb_typeof(r.q -> 'volume24hUsd') = 'number' then (r.q ->> 'volume24hUsd')::numeric end as volume_24h_usd,
           case when jsonb_typeof(r.q -> 'liquidityUsd') = 'number' then (r.q ->> 'liquidityUsd')::numeric end as liquidity_usd,
           case when jsonb_typeof(r.q -> 'spreadPct') = 'number' then (r.q ->> 'spreadPct')::numeric end as spread_pct,
           case when jsonb_typeof(r.q -> 'poolName') = 'string' then r.q ->> 'poolName' end as pool_name,
           case when jsonb_typeof(r.q -> 'poolCreatedAt') = 'string'
             then (valid_stamps ->> (r.q ->> 'poolCreatedAt'))::timestamptz end as pool_created_at,
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
           case when f.ts_type = 'null' then scanned_at else f.ts end as ts,
           -- The liquidity figures are optional: one that is not a sensible number is dropped
           -- (null), never a reason to refuse the price.
           case when f.volume_24h_usd >= 0 then f.volume_24h_usd when f.volume_24h >= 0 then f.volume_24h end
             as volume_24h_usd,
           case when f.liquidity_usd >= 0 then f.liquidity_usd end as liquidity_usd,
           case when f.spread_pct >= 0 and f.spread_pct < 100 then round(f.spread_pct, 4) end as spread_pct,
           case when char_length(btrim(f.pool_name)) between 1 and 200 then btrim(f.pool_name) end as pool_name,
           case when f.pool_created_at <= scanned_at + future_bound then f.pool_created_at end as pool_created_at
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
         array_agg(o.volume_24h), array_agg(o.ts), array_agg(o.volume_24h_usd), array_agg(o.liquidity_usd),
         array_agg(o.spread_pct), array_agg(o.pool_name), array_agg(o.pool_created_at)
    into keys, symbols, exchanges, types, networks, sources, pool_urls, prices, volumes, stamps,
         volumes_usd, liquidities, spreads, pool_names, pool_births
  from one o;
  accepted := cardinality(keys);

  -- Locks (decision 0085). The venue section below (instruments, history, the window probes and,
  -- since decision 0111, the movers) reads and writes only the rows of the batch's instruments;
  -- the shared section (the rescore by asset, the kept lists, the prunes, the broadcast) reads
  -- across venues, and never waits for a row a call in flight holds (0111). Scans
  -- of different venues run their venue sections side by side and their shared sections one at a
  -- time. A venue is the first part of the venue key (the exchange of a CEX pair, the network of
  -- a pool), so an instrument always falls in the same venue and two scans that share no venue
  -- share no instrument. Every caller takes the locks in one order — ingest_scan:all (shared
  -- here, exclusive in ingest_backfill), the venues by their hash, then ingest_scan — so no two
  -- callers can wait on each other in a cycle.
  perform pg_catalog.pg_advisory_xact_lock_shared(pg_catalog.hashtext('public.ingest_scan:all'));
  for venue in
    select distinct pg_catalog.hashtext(split_part(k.k, ':', 1)) from unnest(keys) k (k) order by 1
  loop
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('public.ingest_scan:venue'), venue);
  end loop;

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
         array_agg(s.volume_24h), array_agg(s.ts), array_agg(s.volume_24h_usd), array_agg(s.liquidity_usd),
         array_agg(s.spread_pct), array_agg(s.pool_name), array_agg(s.pool_created_at)
    into ids, symbols, exchanges, types, networks, sources, pool_urls, prices, volumes, stamps,
         volumes_usd, liquidities, spreads, pool_names, pool_births
  from (
    select i.id, i.symbol, i.exchange, i.exchange_type, i.network, i.source, i.pool_url, b.price, b.volume_24h, b.ts,
           b.volume_24h_usd, b.liquidity_usd, b.spread_pct, b.pool_name, b.pool_created_at
    from unnest(keys, prices, volumes, stamps, volumes_usd, liquidities, spreads, pool_names, pool_births)
           as b (venue_key, price, volume_24h, ts, volume_24h_usd, liquidity_usd, spread_pct, pool_name, pool_created_at)
    join public.instruments i on i.venue_key = b.venue_key
    order by i.id
  ) s;

  -- 3. History: one sample per quote (a sample already stored for that instant is kept).
  insert into public.price_history (instrument_id, ts, price, volume_24h, liquidity_usd)
  select b.instrument_id, b.ts, b.price, b.volume_24h, b.liquidity_usd
  from unnest(ids, stamps, prices, volumes, liquidities) as b (instrument_id, ts, price, volume_24h, liquidity_usd)
  on conflict (instrument_id, ts) do nothing;

  -- 4. Windows (still the venue section: each instrument's own history), and 4a, the movers, in
  --    the same statement (decision 0111, round 2): the scored rows go to the movers write as they
  --    are, not through one array per column. The kept top 100 is refreshed once, below.
  --    The movers write is still the venue section (decision 0111): a venue's mover rows are its
  --    instruments' rows, written only by its own calls (one at a time under the venue lock) and,
  --    in a shared section, by the rescore and the stale delete, which skip a row this call has
  --    locked (it could wait here for their commit, never they for it: no cycle). What reads across
  --    venues is decided in the shared section below.
  -- refs is materialized: each window's probes run once per instrument, however often pcts
  -- refers to the reference.
  perform pg_catalog.set_config('app.movers_top_deferred', 'on', true);
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
    from unnest(ids, symbols, exchanges, types, networks, sources, pool_urls, stamps, prices, volumes,
                volumes_usd, liquidities, spreads, pool_names, pool_births)
           as b (instrument_id, symbol, exchange, exchange_type, network, source, pool_url, ts, price, volume_24h,
                 volume_24h_usd, liquidity_usd, spread_pct, pool_name, pool_created_at)
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
  -- Decision 0046: the grouping key, the thin mark and the flags a quote carries on its own
  -- (dex_cex_gap, confirmation and the trust score need the other venues: step 4b).
  scored as (
    select p.*,
           case upper(btrim(split_part(p.symbol, '/', 1)))
             when 'WBNB' then 'BNB' when 'WETH' then 'ETH' when 'WSOL' then 'SOL' when 'WAVAX' then 'AVAX'
             when 'WMATIC' then 'MATIC' when 'WPOL' then 'POL'
             else upper(btrim(split_part(p.symbol, '/', 1))) end as asset,
           case when p.exchange_type = 'dex' then coalesce(p.liquidity_usd < 100000, true)
                else coalesce(p.volume_24h_usd < 250000, true) end as thin,
           array_remove(array[
             case when abs(coalesce(p.p_30min, p.p_25min, p.p_20min, p.p_15min, p.p_10min, p.p_5min, p.p_10sec, 0)) >= 3
                       and p.volume_24h <= p.start_figures[1] then 'no_volume_rise' end,
             case when p.exchange_type = 'dex' and p.pool_created_at > scanned_at - interval '24 hours'
                  then 'young_pool' end,
             case when p.exchange_type = 'dex' and p.liquidity_usd <= 0.5 * p.start_figures[2]
                  then 'pulled_pool' end,
             case when p.exchange_type = 'dex' and p.liquidity_usd > 0 and p.volume_24h_usd > 20 * p.liquidity_usd
                  then 'wash_volume' end
           ], null) as own_flags
    from (
      -- The window's start (decision 0046): the oldest sample of the last 30 minutes, for its
      -- 24 h volume (did volume rise with the move?) and its pool liquidity (was the pool pulled?).
      -- Read only where a flag can use it: a move of 3 % or more (no_volume_rise) or a pool
      -- (pulled_pool); most quotes of a calm market need no probe. (offset 0: read once a row.)
      select q.*,
             case when q.exchange_type = 'dex'
                    or abs(coalesce(q.p_30min, q.p_25min, q.p_20min, q.p_15min, q.p_10min, q.p_5min, q.p_10sec, 0)) >= 3
               then (select array[h.volume_24h, h.liquidity_usd] from public.price_history h
                     where h.instrument_id = q.instrument_id and h.ts >= q.ts - interval '30 minutes' and h.ts < q.ts
                     order by h.ts limit 1)
             end as start_figures
      from pcts q
      offset 0
    ) p
  ),
  -- The batch's existing movers, read once (decision 0068): the update reaches them by id, the
  -- rows without one are the new movers, and the old values say whether the rescore must look
  -- at the row's asset again.
  -- (Decision 0094: each by the unique instrument_id index, a probe per batch row — not a scan of
  -- every mover, which a 2-s cadence keeps rewriting.)
  cur as materialized (
    select p.*, m.id as mover_id, m.asset as old_asset, m.quoted_at as old_quoted_at, m.symbol as old_symbol,
           m.exchange as old_exchange, m.exchange_type as old_exchange_type, m.price as old_price,
           m.pct as old_pct, m.thin as old_thin, m.flags as old_flags, m.spread_pct as old_spread_pct,
           m.liquidity_usd as old_liquidity_usd, m.volume_24h_usd as old_volume_24h_usd
    from scored p
    left join lateral (
      select m.id, m.asset, m.quoted_at, m.symbol, m.exchange, m.exchange_type, m.price, m.pct, m.thin,
             m.flags, m.spread_pct, m.liquidity_usd, m.volume_24h_usd
      from public.movers m where m.instrument_id = p.instrument_id
      limit 1
    ) m on true
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
          volume_24h = p.volume_24h, ts = scanned_at, quoted_at = p.ts,
          asset = p.asset, volume_24h_usd = p.volume_24h_usd, liquidity_usd = p.liquidity_usd,
          spread_pct = p.spread_pct, pool_name = p.pool_name, pool_created_at = p.pool_created_at,
          thin = p.thin,
          -- dex_cex_gap is kept until step 4b decides it again.
          flags = p.own_flags || case when 'dex_cex_gap' = any (m.flags) then array['dex_cex_gap'] else '{}' end
    from cur p
    where m.id = p.mover_id
      -- A quote older than the one the row shows (a venue's clock went back, a late answer) does
      -- not replace it.
      and (p.old_quoted_at is null or p.old_quoted_at <= p.ts)
    returning m.id, m.asset, m.instrument_id
  ),
  inserted as (
    insert into public.movers (instrument_id, symbol, exchange, exchange_type, network, source, pool_url, price,
                               price_3hour_ago, pct, pct_10sec, pct_5min, pct_10min, pct_15min, pct_20min,
                               pct_25min, pct_30min, pct_3hour, volume_24h, ts, quoted_at, asset, volume_24h_usd,
                               liquidity_usd, spread_pct, pool_name, pool_created_at, thin, flags)
    select p.instrument_id, p.symbol, p.exchange, p.exchange_type, p.network, p.source, p.pool_url, p.price,
           p.r_3hour, coalesce(p.p_30min, p.p_25min, p.p_20min, p.p_15min, p.p_10min, p.p_5min, p.p_10sec, 0),
           p.p_10sec, p.p_5min, p.p_10min, p.p_15min, p.p_20min, p.p_25min, p.p_30min, p.p_3hour, p.volume_24h,
           scanned_at, p.ts, p.asset, p.volume_24h_usd, p.liquidity_usd, p.spread_pct, p.pool_name,
           p.pool_created_at, p.thin, p.own_flags
    from cur p
    where p.mover_id is null
       -- Decision 0111: a row read above that another call's stale delete removed before this
       -- update reached it (the instrument quoted again after 15 minutes away) is inserted anew.
       or (p.mover_id not in (select u.id from updated u) and (p.old_quoted_at is null or p.old_quoted_at <= p.ts))
    order by p.instrument_id
    on conflict (instrument_id) do nothing
    returning id, asset
  ),
  written as (
    select u.id, u.asset from updated u
    union all
    select i.id, i.asset from inserted i
  ),
  -- A row whose grouping key changes (the venue renamed the pair) leaves its old asset: that
  -- asset's other rows are rescored too. (The rows as they were before the update.)
  renamed as (
    select p.old_asset as asset from cur p
    where p.mover_id is not null and p.old_asset is distinct from p.asset and p.old_asset is not null
  ),
  -- The updated rows whose rescore inputs changed (decision 0068). Confirmation reads whether a
  -- row moves (|pct| >= 2) and which way (0: it does not move); the DEX/CEX gap reads the prices of the asset's other
  -- rows; the trust score reads the liquidity points (the same expression as movers_rescore's),
  -- the confirmation, the flags, the thin mark and a spread over 1 %. A row that changed none of
  -- these leaves its asset's results as they are, unless the asset has another row and the price
  -- moved (that row's gap, or this one's, may change).
  moved as (
    select p.mover_id as id, p.asset,
           (p.old_symbol, p.old_exchange, p.old_exchange_type,
            case when abs(p.old_pct) >= 2 then sign(p.old_pct) else 0 end, p.old_thin,
            array_remove(p.old_flags, 'dex_cex_gap'), p.old_spread_pct > 1,
            greatest(0, least(50, round((12.5 * (log(greatest(
              case when p.old_exchange_type = 'dex' then p.old_liquidity_usd else p.old_volume_24h_usd end, 1)::float8) - 3))::numeric))))
           is distinct from
           (p.symbol, p.exchange, p.exchange_type,
            case when abs(coalesce(p.p_30min, p.p_25min, p.p_20min, p.p_15min, p.p_10min, p.p_5min, p.p_10sec, 0)) >= 2
                 then sign(coalesce(p.p_30min, p.p_25min, p.p_20min, p.p_15min, p.p_10min, p.p_5min, p.p_10sec, 0))
                 else 0 end, p.thin,
            p.own_flags, p.spread_pct > 1,
            greatest(0, least(50, round((12.5 * (log(greatest(
              case when p.exchange_type = 'dex' then p.liquidity_usd else p.volume_24h_usd end, 1)::float8) - 3))::numeric))))
             as inputs_changed,
           p.old_price is distinct from p.price as price_changed
    from cur p
    where p.mover_id is not null and p.old_asset is not distinct from p.asset
  ),
  rescore as (
    select i.asset from inserted i
    union all
    select r.asset from renamed r
    union all
    -- a renamed row's new asset
    select u.asset from updated u join cur p on p.mover_id = u.id where p.old_asset is distinct from u.asset
    union all
    select v.asset from moved v join updated u on u.id = v.id
    where v.inputs_changed
  )
  select (select count(*) from written),
         (select coalesce(array_agg(w.id), '{}') from written w),
         (select coalesce(array_agg(distinct a.asset) filter (where a.asset is not null), '{}') from rescore a),
         -- A row whose inputs did not change but whose price did: its asset is rescored only where
         -- it has another row (decided in the shared section, below).
         (select coalesce(array_agg(distinct v.asset), '{}') from moved v join updated u on u.id = v.id
          where v.price_changed and not v.inputs_changed and v.asset is not null)
    into upserted, changed_ids, touched_assets, price_only_assets;

  -- The shared section (decision 0085): one scan at a time from here to the end of the call.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('public.ingest_scan'));

  -- The assets that have another row than the batch's own (a row whose inputs did not change
  -- but whose price did is rescored only there). Set-based (decision 0094): the asset's rows
  -- counted once per asset, not probed once per row. Read here, under the shared lock (decision
  -- 0111): the rows other calls committed and this call's own; a row another call in flight
  -- inserted is not seen, and that call rescores its asset in its own shared section, after
  -- this one, with this call's rows committed.
  if cardinality(price_only_assets) > 0 then
    touched_assets := touched_assets || array(
      select o.asset from public.movers o
      where o.asset = any (price_only_assets)
      group by o.asset
      having count(*) > 1);
  end if;

  -- Stale movers: not quoted for 15 minutes. A row a call in flight has locked (decision 0111)
  -- is being quoted again by that call: it is not stale, and waiting for it could deadlock.
  with gone as (
    delete from public.movers m
    where m.id in (select s.id from public.movers s where s.ts < scanned_at - stale_after
                   for update skip locked)
    returning m.asset
  )
  select count(*), coalesce(array_agg(distinct g.asset) filter (where g.asset is not null), '{}')
    into removed, gone_assets
  from gone g;

  -- 4b. What needs the other venues (decision 0046): the venues that confirm a move, the gap
  --     between a DEX price and the asset's CEX price, and the trust score. They depend only on
  --     the rows of the same asset, so only the assets this scan touched (written, renamed away
  --     from, or gone stale) are decided again (decision 0053, amended); only rows whose result
  --     changed are written, and those join the rows to re-rank.
  --     The assets earlier shared sections owed a rescore (decision 0111: a row an ingest in flight
  --     had locked) are decided again here too.
  with taken as (
    delete from private.movers_rescore_owed o returning o.asset
  )
  select coalesce(array_agg(t.asset), '{}') into owed_assets from taken t;
  if upserted > 0 or removed > 0 or cardinality(owed_assets) > 0 then
    -- Each id once (decision 0068): a row this scan wrote may be rewritten by the rescore.
    changed_ids := array(select distinct c.id
                         from unnest(changed_ids
                                     || private.movers_rescore(touched_assets || gone_assets || owed_assets)) c (id));
  end if;

  perform pg_catalog.set_config('app.movers_top_deferred', '', true);

  -- 5. Retention: a range delete on price_history_ts_idx.
  delete from public.price_history h where h.ts < scanned_at - retention;
  get diagnostics pruned = row_count;

  -- 6. The publication (decision 0104): the kept lists and the broadcast, once for the grouped
  --    calls in flight together: the venue calls of one scan, and (round 2: the scan function
  --    gives every scan call one group) the per-venue scans whose ticks coincide. While another
  --    call of the group is in flight, this call leaves its changed rows to it: they are recorded
  --    as owed, in this transaction, and the last call in flight publishes every call's rows.
  --    In flight: it holds the group lock and its transaction is in progress with an id (it has
  --    written) or it waits for a lock (its venue's or the shared one, which this call holds): it
  --    has not passed this point, so it passes it after this call commits. A call that has
  --    committed leaves the running transactions before it releases its locks and waits for
  --    nothing, so a call between the two is not taken for one in flight (round 2: 0104's race,
  --    closed here). A holder that neither has written nor waits is not waited for (it
  --    publishes its own rows).
  --    The bound: a call publishes when what is owed was first left more than owed_bound ago or
  --    by owed_calls_bound calls, whatever is in flight; so overlapping calls never defer for ever.
  --    Every call that publishes (any caller, grouped or not) takes what is owed first, so a call
  --    that fails before publishing leaves the rows to the next call (the scan function makes one
  --    at once: an empty ingest).
  if scan_group is not null
     and not exists (
       select 1 from private.movers_publication_owed o
       where o.first_owed_at < pg_catalog.clock_timestamp() - owed_bound
          or o.calls >= owed_calls_bound)
     and exists (
       select 1 from pg_catalog.pg_locks l
       join pg_catalog.pg_stat_activity a on a.pid = l.pid
       where l.locktype = 'advisory' and l.granted and l.pid <> pg_catalog.pg_backend_pid()
         and l.database = (select d.oid from pg_catalog.pg_database d where d.datname = pg_catalog.current_database())
         and l.objsubid = 2
         and l.classid = (pg_catalog.hashtext('public.ingest_scan:group')::bigint & 4294967295)::oid
         and l.objid = (pg_catalog.hashtext(scan_group::text)::bigint & 4294967295)::oid
         and (a.backend_xid is not null
              or exists (select 1 from pg_catalog.pg_locks w where w.pid = l.pid and not w.granted))) then
    deferred := true;
    if cardinality(changed_ids) > 0 or removed > 0 then
      insert into private.movers_publication_owed as o (changed, since, broadcast, first_owed_at, calls)
      values (changed_ids, case when upserted > 0 then scanned_at end, upserted > 0,
              pg_catalog.clock_timestamp(), 1)
      on conflict (singleton) do update
        set changed = o.changed || excluded.changed,
            since = least(o.since, excluded.since),
            broadcast = o.broadcast or excluded.broadcast,
            calls = o.calls + 1;
    end if;
  else
    delete from private.movers_publication_owed o
      returning o.changed, o.since, o.broadcast into owed_changed, owed_since, owed_broadcast;
    -- The kept lists: the rows this scan (and the calls that left theirs to it) changed are
    -- merged into the kept top 100s (a full ranking when the change is too large or could pull
    -- up a row from below the kept lists).
    if cardinality(changed_ids) > 0 or removed > 0 or owed_changed is not null then
      perform private.refresh_movers_top(changed_ids || coalesce(owed_changed, '{}'));
    end if;
    -- One broadcast: a message per window (market:movers:<window>) and the teaser.
    if upserted > 0 or coalesce(owed_broadcast, false) then
      sent := private.broadcast_movers(least(case when upserted > 0 then scanned_at end, owed_since));
    end if;
  end if;

  return jsonb_build_object(
    'instruments', accepted,
    'movers', upserted,
    'stale', removed,
    'pruned', pruned,
    'broadcasts', sent,
    'skipped', received - accepted
  -- A call of a grouped scan says whether it left the publication to a later call of the scan.
  ) || case when scan_group is not null then jsonb_build_object('deferred', deferred) else '{}' end;
end;

$_$;

comment on function public.ingest_scan(quotes jsonb, scanned_at timestamp with time zone, scan_group uuid) is 'One scan: upsert instruments, append history, compute window percents and upsert movers (under a lock per venue, decision 0111), then one scan at a time: liquidity figures, flags and trust (decision 0046) of the assets it touched, merge the changed rows into the kept lists (decision 0053), prune, broadcast (decision 0085); grouped calls in flight together (scan_group: the venue calls of one scan and the per-venue scans whose ticks coincide) publish the kept lists and the broadcast once, at the last of them, within a bound of 1 s or 6 calls (decision 0104). Service role only.';

revoke execute on function public.ingest_scan(jsonb, timestamp with time zone, uuid) from public, anon, authenticated;
grant execute on function public.ingest_scan(jsonb, timestamp with time zone, uuid) to service_role;
