-- A market instrument is what a venue trades, not a name (issue 13, decision 0017).
--
-- Until now instruments were unique on (symbol, exchange): GeckoTerminal's "WETH / USDC 0.05%" and
-- "WETH / USDC 0.3%" pools on Uniswap V3 (Ethereum) both became `WETH/USDC · Uniswap V3 (Ethereum)`,
-- ingest_scan kept one of them per scan, and the history alternated between two pools' prices
-- (a move that never happened); same-symbol copycat tokens on one DEX merged the same way.
--
-- 1. instruments.venue_key (text, not null, unique) is the identity: a DEX pool is
--    `<network>:<pool address>` (EVM addresses lower-cased), a CEX market `<exchange>:<symbol>`.
--    Quotes carry it (`venueKey`); a quote or an insert without it gets the key of
--    private.instrument_venue_key (the pool address from the pool link, else exchange and
--    symbol). (symbol, exchange) is no longer unique; an index keeps lookups by symbol fast.
-- 2. Existing rows keep their ids, so every price_history sample, mover and link stays. Each gets
--    its key from its own columns; when two old rows name the same pool (a DEX renamed), the one
--    with the newest sample takes the pool's key and the other keeps `<exchange>:<symbol>`
--    (it goes stale and is no longer quoted, its history pruned by retention as usual).
-- 3. ingest_scan and ingest_backfill match instruments on venue_key. Validation, results, locks,
--    the window rule and the statements' shape are those of 20261121001300 and 20261123000100;
--    what changed: a `venueKey` of 1–200 characters (or none) is part of a valid quote, one quote
--    per venue key is kept, and a known instrument whose symbol or exchange text changed (the
--    venue renamed it) is updated.

-- ---------------------------------------------------------------------------------------------
-- 1. The rule, and the column
-- ---------------------------------------------------------------------------------------------
-- The key of an instrument that did not bring one: a DEX pool whose link names its address
-- (`https://www.geckoterminal.com/<network id>/pools/<address>`) is `<network>:<address>`, EVM
-- addresses lower-cased (dexVenueKey in supabase/functions/_shared/domain/market.ts); anything else
-- is `<exchange>:<symbol>` (cexVenueKey).
create function private.instrument_venue_key(
  exchange_type public.exchange_type, network text, pool_url text, exchange text, symbol text
) returns text
  language sql immutable
  set search_path = ''
as $$
  select case
    when exchange_type = 'dex' and network is not null and network <> ''
         and substring(pool_url from '/pools/([A-Za-z0-9]{20,80})/?$') is not null
    then network || ':' || case
      when substring(pool_url from '/pools/([A-Za-z0-9]{20,80})/?$') ~* '^0x[0-9a-f]+$'
        then lower(substring(pool_url from '/pools/([A-Za-z0-9]{20,80})/?$'))
      else substring(pool_url from '/pools/([A-Za-z0-9]{20,80})/?$')
    end
    else exchange || ':' || symbol
  end
$$;
revoke execute on function private.instrument_venue_key(public.exchange_type, text, text, text, text)
  from public, anon, authenticated;

alter table public.instruments add column venue_key text;
comment on column public.instruments.venue_key is
  'The instrument''s identity: <network>:<pool address> for a DEX pool, <exchange>:<symbol> for a CEX market (decision 0017).';

-- 2. Existing rows: their own key; when two claim one pool, the one with the newest sample wins.
with derived as (
  select i.id,
         private.instrument_venue_key(i.exchange_type, i.network, i.pool_url, i.exchange, i.symbol) as key,
         i.exchange || ':' || i.symbol as fallback,
         (select max(h.ts) from public.price_history h where h.instrument_id = i.id) as newest
  from public.instruments i
),
ranked as (
  select d.*, row_number() over (partition by d.key order by d.newest desc nulls last, d.id desc) as n
  from derived d
)
update public.instruments i
  set venue_key = case when r.n = 1 then r.key else r.fallback end
from ranked r
where r.id = i.id;
-- A fallback that meets another row's key (an exchange text shaped like a network): made unique by id.
update public.instruments i
  set venue_key = i.venue_key || '#' || i.id
where exists (select 1 from public.instruments o where o.venue_key = i.venue_key and o.id < i.id);

alter table public.instruments
  alter column venue_key set not null,
  add constraint instruments_venue_key_length check (char_length(venue_key) between 1 and 200),
  add constraint instruments_venue_key_key unique (venue_key),
  drop constraint instruments_symbol_exchange_key;
