-- Moves you can trust (issue 26, decisions 0046 and 0047): liquidity context in every mover row,
-- a thin mark, cross-venue confirmation, five manipulation flags, a trust score and a grouping key.
--
-- 1. movers gains the venue's figures (24 h volume in USD, pool liquidity, spread, pool name and
--    creation time) and the results: asset (grouping key), thin, flags, confirmed_on, trust_score.
--    price_history gains the pool liquidity of each sample (a pulled pool is a fall of liquidity
--    within the window, so the window's start must be known).
-- 2. ingest_scan stores the figures, the thin mark and the flags a quote carries on its own;
--    private.movers_rescore (step 4b) decides what needs the other venues: confirmation, the
--    DEX/CEX price gap and the trust score.
-- 3. refresh_movers_top ranks a flagged or thin move lower (its move counts half per flag and
--    half again when thin; never dropped); the kept lists, the broadcasts and movers_feed carry
--    every new field.
-- The thresholds are those of decision 0046 and of supabase/functions/_shared/domain/trust.ts.

-- ---------------------------------------------------------------------------------------------
-- 1. Columns
-- ---------------------------------------------------------------------------------------------
alter table public.movers
  add column asset text,
  add column volume_24h_usd numeric check (volume_24h_usd >= 0),
  add column liquidity_usd numeric check (liquidity_usd >= 0),
  add column spread_pct numeric check (spread_pct >= 0 and spread_pct < 100),
  add column pool_name text check (char_length(pool_name) between 1 and 200),
  add column pool_created_at timestamptz,
  add column thin boolean not null default false,
  add column flags text[] not null default '{}'
    check (flags <@ array['no_volume_rise', 'young_pool', 'pulled_pool', 'dex_cex_gap', 'wash_volume']::text[]),
  add column confirmed_on text[] not null default '{}',
  add column trust_score integer not null default 0 check (trust_score between 0 and 100);
comment on column public.movers.asset is
  'Grouping key: the base asset upper-cased, wrapped natives as their native (WBNB -> BNB; decision 0047).';
comment on column public.movers.volume_24h_usd is '24 h quote volume in USD (CEX) or the pool''s 24 h volume in USD (DEX).';
comment on column public.movers.liquidity_usd is 'DEX pool reserve in USD; null for CEX.';
comment on column public.movers.spread_pct is '(ask - bid) / mid * 100 where the venue gives a book ticker.';
comment on column public.movers.pool_name is 'The DEX pool''s own name with its fee tier ("SFP / WBNB 0.25%"); null for CEX.';
comment on column public.movers.thin is 'Below the floor of its venue type (decision 0046).';
comment on column public.movers.flags is 'Manipulation flags (decision 0046); a flagged move ranks lower and is never hidden.';
comment on column public.movers.confirmed_on is 'The other venues where the same asset moved the same way (decision 0046).';
comment on column public.movers.trust_score is 'Trust score 0..100 from liquidity, confirmation and flags (decision 0046).';
create index movers_asset_idx on public.movers (asset);

alter table public.price_history add column liquidity_usd numeric check (liquidity_usd >= 0);
comment on column public.price_history.liquidity_usd is 'The pool''s reserve in USD at the sample (DEX); null for CEX.';

-- ---------------------------------------------------------------------------------------------
-- 2. Scoring what needs the other venues
-- ---------------------------------------------------------------------------------------------
-- For every current mover: confirmed_on (the other venues where the same asset moved at least
-- 2 % the same way over the headline window, the row itself having moved at least 2 %; a DEX row
-- is confirmed by CEX venues only, a CEX row by any other venue), the dex_cex_gap flag (a DEX
-- price more than 5 % from the mean price of the asset's dollar-quoted CEX pairs) and the trust
-- score. Writes only the rows whose result changed; returns how many.
create function private.movers_rescore() returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  written integer;
begin
  with moving as (
    select m.asset, sign(m.pct) as dir,
           array_agg(distinct m.exchange) as venues,
           array_agg(distinct m.exchange) filter (where m.exchange_type = 'cex') as cex_venues
    from public.movers m
    where abs(m.pct) >= 2 and m.asset is not null
    group by m.asset, sign(m.pct)
  ),
  cex_price as (
    select m.asset, avg(m.price) as price
    from public.movers m
    where m.exchange_type = 'cex' and m.asset is not null
      and upper(split_part(m.symbol, '/', 2)) in ('USD', 'USDT', 'USDC', 'FDUSD', 'DAI')
    group by m.asset
  ),
  decided as (
    select m.id, m.exchange_type, m.volume_24h_usd, m.liquidity_usd, m.spread_pct, m.thin,
           case when abs(m.pct) >= 2 then
             coalesce(array_remove(case when m.exchange_type = 'cex' then v.venues else v.cex_venues end, m.exchange), '{}')
           else '{}' end as confirmed_on,
           array_remove(m.flags, 'dex_cex_gap')
             || case when m.exchange_type = 'dex' and c.price > 0 and abs(m.price - c.price) / c.price > 0.05
                  then array['dex_cex_gap'] else '{}'::text[] end as flags
    from public.movers m
    left join moving v on v.asset = m.asset and v.dir = sign(m.pct)
    left join cex_price c on c.asset = m.asset
  ),
  scored as (
    select d.id, d.confirmed_on, d.flags,
           greatest(0, least(100,
             20
             + greatest(0, least(50, round(12.5 * (log(greatest(
                 case when d.exchange_type = 'dex' then d.liquidity_usd else d.volume_24h_usd end, 1)::float8) - 3))))
             + 15 * least(cardinality(d.confirmed_on), 2)
             - 25 * cardinality(d.flags)
             - case when d.thin then 20 else 0 end
             - case when d.spread_pct > 1 then 10 else 0 end))::integer as trust_score
    from decided d
  )
  update public.movers m
    set confirmed_on = s.confirmed_on, flags = s.flags, trust_score = s.trust_score
  from scored s
  where m.id = s.id
    and (m.confirmed_on, m.flags, m.trust_score) is distinct from (s.confirmed_on, s.flags, s.trust_score);
  get diagnostics written = row_count;
  return written;
end;
$$;
revoke execute on function private.movers_rescore() from public, anon, authenticated;
comment on function private.movers_rescore() is
  'Confirmation, the DEX/CEX price gap and the trust score of every mover (decision 0046); run by ingest_scan.';

-- ---------------------------------------------------------------------------------------------
-- 3. The kept lists and the feed
-- ---------------------------------------------------------------------------------------------
-- The rank: the window's move, halved per flag and halved again when thin (decision 0046).
create or replace function private.refresh_movers_top() returns void
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('private.refresh_movers_top'));
  insert into private.movers_top as t (window_minutes, entries, refreshed_at)
  select w.w,
         coalesce((
           select jsonb_agg(to_jsonb(e) - 'rank' order by e.rank desc, e.ts desc, e.id desc)
           from (
             select m.id, m.instrument_id, m.symbol, m.exchange, m.exchange_type, m.network, m.source,
                    m.pool_url, m.price, m.price_3hour_ago,
                    coalesce(case w.w
                      when 0 then m.pct_10sec when 5 then m.pct_5min when 10 then m.pct_10min
                      when 15 then m.pct_15min when 20 then m.pct_20min when 25 then m.pct_25min
                      else m.pct_30min end, m.pct) as pct,
                    w.w as window_used, m.pct_3hour, m.volume_24h, m.ts,
                    coalesce(m.quoted_at, m.ts) as quoted_at,
                    m.volume_24h_usd, m.liquidity_usd, m.spread_pct, m.thin, m.confirmed_on, m.flags,
                    m.trust_score, coalesce(m.asset, upper(split_part(m.symbol, '/', 1))) as asset, m.pool_name,
                    abs(coalesce(case w.w
                      when 0 then m.pct_10sec when 5 then m.pct_5min when 10 then m.pct_10min
                      when 15 then m.pct_15min when 20 then m.pct_20min when 25 then m.pct_25min
                      else m.pct_30min end, m.pct))
                      * power(0.5, cardinality(m.flags) + case when m.thin then 1 else 0 end) as rank
             from public.movers m
             -- Ranking ids alone (narrow rows) is twice as fast as ranking whole rows.
             where m.id in (
               select k.id from public.movers k
               order by abs(coalesce(case w.w
                          when 0 then k.pct_10sec when 5 then k.pct_5min when 10 then k.pct_10min
                          when 15 then k.pct_15min when 20 then k.pct_20min when 25 then k.pct_25min
                          else k.pct_30min end, k.pct))
                          * power(0.5, cardinality(k.flags) + case when k.thin then 1 else 0 end) desc,
                        k.ts desc, k.id desc
               limit 100)
           ) e
         ), '[]'::jsonb),
         now()
  from unnest(array[0, 5, 10, 15, 20, 25, 30]) as w (w)
  on conflict (window_minutes) do update set entries = excluded.entries, refreshed_at = excluded.refreshed_at;
end;
$$;
revoke execute on function private.refresh_movers_top() from public, anon, authenticated;

-- The feed gains the trust fields (new result columns: dropped and created again, with the grants
-- of 20261125300000). Rules and errors are unchanged.
drop function public.movers_feed(integer);
create function public.movers_feed(window_minutes integer default null)
returns table (
  id bigint, instrument_id bigint, symbol text, exchange text, exchange_type public.exchange_type,
  network text, source text, pool_url text, price numeric, price_3hour_ago numeric,
  pct numeric, window_used integer, pct_3hour numeric, volume_24h numeric, ts timestamptz,
  quoted_at timestamptz, volume_24h_usd numeric, liquidity_usd numeric, spread_pct numeric, thin boolean,
  confirmed_on text[], flags text[], trust_score integer, asset text, pool_name text
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
           coalesce(x.quoted_at, x.ts), x.volume_24h_usd, x.liquidity_usd, x.spread_pct,
           coalesce(x.thin, false), coalesce(x.confirmed_on, '{}'), coalesce(x.flags, '{}'),
           coalesce(x.trust_score, 0), coalesce(x.asset, upper(split_part(x.symbol, '/', 1))), x.pool_name
    from private.movers_top t,
         rows from (jsonb_to_recordset(t.entries) as (
           id bigint, instrument_id bigint, symbol text, exchange text, exchange_type public.exchange_type,
           network text, source text, pool_url text, price numeric, price_3hour_ago numeric, pct numeric,
           window_used integer, pct_3hour numeric, volume_24h numeric, ts timestamptz, quoted_at timestamptz,
           volume_24h_usd numeric, liquidity_usd numeric, spread_pct numeric, thin boolean, confirmed_on text[],
           flags text[], trust_score integer, asset text, pool_name text
         )) with ordinality as x (id, instrument_id, symbol, exchange, exchange_type, network, source, pool_url,
                                  price, price_3hour_ago, pct, window_used, pct_3hour, volume_24h, ts,
                                  quoted_at, volume_24h_usd, liquidity_usd, spread_pct, thin, confirmed_on,
                                  flags, trust_score, asset, pool_name, ord)
    where t.window_minutes = w
    order by x.ord;
end;
$$;
revoke execute on function public.movers_feed(integer) from public, anon;
grant execute on function public.movers_feed(integer) to authenticated, service_role;
comment on function public.movers_feed(integer) is
  'The window''s top 100 movers for an active subscriber (flagged and thin moves ranked lower), each with its venue quote time and trust fields (decision 0046).';

-- ---------------------------------------------------------------------------------------------
-- 4. ingest_scan: the venue's figures, the thin mark, the flags
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
      ) as r_3hour,
      -- The window's start (decision 0046): the oldest sample of the last 30 minutes, for its
      -- 24 h volume (did volume rise with the move?) and its pool liquidity (was the pool pulled?).
      (select array[h.volume_24h, h.liquidity_usd] from public.price_history h
         where h.instrument_id = b.instrument_id and h.ts >= b.ts - interval '30 minutes' and h.ts < b.ts
         order by h.ts limit 1) as start_figures
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
    from pcts p
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
    from scored p
    where m.instrument_id = p.instrument_id
      -- A quote older than the one the row shows (a venue's clock went back, a late answer) does
      -- not replace it.
      and (m.quoted_at is null or m.quoted_at <= p.ts)
    returning m.instrument_id
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
    from scored p
    where not exists (select 1 from public.movers k where k.instrument_id = p.instrument_id)
    order by p.instrument_id
    on conflict (instrument_id) do nothing
    returning instrument_id
  )
  select (select count(*) from updated) + (select count(*) from inserted) into upserted;

  -- Stale movers: not quoted for 15 minutes.
  delete from public.movers m where m.ts < scanned_at - stale_after;
  get diagnostics removed = row_count;

  -- 4b. What needs the other venues (decision 0046), for every current mover: the venues that
  --     confirm its move, the gap between a DEX price and the asset's CEX price, and the trust
  --     score. Only rows whose result changed are written.
  if upserted > 0 or removed > 0 then
    perform private.movers_rescore();
  end if;

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
comment on function public.ingest_scan(jsonb, timestamptz) is
  'One scan: upsert instruments, append history, compute window percents, liquidity figures, flags and trust (decision 0046), upsert movers, prune, broadcast. Service role only.';

-- Existing rows get their grouping key and scores; the kept lists are rebuilt with the new fields.
update public.movers m set asset = case upper(btrim(split_part(m.symbol, '/', 1)))
    when 'WBNB' then 'BNB' when 'WETH' then 'ETH' when 'WSOL' then 'SOL' when 'WAVAX' then 'AVAX'
    when 'WMATIC' then 'MATIC' when 'WPOL' then 'POL'
    else upper(btrim(split_part(m.symbol, '/', 1))) end,
  volume_24h_usd = m.volume_24h,
  -- A pool's reserve is not known yet (thin until its next quote); a CEX pair's volume is.
  thin = case when m.exchange_type = 'dex' then true else coalesce(m.volume_24h < 250000, true) end;
select private.movers_rescore();
select private.refresh_movers_top();
