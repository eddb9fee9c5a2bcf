-- Decision 0090: a signal's outcome is matched by its instrument (two pools of one symbol on one
-- exchange each get their own), and the replay's signals are stored once.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(12);

delete from public.strategy_signal_outcomes;
delete from public.strategy_signals;
insert into public.instruments (venue_key, symbol, exchange, exchange_type, source)
values ('dex:test:pool-a', 'TWIN/WETH', 'Uniswap V3 (Ethereum)', 'dex', 'geckoterminal'),
       ('dex:test:pool-b', 'TWIN/WETH', 'Uniswap V3 (Ethereum)', 'dex', 'geckoterminal');
-- Pool A rises 1 every 10 minutes from 100, pool B falls 1 every 10 minutes from 50.
insert into public.price_history (instrument_id, ts, price)
select i.id, now() - interval '3 hours' + make_interval(mins => g * 10),
       case i.venue_key when 'dex:test:pool-a' then 100 + g else 50 - g end
from public.instruments i, generate_series(0, 18) g
where i.venue_key in ('dex:test:pool-a', 'dex:test:pool-b');

-- The replay's signals: one per pool at now-3h, one too recent for an outcome, one unknown pool.
create temp table replayed as
select jsonb_agg(jsonb_build_object('venue_key', v.k, 'timeframe', '5min', 'strategy', 'rsi', 'signal', 'bullish',
         'confidence', 0.8, 'confidence_tier', 'high', 'price', v.p, 'volume_24h', null,
         'indicator_values', jsonb_build_object('rsi', 25), 'computed_at', v.t)) as j
from (values ('dex:test:pool-a', 100, now() - interval '3 hours'),
             ('dex:test:pool-b', 50, now() - interval '3 hours'),
             ('dex:test:pool-a', 112, now() - interval '20 minutes'),
             ('dex:test:nowhere', 1, now() - interval '3 hours')) v (k, p, t);

select is(public.ingest_replayed_signals((select j from replayed)), 3, 'the replayed signals of known pools are stored');
select is((select count(distinct instrument_id)::int from public.strategy_signals where symbol = 'TWIN/WETH'), 2,
  'each carries its own pool');
select is(public.ingest_replayed_signals((select j from replayed)), 0, 'a second replay adds nothing');
select is((select count(*)::int from public.strategy_signals), 3, 'no duplicate signal');

select is(public.record_signal_outcomes(), 2, 'both pools'' old signals get an outcome');
select is((select (o.entry_price, o.exit_price, o.was_correct) from public.strategy_signal_outcomes o
           join public.strategy_signals s on s.id = o.signal_id
           join public.instruments i on i.id = s.instrument_id where i.venue_key = 'dex:test:pool-a'),
  (100::numeric, 106::numeric, true), 'pool A''s outcome is from pool A''s prices');
select is((select (o.entry_price, o.exit_price, o.was_correct) from public.strategy_signal_outcomes o
           join public.strategy_signals s on s.id = o.signal_id
           join public.instruments i on i.id = s.instrument_id where i.venue_key = 'dex:test:pool-b'),
  (50::numeric, 44::numeric, false), 'pool B''s outcome is from pool B''s prices');
select is(public.record_signal_outcomes(), 0, 'a second run records nothing twice');

-- A row written without an instrument whose symbol and exchange name two pools gets no outcome.
insert into public.strategy_signals (symbol, exchange, exchange_type, timeframe, strategy, signal, confidence,
  confidence_tier, price, computed_at)
values ('TWIN/WETH', 'Uniswap V3 (Ethereum)', 'dex', '5min', 'macd', 'bearish', 0.6, 'medium', 100,
        now() - interval '150 minutes');
select is(public.record_signal_outcomes(), 0, 'an ambiguous signal without an instrument is not guessed');

-- Replayed instants at or before the newest stored signal are left to it (the live signals).
select is(public.ingest_replayed_signals(jsonb_build_array(jsonb_build_object('venue_key', 'dex:test:pool-b',
  'timeframe', '5min', 'strategy', 'macd', 'signal', 'bearish', 'confidence', 0.5, 'confidence_tier', 'medium',
  'price', 48, 'computed_at', now() - interval '2 hours'))), 0, 'a replay does not write before the newest signal');

select ok(not has_function_privilege('authenticated', 'public.ingest_replayed_signals(jsonb)', 'execute'),
  'users cannot store replayed signals');
select ok(has_function_privilege('service_role', 'public.ingest_replayed_signals(jsonb)', 'execute'),
  'the service role can');

select * from finish();
rollback;
