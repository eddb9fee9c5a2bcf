-- record_signal_outcomes: one outcome per signal once an hour has passed, right or wrong by the
-- direction rule, only for the service role.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(9);

delete from public.strategy_signal_outcomes;
delete from public.strategy_signals;
insert into public.instruments (symbol, exchange, exchange_type, source)
values ('OUT/USDT', 'Binance', 'cex', 'simulated');
insert into public.price_history (instrument_id, ts, price)
select i.id, now() - interval '3 hours' + make_interval(mins => g * 10), 100 + g
from public.instruments i, generate_series(0, 18) g
where i.symbol = 'OUT/USDT';
-- Prices rise by 1 every 10 minutes: 100 at now-3h, 106 at now-2h, 112 at now-1h, 118 now.
insert into public.strategy_signals (symbol, exchange, exchange_type, timeframe, strategy, signal, confidence,
  confidence_tier, price, computed_at)
values
  ('OUT/USDT', 'Binance', 'cex', '5min', 'rsi', 'bullish', 0.8, 'high', 100, now() - interval '3 hours'),
  ('OUT/USDT', 'Binance', 'cex', '5min', 'macd', 'bearish', 0.6, 'medium', 100, now() - interval '3 hours'),
  ('OUT/USDT', 'Binance', 'cex', '5min', 'ema_cross', 'neutral', 0.2, 'low', 100, now() - interval '3 hours'),
  ('OUT/USDT', 'Binance', 'cex', '5min', 'bollinger', 'bullish', 0.7, 'high', 112, now() - interval '20 minutes'),
  ('NOPE/USDT', 'Binance', 'cex', '5min', 'rsi', 'bullish', 0.7, 'high', 1, now() - interval '3 hours');

select is(public.record_signal_outcomes(), 3, 'three signals are old enough and have a later price');
select is((select was_correct from public.strategy_signal_outcomes where strategy = 'rsi'), true,
  'a bullish signal followed by a rise was right');
select is((select was_correct from public.strategy_signal_outcomes where strategy = 'macd'), false,
  'a bearish signal followed by a rise was wrong');
select is((select was_correct from public.strategy_signal_outcomes where strategy = 'ema_cross'), false,
  'a neutral signal followed by a 6 % move was wrong');
select is((select (entry_price, exit_price, pct_change) from public.strategy_signal_outcomes where strategy = 'rsi'),
  (100::numeric, 106::numeric, 6.0000::numeric), 'the exit is the first sample an hour later');
select is((select hours_elapsed from public.strategy_signal_outcomes where strategy = 'rsi'), 1.0000::numeric,
  'hours elapsed');
select is(public.record_signal_outcomes(), 0, 'a second run records nothing twice');
select ok(not has_function_privilege('authenticated', 'public.record_signal_outcomes(interval)', 'execute'),
  'users cannot run it');
select ok(has_function_privilege('service_role', 'public.record_signal_outcomes(interval)', 'execute'),
  'the service role can');

select * from finish();
rollback;
