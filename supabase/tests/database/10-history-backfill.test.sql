-- History backfill (migration 20261123000100): public.ingest_backfill() stores a source's replayed
-- past as ingest_scan would store its samples, keeps what is stored, skips what breaks a rule,
-- is for the service role only, and the next ingest_scan computes every window from it.
--
-- Every call runs at a fixed time T = 2026-06-01 12:00:00+00.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

truncate public.instruments cascade;
delete from realtime.messages;

create temp table result (name text primary key, value jsonb);
grant insert, select on result to service_role;

-- The batch: two instruments (one a DEX pool), stamps 3 h 1 min, 30 min, 15 min and 10 s before T.
create function pg_temp.batch() returns jsonb language sql immutable as $$
  select jsonb_build_object(
    'instruments', jsonb_build_array(
      jsonb_build_object('symbol', 'BF/USDT', 'exchange', 'Binance', 'exchangeType', 'cex',
                         'network', null, 'source', 'simulated', 'poolUrl', 'https://www.binance.com/en/trade/BF_USDT'),
      jsonb_build_object('symbol', 'POOL/WETH', 'exchange', 'Uniswap V3 (Ethereum)', 'exchangeType', 'dex',
                         'network', 'ethereum', 'source', 'simulated', 'poolUrl', 'https://www.geckoterminal.com/eth/pools/0xabc'),
      -- breaks ingest_scan's rules: skipped and counted
      jsonb_build_object('symbol', 'BAD/USDT', 'exchange', 'Binance', 'exchangeType', 'spot'),
      jsonb_build_object('symbol', 'BADURL/USDT', 'exchange', 'Binance', 'exchangeType', 'cex', 'poolUrl', 'javascript:alert(1)')
    ),
    'stamps', jsonb_build_array('2026-06-01T08:59:00Z', '2026-06-01T11:30:00Z', '2026-06-01T11:45:00Z',
                                '2026-06-01T11:59:50Z', 'not a time', '2026-02-30T10:00:00Z', '2026-06-01T08:00:00Z'),
    'prices', jsonb_build_array(
      jsonb_build_array(50, 80, 40, 99, 1, 1, 1),
      jsonb_build_array(2, 1, 0, -3, 1, 1, 1),
      jsonb_build_array(1, 1, 1, 1, 1, 1, 1),
      jsonb_build_array(1, 1, 1, 1, 1, 1, 1)
    ),
    'volumes', jsonb_build_array(
      jsonb_build_array(1000, 1100, null, 1300, 1, 1, 1),
      jsonb_build_array(5, 6, 7, 8, 1, 1, 1),
      jsonb_build_array(1, 1, 1, 1, 1, 1, 1),
      jsonb_build_array(1, 1, 1, 1, 1, 1, 1)
    ))
$$;

select plan(17);

-- Execute rights.
select is(has_function_privilege('anon', 'public.ingest_backfill(jsonb, timestamptz)', 'execute'), false,
  'visitors cannot backfill');
select is(has_function_privilege('authenticated', 'public.ingest_backfill(jsonb, timestamptz)', 'execute'), false,
  'users cannot backfill');
select is(has_function_privilege('service_role', 'public.ingest_backfill(jsonb, timestamptz)', 'execute'), true,
  'the service role (the scan function) can');

set local role service_role;
insert into result values
  ('first', public.ingest_backfill(pg_temp.batch(), '2026-06-01 12:00:00+00'));
insert into result values
  ('again', public.ingest_backfill(
     jsonb_set(pg_temp.batch(), '{prices,0}', '[7, 7, 7, 7, 7, 7, 7]'), '2026-06-01 12:00:00+00'));
reset role;

select is((select value from result where name = 'first'),
  '{"instruments": 2, "samples": 6, "skippedInstruments": 2}'::jsonb,
  'two instruments created, six samples stored, the two that break a rule skipped');
select is((select value from result where name = 'again'),
  '{"instruments": 0, "samples": 0, "skippedInstruments": 2}'::jsonb,
  'a second call stores nothing new');
select results_eq(
  $$select i.symbol, i.exchange, i.exchange_type::text, i.network, i.source, i.pool_url
    from public.instruments i order by i.symbol$$,
  $$values ('BF/USDT', 'Binance', 'cex', null::text, 'simulated', 'https://www.binance.com/en/trade/BF_USDT'),
           ('POOL/WETH', 'Uniswap V3 (Ethereum)', 'dex', 'ethereum', 'simulated', 'https://www.geckoterminal.com/eth/pools/0xabc')$$,
  'the instruments are stored as ingest_scan would store them');
select results_eq(
  $$select h.ts, h.price, h.volume_24h from public.price_history h
    join public.instruments i on i.id = h.instrument_id where i.symbol = 'BF/USDT' order by h.ts$$,
  $$values ('2026-06-01 08:59:00+00'::timestamptz, 50::numeric, 1000::numeric),
           ('2026-06-01 11:30:00+00', 80, 1100), ('2026-06-01 11:45:00+00', 40, null),
           ('2026-06-01 11:59:50+00', 99, 1300)$$,
  'each usable stamp gives a sample with its volume (null kept); stored samples are kept on a second call');
select results_eq(
  $$select h.ts, h.price from public.price_history h
    join public.instruments i on i.id = h.instrument_id where i.symbol = 'POOL/WETH' order by h.ts$$,
  $$values ('2026-06-01 08:59:00+00'::timestamptz, 2::numeric), ('2026-06-01 11:30:00+00', 1)$$,
  'zero and negative prices are skipped');
select is((select count(*)::int from public.price_history where ts < '2026-06-01 08:40:00+00'), 0,
  'stamps beyond the 200-minute retention are skipped');
select is((select count(*)::int from public.movers), 0, 'movers are left to the next scan');
select is((select count(*)::int from realtime.messages), 0, 'nothing is broadcast');

-- Malformed batches are refused whole.
set local role service_role;
select throws_ok($$select public.ingest_backfill('[]')$$, '22023', null, 'an array is not a batch');
select throws_ok($$select public.ingest_backfill('{"instruments": [], "stamps": []}')$$, '22023', null,
  'prices are required');
select throws_ok(
  $$select public.ingest_backfill('{"instruments": [{"symbol": "A/B"}], "stamps": [], "prices": []}')$$,
  '22023', null, 'one price list per instrument');

-- The next scan computes every window from the backfilled history.
insert into result values ('scan', public.ingest_scan(
  jsonb_build_array(jsonb_build_object('symbol', 'BF/USDT', 'exchange', 'Binance', 'exchangeType', 'cex',
    'source', 'simulated', 'price', 100, 'volume24h', 1400, 'ts', '2026-06-01T12:00:00Z')),
  '2026-06-01 12:00:00+00'));
reset role;
select is((select (value ->> 'movers')::int from result where name = 'scan'), 1, 'the scan writes the mover');
select results_eq(
  $$select pct_10sec, pct_15min, pct_30min, pct_3hour, price_3hour_ago from public.movers where symbol = 'BF/USDT'$$,
  $$values (1.0101::numeric, 150.0000::numeric, 25.0000::numeric, 100.0000::numeric, 50::numeric)$$,
  'its 10-second, 15-minute, 30-minute and 3-hour changes come from the backfill');
select is((select count(*)::int from realtime.messages where topic like 'market:movers:%'), 7,
  'and it broadcasts every window once');

select * from finish();
rollback;
