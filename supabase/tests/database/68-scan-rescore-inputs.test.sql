-- Ingest rescoring only the assets whose rescore inputs changed, and the one-venue merge (issue 26,
-- decision 0068, migration 20261128170000): a quote that changes nothing the rescore reads leaves
-- its asset alone, but a price alone still moves the DEX/CEX gap of the asset's other row, and the
-- liquidity points alone still move a trust score; a scan of one venue's third of the movers
-- merges into the kept lists and gives what a full ranking gives. After every scan, a full rescore
-- changes nothing and a full ranking gives the same lists.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

truncate public.instruments cascade;

create function pg_temp.t(s int) returns timestamptz language sql immutable as $$
  select timestamptz '2026-06-01 12:00:00+00' + make_interval(secs => s)
$$;
-- A CEX pair quote.
create function pg_temp.cex(venue text, symbol text, price numeric, volume_usd numeric, at timestamptz)
returns jsonb language sql immutable as $$
  select jsonb_build_object('venueKey', venue || ':' || symbol, 'symbol', symbol, 'exchange', venue,
    'exchangeType', 'cex', 'source', 'binance', 'price', price, 'volume24h', volume_usd,
    'volume24hUsd', volume_usd, 'spreadPct', 0.05, 'ts', at)
$$;
-- A DEX pool quote.
create function pg_temp.dex(symbol text, price numeric, at timestamptz) returns jsonb language sql immutable as $$
  select jsonb_build_object('venueKey', 'Uniswap:' || symbol, 'symbol', symbol, 'exchange', 'Uniswap V3',
    'exchangeType', 'dex', 'network', 'ethereum', 'source', 'geckoterminal',
    'poolUrl', 'https://pool.test/' || symbol, 'price', price, 'volume24h', 400000,
    'liquidityUsd', 5000000, 'poolName', symbol || ' 0.3%', 'poolCreatedAt', '2026-01-01T00:00:00Z', 'ts', at)
$$;
-- 450 pairs on three venues (150 each), each its own asset. Price of pair g in round r.
create function pg_temp.fillers(venue_of int, r int, at timestamptz) returns jsonb language sql immutable as $$
  select coalesce(jsonb_agg(pg_temp.cex((array['Kraken', 'Bitstamp', 'OKX'])[g % 3 + 1], 'FIL' || g || '/USDT',
                    case when r = 0 then 1 else 0.6 + ((g * 7 + r * 13) % 100) / 100.0 end, 1000000, at)), '[]')
  from generate_series(1, 450) g
  where venue_of is null or g % 3 = venue_of
$$;
-- After a scan: 'ok', or what a full rescore and a full ranking would have changed.
create function pg_temp.same_as_full() returns text language plpgsql as $$
declare
  rescored integer;
  differs text;
begin
  rescored := private.movers_rescore();
  if rescored > 0 then
    return rescored || ' rows rescored by a full rescore';
  end if;
  create temp table if not exists merged (window_minutes integer, entries jsonb, ranked bigint[]);
  truncate merged;
  insert into merged select t.window_minutes, t.entries, t.ranked from private.movers_top t;
  perform private.refresh_movers_top();
  select string_agg(m.window_minutes::text, ', ') into differs
  from merged m join private.movers_top t using (window_minutes)
  where m.entries is distinct from t.entries
     or m.ranked is distinct from t.ranked[1:cardinality(m.ranked)];
  update private.movers_top t set entries = m.entries, ranked = m.ranked
  from merged m where m.window_minutes = t.window_minutes;
  return coalesce('windows ' || differs || ' differ from a full ranking', 'ok');
end;
$$;
create function pg_temp.flags(symbol text) returns text[] language sql as $$
  select m.flags from public.movers m where m.symbol = $1
$$;

select plan(12);

-- GAPX on a CEX at 1.00 and on a pool at 1.04 (a gap of 4 %: under the 5 % rule); SOLO alone.
select is((public.ingest_scan(
  jsonb_build_array(pg_temp.cex('Binance', 'GAPX/USDT', 1.00, 1000000, pg_temp.t(-1200)),
                    pg_temp.dex('GAPX/WETH', 1.04, pg_temp.t(-1200)),
                    pg_temp.cex('Binance', 'SOLO/USDT', 1.00, 1000000, pg_temp.t(-1200)))
  || pg_temp.fillers(null, 0, pg_temp.t(-1200)), pg_temp.t(-1200)) ->> 'instruments')::int, 453,
  'the window start of 453 instruments');
select is((public.ingest_scan(
  jsonb_build_array(pg_temp.cex('Binance', 'GAPX/USDT', 0.999, 1000000, pg_temp.t(0)),
                    pg_temp.dex('GAPX/WETH', 1.04, pg_temp.t(0)),
                    pg_temp.cex('Binance', 'SOLO/USDT', 1.00, 1000000, pg_temp.t(0)))
  || pg_temp.fillers(null, 1, pg_temp.t(0)), pg_temp.t(0)) ->> 'movers')::int, 453, 'a scan of all 453');
select ok(not ('dex_cex_gap' = any (pg_temp.flags('GAPX/WETH'))), 'a 4 % gap is no gap');
select is(pg_temp.same_as_full(), 'ok', 'the full scan''s lists and scores');

-- The CEX price alone moves (-1.5 %: the pair still does not move by the 2 % rule, no flag of
-- its own changes), so only the asset's other row can care: the pool is now 5.6 % above it.
select is((public.ingest_scan(jsonb_build_array(pg_temp.cex('Binance', 'GAPX/USDT', 0.985, 1000000, pg_temp.t(10))),
                              pg_temp.t(10)) ->> 'movers')::int, 1, 'a scan of the GAPX pair alone');
select ok('dex_cex_gap' = any (pg_temp.flags('GAPX/WETH')),
  'the unquoted pool of the same asset gets the DEX/CEX gap flag from the pair''s price');
select is(pg_temp.same_as_full(), 'ok', 'after the price-only quote: the same lists and scores as a full ranking');

-- SOLO's 24 h volume alone grows a hundredfold (its liquidity points rise; nothing else moves).
create temp table solo_before as select m.trust_score from public.movers m where m.symbol = 'SOLO/USDT';
select is((public.ingest_scan(jsonb_build_array(pg_temp.cex('Binance', 'SOLO/USDT', 1.00, 100000000, pg_temp.t(20))),
                              pg_temp.t(20)) ->> 'movers')::int, 1, 'a scan of SOLO alone');
select ok((select m.trust_score from public.movers m where m.symbol = 'SOLO/USDT') > (select trust_score from solo_before),
  'its trust score follows its volume');
select is(pg_temp.same_as_full(), 'ok', 'after the volume-only quote: the same lists and scores as a full ranking');

-- One venue's third of the fillers (150 of 453 movers), as a venue ticking at its own cadence.
select is((public.ingest_scan(pg_temp.fillers(1, 2, pg_temp.t(30)), pg_temp.t(30)) ->> 'movers')::int, 150,
  'a scan of one venue''s 150 pairs');
select is(pg_temp.same_as_full(), 'ok', 'after the one-venue scan: the same lists and scores as a full ranking');

select * from finish();
rollback;
