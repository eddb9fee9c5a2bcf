-- Ingest at 10,000 instruments: fewer reads of the movers in a scan (issue 26, decision 0068).
--
-- 1. ingest_scan reads the existing movers of its batch once (cur): the new movers are the
--    batch's rows without one (no anti-join against the table), the renamed assets come from the
--    same rows (no second join), and the update reaches its rows by id.
-- 2. ingest_scan hands movers_rescore only the assets whose rescore inputs changed: a row that
--    is new, renamed, or changed its move's direction (its sign where |pct| >= 2), its thin mark,
--    its own flags, its spread over 1 %, its liquidity points (the trust score's term), its
--    venue, or its price while another row of its asset exists (the DEX/CEX gap). Every other
--    row's confirmation, gap flag and trust score cannot change (their inputs are the rows of the
--    same asset), so the rescore of its asset would decide it and write nothing.
-- 3. ingest_scan passes each changed mover id once to refresh_movers_top.
-- ---------------------------------------------------------------------------------------------
-- 1. The kept lists: each changed id once; the count of every unchanged row only when it can
--    decide (decision 0068)
-- ---------------------------------------------------------------------------------------------
create or replace function private.refresh_movers_top(changed bigint[]) returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  windows constant integer[] := array[0, 5, 10, 15, 20, 25, 30];
  depth constant integer := 300;
  total bigint;
  unchanged bigint;
  merge boolean := false;
  -- Per window (in the order of windows): the lowest unchanged row of its kept ranking, where the
  -- merged ranking is cut; null where those rows are every unchanged row.
  cut_after bigint[] := array_fill(null::bigint, array[7]);
  candidates bigint[];
  -- Per window: how many rows of its kept ranking the change left as they were.
  kept_counts bigint[];
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('private.refresh_movers_top'));
  if changed is not null then
    -- Each changed id once (decision 0068): a row a scan wrote and the rescore wrote again counts
    -- once in the "most rows changed" test.
    changed := array(select distinct c.id from unnest(changed) c (id) where c.id is not null);
    select count(*) into total from public.movers;
    -- Ranking the kept rows and the changed ones pays only when most rows did not change.
    if cardinality(changed) * 2 < total then
      -- Per window: how many rows of its kept ranking are left unchanged, and the lowest of them.
      select count(*) = cardinality(windows), array_agg(s.kept order by s.ord), array_agg(s.lowest order by s.ord)
        into merge, kept_counts, cut_after
      from (
        select wi.ord, count(m.id) as kept,
               (array_agg(m.id order by r.o desc) filter (where m.id is not null))[1] as lowest
        from unnest(windows) with ordinality wi (w, ord)
        join private.movers_top t on t.window_minutes = wi.w and t.ranked is not null
        left join lateral unnest(t.ranked) with ordinality r (id, o) on true
        left join public.movers m on m.id = r.id and m.id not in (select c.id from unnest(changed) c (id))
        group by wi.ord
      ) s;
      -- Every row but the changed ones is unchanged, give or take changed ids no longer in the
      -- table: a window that keeps fewer rows than that cannot hold every unchanged row, so the
      -- exact count (a read of the changed rows) is taken only when some window might.
      if merge then
        if (select bool_or(k >= total - cardinality(changed)) from unnest(kept_counts) k) then
          select total - count(*) into unchanged
          from public.movers m where m.id in (select c.id from unnest(changed) c (id));
        end if;
        merge := (select bool_and(k >= 100 or coalesce(k >= unchanged, false)) from unnest(kept_counts) k);
      end if;
      if merge then
        for i in 1 .. cardinality(windows) loop
          if coalesce(kept_counts[i] >= unchanged, false) then
            cut_after[i] := null;
          end if;
        end loop;
        select coalesce(array_agg(distinct x.id), '{}') into candidates
        from (
          select r.id from private.movers_top t cross join lateral unnest(t.ranked) r (id)
          where t.window_minutes = any (windows)
          union all
          select c.id from unnest(changed) c (id)
        ) x;
      else
        cut_after := array_fill(null::bigint, array[7]);
      end if;
    end if;
  end if;

  with keys as materialized (
    select k.id, k.ts,
           abs(coalesce(k.pct_10sec, k.pct)) * k.f as r0,
           abs(coalesce(k.pct_5min, k.pct)) * k.f as r5,
           abs(coalesce(k.pct_10min, k.pct)) * k.f as r10,
           abs(coalesce(k.pct_15min, k.pct)) * k.f as r15,
           abs(coalesce(k.pct_20min, k.pct)) * k.f as r20,
           abs(coalesce(k.pct_25min, k.pct)) * k.f as r25,
           abs(coalesce(k.pct_30min, k.pct)) * k.f as r30
    from (
      select m.id, m.ts, m.pct, m.pct_10sec, m.pct_5min, m.pct_10min, m.pct_15min, m.pct_20min, m.pct_25min,
             m.pct_30min, power(0.5, cardinality(m.flags) + case when m.thin then 1 else 0 end) as f
      from public.movers m
      where not merge or m.id in (select c.id from unnest(candidates) c (id))
    ) k
  ),
  ranked as (
    select w.w, w.cut,
           array(select k.id from keys k
                 order by case w.w when 0 then k.r0 when 5 then k.r5 when 10 then k.r10 when 15 then k.r15
                                   when 20 then k.r20 when 25 then k.r25 else k.r30 end desc,
                          k.ts desc, k.id desc
                 limit depth) as ids
    from unnest(windows, cut_after) as w (w, cut)
  ),
  tops as (
    select r.w,
           case when r.cut is null then r.ids
                else r.ids[1:coalesce(array_position(r.ids, r.cut), depth)] end as ids
    from ranked r
  )
  insert into private.movers_top as t (window_minutes, entries, refreshed_at, ranked)
  select tp.w,
         coalesce((
           select jsonb_agg(to_jsonb(e) - 'rank' order by e.rank desc, e.ts desc, e.id desc)
           from (
             select m.id, m.instrument_id, m.symbol, m.exchange, m.exchange_type, m.network, m.source,
                    m.pool_url, m.price, m.price_3hour_ago,
                    coalesce(case tp.w
                      when 0 then m.pct_10sec when 5 then m.pct_5min when 10 then m.pct_10min
                      when 15 then m.pct_15min when 20 then m.pct_20min when 25 then m.pct_25min
                      else m.pct_30min end, m.pct) as pct,
                    tp.w as window_used, m.pct_3hour, m.volume_24h, m.ts,
                    coalesce(m.quoted_at, m.ts) as quoted_at,
                    m.volume_24h_usd, m.liquidity_usd, m.spread_pct, m.thin, m.confirmed_on, m.flags,
                    m.trust_score, coalesce(m.asset, upper(split_part(m.symbol, '/', 1))) as asset, m.pool_name,
                    abs(coalesce(case tp.w
                      when 0 then m.pct_10sec when 5 then m.pct_5min when 10 then m.pct_10min
                      when 15 then m.pct_15min when 20 then m.pct_20min when 25 then m.pct_25min
                      else m.pct_30min end, m.pct))
                      * power(0.5, cardinality(m.flags) + case when m.thin then 1 else 0 end) as rank
             from public.movers m
             where m.id = any (tp.ids[1:100])
           ) e
         ), '[]'::jsonb),
         now(),
         tp.ids
  from tops tp
  on conflict (window_minutes) do update
    set entries = excluded.entries, refreshed_at = excluded.refreshed_at, ranked = excluded.ranked;