create index instruments_symbol_exchange_idx on public.instruments (symbol, exchange);

-- Rows inserted without a key (seed data, tests, tools) get the rule's. Only those call the
-- function: the scan and the backfill bring their keys, so their inserts pay nothing.
create function private.set_instrument_venue_key() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  new.venue_key := private.instrument_venue_key(new.exchange_type, new.network, new.pool_url, new.exchange, new.symbol);
  return new;
end;
$$;
revoke execute on function private.set_instrument_venue_key() from public, anon, authenticated;
create trigger instruments_venue_key before insert on public.instruments
  for each row when (new.venue_key is null) execute function private.set_instrument_venue_key();

-- ---------------------------------------------------------------------------------------------
-- 3. The scan, keyed on venue_key
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
    where v.ts > scanned_at - retention and v.ts <= scanned_at + interval '1 minute'
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
          volume_24h = p.volume_24h, ts = scanned_at
    from pcts p
    where m.instrument_id = p.instrument_id
    returning m.instrument_id
  ),
  inserted as (
    insert into public.movers (instrument_id, symbol, exchange, exchange_type, network, source, pool_url, price,
                               price_3hour_ago, pct, pct_10sec, pct_5min, pct_10min, pct_15min, pct_20min,
                               pct_25min, pct_30min, pct_3hour, volume_24h, ts)
    select p.instrument_id, p.symbol, p.exchange, p.exchange_type, p.network, p.source, p.pool_url, p.price,
           p.r_3hour, coalesce(p.p_30min, p.p_25min, p.p_20min, p.p_15min, p.p_10min, p.p_5min, p.p_10sec, 0),
           p.p_10sec, p.p_5min, p.p_10min, p.p_15min, p.p_20min, p.p_25min, p.p_30min, p.p_3hour, p.volume_24h,
           scanned_at
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
-- 3. The backfill, keyed on venue_key
-- ---------------------------------------------------------------------------------------------
create or replace function public.ingest_backfill(batch jsonb, until timestamptz default now())
returns jsonb
  language plpgsql security definer
  set search_path = ''
  set jit = off
as $$
declare
  retention constant interval := interval '200 minutes';
  n_instruments integer;
  n_stamps integer;
  stamps timestamptz[] := '{}';
  stamp_text text;
  stamp timestamptz;
  created integer;
  usable integer;
  inserted integer;
begin
  if batch is null or jsonb_typeof(batch) <> 'object'
     or jsonb_typeof(batch -> 'instruments') is distinct from 'array'
     or jsonb_typeof(batch -> 'stamps') is distinct from 'array'
     or jsonb_typeof(batch -> 'prices') is distinct from 'array'
     or coalesce(jsonb_typeof(batch -> 'volumes'), 'array') <> 'array' then
    raise exception 'batch must be an object with the arrays instruments, stamps, prices (and volumes)'
      using errcode = '22023';
  end if;
  until := coalesce(until, now());
  n_instruments := jsonb_array_length(batch -> 'instruments');
  n_stamps := jsonb_array_length(batch -> 'stamps');
  if jsonb_array_length(batch -> 'prices') <> n_instruments
     or (batch ? 'volumes' and jsonb_array_length(batch -> 'volumes') <> n_instruments) then
    raise exception 'prices (and volumes) must hold one array per instrument' using errcode = '22023';
  end if;

  -- One writer of market data at a time: the same lock as ingest_scan.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('public.ingest_scan'));

  -- Stamps: an ISO 8601 text within the retention before `until`, else null (its samples skipped).
  for stamp_text in select e from jsonb_array_elements_text(batch -> 'stamps') e loop
    stamp := null;
    if stamp_text ~ '^[1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,9})?)?([Zz]|[+-](0[0-9]|1[0-4])(:?[0-5][0-9])?)?$' then
      begin
        stamp := stamp_text::timestamptz;
      exception when others then
        stamp := null;
      end;
      if stamp <= until - retention or stamp > until + interval '1 minute' then
        stamp := null;
      end if;
    end if;
    stamps := stamps || stamp;
  end loop;

  -- (A new name: a session may still hold the previous version's table until its transaction ends.)
  create temporary table if not exists backfill_keyed_instruments (
    ord integer primary key, venue_key text, symbol text, exchange text, exchange_type public.exchange_type,
    network text, source text, pool_url text
  ) on commit drop;
  truncate backfill_keyed_instruments;

  -- Instruments that pass ingest_scan's rules, identified as ingest_scan identifies them: the
  -- venueKey, else the rule of private.instrument_venue_key.
  insert into backfill_keyed_instruments
  select x.ord,
         case when jsonb_typeof(x.q -> 'venueKey') = 'string' then x.q ->> 'venueKey'
           else private.instrument_venue_key((x.q ->> 'exchangeType')::public.exchange_type,
                  case when jsonb_typeof(x.q -> 'network') = 'string' then x.q ->> 'network' end,
                  case when jsonb_typeof(x.q -> 'poolUrl') = 'string' then x.q ->> 'poolUrl' end,
                  x.q ->> 'exchange', x.q ->> 'symbol')
         end,
         x.q ->> 'symbol', x.q ->> 'exchange', (x.q ->> 'exchangeType')::public.exchange_type,
         x.q ->> 'network', coalesce(x.q ->> 'source', 'simulated'), x.q ->> 'poolUrl'
  from jsonb_array_elements(batch -> 'instruments') with ordinality as x (q, ord)
  where jsonb_typeof(x.q) = 'object'
    and (coalesce(jsonb_typeof(x.q -> 'venueKey'), 'null') = 'null'
         or (jsonb_typeof(x.q -> 'venueKey') = 'string' and char_length(x.q ->> 'venueKey') between 1 and 200))
    and jsonb_typeof(x.q -> 'symbol') = 'string' and char_length(x.q ->> 'symbol') between 1 and 64
    and jsonb_typeof(x.q -> 'exchange') = 'string' and char_length(x.q ->> 'exchange') between 1 and 120
    and jsonb_typeof(x.q -> 'exchangeType') = 'string' and x.q ->> 'exchangeType' in ('cex', 'dex')
    and (coalesce(jsonb_typeof(x.q -> 'network'), 'null') = 'null'
         or (jsonb_typeof(x.q -> 'network') = 'string' and char_length(x.q ->> 'network') between 1 and 64))
    and (coalesce(jsonb_typeof(x.q -> 'source'), 'null') = 'null'
         or (jsonb_typeof(x.q -> 'source') = 'string' and char_length(x.q ->> 'source') between 1 and 40))
    and (coalesce(jsonb_typeof(x.q -> 'poolUrl'), 'null') = 'null'
         or (jsonb_typeof(x.q -> 'poolUrl') = 'string' and x.q ->> 'poolUrl' ~ '^https://[^[:space:]]+$'
             and char_length(x.q ->> 'poolUrl') <= 2048))
  on conflict (ord) do nothing;
  get diagnostics usable = row_count;

  insert into public.instruments (venue_key, symbol, exchange, exchange_type, network, source, pool_url)
  select distinct on (b.venue_key) b.venue_key, b.symbol, b.exchange, b.exchange_type, b.network, b.source, b.pool_url
  from backfill_keyed_instruments b
  order by b.venue_key, b.ord
  on conflict (venue_key) do nothing;
  get diagnostics created = row_count;

  -- Samples: instrument i's k-th price at the k-th stamp, when both are usable.
  insert into public.price_history (instrument_id, ts, price, volume_24h)
  select i.id, stamps[s.k], (s.price)::numeric,
         case when jsonb_typeof(s.volume) = 'number' and (s.volume)::numeric >= 0 then (s.volume)::numeric end
  from backfill_keyed_instruments b
  join public.instruments i on i.venue_key = b.venue_key
  cross join lateral rows from (
    jsonb_array_elements(case when jsonb_typeof(batch -> 'prices' -> (b.ord::int - 1)) = 'array'
                           then batch -> 'prices' -> (b.ord::int - 1) else '[]'::jsonb end),
    jsonb_array_elements(case when jsonb_typeof(batch -> 'volumes' -> (b.ord::int - 1)) = 'array'
                           then batch -> 'volumes' -> (b.ord::int - 1) else '[]'::jsonb end)
  ) with ordinality as s (price, volume, k)
  where s.k <= n_stamps
    and stamps[s.k] is not null
    and jsonb_typeof(s.price) = 'number' and (s.price)::numeric > 0
  order by i.id, stamps[s.k]
  on conflict (instrument_id, ts) do nothing;
  get diagnostics inserted = row_count;

  return jsonb_build_object(
    'instruments', created,
    'samples', inserted,
    'skippedInstruments', n_instruments - usable
  );
end;
$$;
