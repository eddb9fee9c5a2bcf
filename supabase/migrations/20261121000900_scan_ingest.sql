-- One scan, one call: public.ingest_scan(quotes, scanned_at) takes a scan's quotes (a JSON array of
-- supabase/functions/_shared/domain/market.ts `Quote` objects, camelCase keys) and, in one
-- transaction, upserts the instruments, appends their price history, computes every window's
-- percent against that history, upserts the movers, prunes history beyond the retention
-- (HISTORY_RETENTION_MINUTES = 200) and broadcasts the movers once (private.broadcast_movers).
-- Decision 0010 explains the window rule and the measurements behind the shape of the queries.

-- Window W of a quote at time t: the reference price is the latest sample at or before t - W; when
-- there is none, the oldest sample inside the window if it is at least W / 2 old, i.e. the oldest
-- sample in (t - W, t - W / 2]; otherwise null. Each probe is one backward (or forward) step on the
-- primary key (instrument_id, ts); the second probe runs only when the first finds nothing.
-- pct_W = round(100 * (price - reference) / reference, 4). The generic pct is the 30-minute
-- percent, else the longest shorter window that has one, else 0.
create function public.ingest_scan(quotes jsonb, scanned_at timestamptz default now())
returns jsonb
  language plpgsql security definer
  set search_path = ''
  -- The window query's estimated cost crosses jit_above_cost; compiling it costs more than it saves.
  set jit = off