end;
$$;
revoke execute on function private.refresh_movers_top(bigint[]) from public, anon, authenticated;
comment on function private.refresh_movers_top(bigint[]) is
  'Rebuilds the kept top 100 of each window (decision 0046''s rank); given the ids a scan changed, merges them into each window''s kept ranking when that is exact, else ranks every row (decisions 0053, 0068).';

-- ---------------------------------------------------------------------------------------------
-- 2. ingest_scan
-- ---------------------------------------------------------------------------------------------
create or replace function public.ingest_scan(quotes jsonb, scanned_at timestamptz default now())
returns jsonb
  language plpgsql security definer
  set search_path = ''
  -- The window query's estimated cost crosses jit_above_cost; compiling it costs more than it saves.
  set jit = off
  -- The batch's materialized steps (10,000 wide rows) stay in memory instead of spilling to disk.
  set work_mem = '64MB'
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
  cur as materialized (
    select p.*, m.id as mover_id, m.asset as old_asset, m.quoted_at as old_quoted_at, m.symbol as old_symbol,
           m.exchange as old_exchange, m.exchange_type as old_exchange_type, m.price as old_price,
           m.pct as old_pct, m.thin as old_thin, m.flags as old_flags, m.spread_pct as old_spread_pct,
           m.liquidity_usd as old_liquidity_usd, m.volume_24h_usd as old_volume_24h_usd
    from scored p
    left join public.movers m on m.instrument_id = p.instrument_id
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
       or (v.price_changed
           and exists (select 1 from public.movers o where o.asset = v.asset and o.id <> v.id))
  )
  select (select count(*) from written),
         (select coalesce(array_agg(w.id), '{}') from written w),
         (select coalesce(array_agg(distinct a.asset) filter (where a.asset is not null), '{}') from rescore a)
    into upserted, changed_ids, touched_assets;

  -- Stale movers: not quoted for 15 minutes.
  with gone as (
    delete from public.movers m where m.ts < scanned_at - stale_after returning m.asset
  )
  select count(*), coalesce(array_agg(distinct g.asset) filter (where g.asset is not null), '{}')
    into removed, gone_assets
  from gone g;

  -- 4b. What needs the other venues (decision 0046): the venues that confirm a move, the gap
  --     between a DEX price and the asset's CEX price, and the trust score. They depend only on
  --     the rows of the same asset, so only the assets this scan touched (written, renamed away
  --     from, or gone stale) are decided again (decision 0053, amended); only rows whose result
  --     changed are written, and those join the rows to re-rank.
  if upserted > 0 or removed > 0 then
    -- Each id once (decision 0068): a row this scan wrote may be rewritten by the rescore.
    changed_ids := array(select distinct c.id
                         from unnest(changed_ids || private.movers_rescore(touched_assets || gone_assets)) c (id));
  end if;

  perform pg_catalog.set_config('app.movers_top_deferred', '', true);
  -- The kept lists: the rows this scan changed are merged into the kept top 100s (a full ranking
  -- when the change is too large or could pull up a row from below the kept lists).
  if upserted > 0 or removed > 0 then
    perform private.refresh_movers_top(changed_ids);
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
comment on function public.ingest_scan(jsonb, timestamptz) is
  'One scan: upsert instruments, append history, compute window percents, liquidity figures, flags and trust (decision 0046) of the assets it touched, upsert movers, merge the changed rows into the kept lists (decision 0053), prune, broadcast. Service role only.';