as $$
declare
  retention constant interval := interval '200 minutes';
  -- The batch as parallel arrays (one element per accepted quote): arrays of scalars unnest
  -- fast; an array of composites does not.
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
  received integer;
  accepted integer;
  upserted integer;
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
  with raw as (
    select e.value as q, e.ordinality as ord
    from jsonb_array_elements(quotes) with ordinality e
    where jsonb_typeof(e.value) = 'object'
  ),
  -- Materialized, so each quote is parsed once (inlined, the parse would be repeated per use).
  fields as materialized (
    select r.ord,
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
           -- ISO 8601 date and time, then a day that exists in its month, then the cast.
           case when jsonb_typeof(r.q -> 'ts') = 'string'
                 and (r.q ->> 'ts') ~ '^[1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,9})?)?([Zz]|[+-](0[0-9]|1[0-4])(:?[0-5][0-9])?)?$'
             then case when substr(r.q ->> 'ts', 9, 2)::int <= extract(day from
                              make_date(substr(r.q ->> 'ts', 1, 4)::int, substr(r.q ->> 'ts', 6, 2)::int, 1)
                              + interval '1 month - 1 day')
                    then (r.q ->> 'ts')::timestamptz end
           end as ts
    from raw r
  ),
  valid as (
    select f.ord, f.symbol, f.exchange, f.exchange_type,
           case when f.network_type = 'string' then f.network end as network,
           case when f.source_type = 'string' then f.source else 'simulated' end as source,
           case when f.pool_url_type = 'string' then f.pool_url end as pool_url,
           f.price, f.volume_24h,
           case when f.ts_type = 'null' then scanned_at else f.ts end as ts
    from fields f
    where char_length(f.symbol) between 1 and 64
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
  -- One quote per instrument: the latest (then the last in the array); the others are skipped.
  one as (
    select distinct on (v.symbol, v.exchange) v.*
    from valid v
    where v.ts > scanned_at - retention and v.ts <= scanned_at + interval '1 minute'
    order by v.symbol, v.exchange, v.ts desc, v.ord desc
  )
  select coalesce(array_agg(o.symbol), '{}'), array_agg(o.exchange), array_agg(o.exchange_type),
         array_agg(o.network), array_agg(o.source), array_agg(o.pool_url), array_agg(o.price),
         array_agg(o.volume_24h), array_agg(o.ts)
    into symbols, exchanges, types, networks, sources, pool_urls, prices, volumes, stamps
  from one o;
  accepted := cardinality(symbols);

  -- 2. Instruments: new ones are inserted; known ones are updated only when something changed
  --    (a network or pool link the quote does not know is kept). In key order, so concurrent
  --    writers cannot deadlock.
  insert into public.instruments as i (symbol, exchange, exchange_type, network, source, pool_url)
  select b.symbol, b.exchange, b.exchange_type, b.network, b.source, b.pool_url
  from unnest(symbols, exchanges, types, networks, sources, pool_urls)
         as b (symbol, exchange, exchange_type, network, source, pool_url)
  order by b.symbol, b.exchange
  on conflict (symbol, exchange) do update
    set exchange_type = excluded.exchange_type,
        network = coalesce(excluded.network, i.network),
        source = excluded.source,
        pool_url = coalesce(excluded.pool_url, i.pool_url)
    where (i.exchange_type, i.network, i.source, i.pool_url)
          is distinct from (excluded.exchange_type, coalesce(excluded.network, i.network), excluded.source,
                            coalesce(excluded.pool_url, i.pool_url));

  -- From here on the batch is keyed by instrument id. (One aggregate pass keeps the arrays aligned.)
  select coalesce(array_agg(i.id), '{}'), array_agg(b.price), array_agg(b.volume_24h), array_agg(b.ts)
    into ids, prices, volumes, stamps
  from unnest(symbols, exchanges, prices, volumes, stamps) as b (symbol, exchange, price, volume_24h, ts)
  join public.instruments i on i.symbol = b.symbol and i.exchange = b.exchange;

  -- 3. History: one sample per quote (a sample already stored for that instant is kept).
  insert into public.price_history (instrument_id, ts, price, volume_24h)
  select b.instrument_id, b.ts, b.price, b.volume_24h
  from unnest(ids, stamps, prices, volumes) as b (instrument_id, ts, price, volume_24h)
  on conflict (instrument_id, ts) do nothing;

  -- 4. Windows and movers.
  -- refs is materialized: each window's probes run once per instrument, however often pcts
  -- refers to the reference.
  with refs as materialized (
    select b.*,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '10 seconds' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '10 seconds' and h.ts <= b.ts - interval '5 seconds' order by h.ts limit 1)
      ) as r_10sec,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '5 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '5 minutes' and h.ts <= b.ts - interval '150 seconds' order by h.ts limit 1)
      ) as r_5min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '10 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '10 minutes' and h.ts <= b.ts - interval '5 minutes' order by h.ts limit 1)
      ) as r_10min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '15 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '15 minutes' and h.ts <= b.ts - interval '450 seconds' order by h.ts limit 1)
      ) as r_15min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '20 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '20 minutes' and h.ts <= b.ts - interval '10 minutes' order by h.ts limit 1)
      ) as r_20min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '25 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '25 minutes' and h.ts <= b.ts - interval '750 seconds' order by h.ts limit 1)
      ) as r_25min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '30 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '30 minutes' and h.ts <= b.ts - interval '15 minutes' order by h.ts limit 1)
      ) as r_30min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '3 hours' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '3 hours' and h.ts <= b.ts - interval '90 minutes' order by h.ts limit 1)
      ) as r_3hour
    from unnest(ids, stamps, prices, volumes) as b (instrument_id, ts, price, volume_24h)
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
  )
  insert into public.movers as m (instrument_id, symbol, exchange, exchange_type, network, source, pool_url, price,
                                  price_3hour_ago, pct, pct_10sec, pct_5min, pct_10min, pct_15min, pct_20min,
                                  pct_25min, pct_30min, pct_3hour, volume_24h, ts)
  select p.instrument_id, i.symbol, i.exchange, i.exchange_type, i.network, i.source, i.pool_url, p.price,
         p.r_3hour, coalesce(p.p_30min, p.p_25min, p.p_20min, p.p_15min, p.p_10min, p.p_5min, p.p_10sec, 0),
         p.p_10sec, p.p_5min, p.p_10min, p.p_15min, p.p_20min, p.p_25min, p.p_30min, p.p_3hour, p.volume_24h,
         scanned_at
  from pcts p
  join public.instruments i on i.id = p.instrument_id
  order by p.instrument_id
  on conflict (instrument_id) do update
    set symbol = excluded.symbol, exchange = excluded.exchange, exchange_type = excluded.exchange_type,
        network = excluded.network, source = excluded.source, pool_url = excluded.pool_url,
        price = excluded.price, price_3hour_ago = excluded.price_3hour_ago, pct = excluded.pct,
        pct_10sec = excluded.pct_10sec, pct_5min = excluded.pct_5min, pct_10min = excluded.pct_10min,
        pct_15min = excluded.pct_15min, pct_20min = excluded.pct_20min, pct_25min = excluded.pct_25min,
        pct_30min = excluded.pct_30min, pct_3hour = excluded.pct_3hour, volume_24h = excluded.volume_24h,
        ts = excluded.ts;
  get diagnostics upserted = row_count;

  -- 5. Retention: a range delete on price_history_ts_idx.
  delete from public.price_history h where h.ts < scanned_at - retention;
  get diagnostics pruned = row_count;

  -- 6. One broadcast per scan: a message per window (market:movers:<window>).
  if upserted > 0 then
    sent := private.broadcast_movers(scanned_at);
  end if;

  return jsonb_build_object(
    'instruments', accepted,
    'movers', upserted,
    'pruned', pruned,
    'broadcasts', sent,
    'skipped', received - accepted
  );
end;
$$;
comment on function public.ingest_scan(jsonb, timestamptz) is
  'One scan: upsert instruments, append history, compute window percents, upsert movers, prune, broadcast. Service role only.';
revoke execute on function public.ingest_scan(jsonb, timestamptz) from public, anon, authenticated;
grant execute on function public.ingest_scan(jsonb, timestamptz) to service_role;
