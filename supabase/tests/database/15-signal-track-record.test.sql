-- signal_track_record (migration 20261123000200): per strategy and horizon, the hit rate and the
-- returns of following the signals, over 24 h, 7 d and 30 d, computed on outcomes whose figures
-- are known; subscribers only (free, banned and visitors are refused).
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(11);

delete from auth.users;
delete from public.strategy_signal_outcomes;
delete from public.strategy_signals;

create temp table u (code text primary key, uid uuid, plan public.plan, active boolean, banned boolean);
insert into u values
  ('pro',    'a1100000-0000-4000-8000-000000000001', 'pro',  true, false),
  ('free',   'a1100000-0000-4000-8000-000000000002', 'none', false, false),
  ('banned', 'a1100000-0000-4000-8000-000000000003', 'pro',  true, true);
grant select on u to anon, authenticated;
insert into auth.users (id, email) select uid, code || '@track.test' from u;
update public.profiles p set plan = u.plan, subscription_active = u.active, banned = u.banned,
  banned_reason = case when u.banned then 'spamming the chat' end
from u where p.id = u.uid;

-- One outcome: strategy, direction, price change in percent, right?, hours to the exit, recorded ago.
create function pg_temp.outcome(strat public.strategy, dir public.signal_direction, pct numeric,
                                correct boolean, hours numeric, ago interval) returns void
language plpgsql as $$
declare
  sid bigint;
begin
  insert into public.strategy_signals (symbol, exchange, exchange_type, timeframe, strategy, signal, confidence,
    confidence_tier, price, computed_at)
  values ('TR/USDT', 'Binance', 'cex', '5min', strat, dir, 0.5, 'medium', 100, now() - ago - make_interval(hours => 1))
  returning id into sid;
  insert into public.strategy_signal_outcomes (signal_id, symbol, exchange, strategy, signal, entry_price,
    exit_price, pct_change, was_correct, hours_elapsed, created_at)
  values (sid, 'TR/USDT', 'Binance', strat, dir, 100, 100 * (1 + pct / 100), pct, correct, hours, now() - ago);
end;
$$;
-- RSI, today: a right bullish +2 %, a wrong bearish (+1 %: following it lost 1 %), a right neutral.
select pg_temp.outcome('rsi', 'bullish', 2, true, 1.0028, interval '2 hours');
select pg_temp.outcome('rsi', 'bearish', 1, false, 1.01, interval '3 hours');
select pg_temp.outcome('rsi', 'neutral', 0.2, true, 1.0, interval '4 hours');
-- MACD, three days ago: a wrong bullish -4 %, a right bearish -6 %, a right bullish +3 %.
select pg_temp.outcome('macd', 'bullish', -4, false, 1.0, interval '3 days');
select pg_temp.outcome('macd', 'bearish', -6, true, 1.0, interval '3 days 1 hour');
select pg_temp.outcome('macd', 'bullish', 3, true, 1.0, interval '3 days 2 hours');
-- Volume, twenty days ago, a 4-hour horizon: a right bullish +10 %.
select pg_temp.outcome('volume_surge', 'bullish', 10, true, 4.1, interval '20 days');
-- Older than 30 days: never counted.
select pg_temp.outcome('bollinger', 'bullish', 50, true, 1.0, interval '31 days');

create function pg_temp.login(who text) returns void language plpgsql as $$
declare
  id uuid;
begin
  perform set_config('role', 'none', true);
  if who = 'anon' then
    perform tests.authenticate_as_anon();
    return;
  end if;
  select uid into strict id from pg_temp.u where code = who;
  perform tests.authenticate_as(id);
end;
$$;

select pg_temp.login('pro');
select results_eq(
  $$select strategy::text, horizon_hours, signals, hits, hit_rate, directional, avg_return, median_return
    from public.signal_track_record('24h')$$,
  $$values ('rsi', 1, 3, 2, 0.6667::numeric, 2, 0.5000::numeric, 0.5000::numeric)$$,
  '24 h: RSI hit 2 of 3; following its two directional signals returned +2 % and -1 %');
select results_eq(
  $$select strategy::text, horizon_hours, signals, hits, hit_rate, directional, avg_return, median_return
    from public.signal_track_record('7d')$$,
  $$values ('rsi', 1, 3, 2, 0.6667::numeric, 2, 0.5000::numeric, 0.5000::numeric),
           ('macd', 1, 3, 2, 0.6667::numeric, 3, 1.6667::numeric, 3.0000::numeric)$$,
  '7 d adds MACD: returns -4, +6 and +3 % (a bearish signal gains when the price falls)');
select results_eq(
  $$select strategy::text, horizon_hours, signals, hit_rate, avg_return
    from public.signal_track_record('30d') where strategy = 'volume_surge'$$,
  $$values ('volume_surge', 4, 1, 1.0000::numeric, 10.0000::numeric)$$,
  '30 d adds the volume strategy at its 4-hour horizon');
select is((select count(*)::int from public.signal_track_record('30d')), 3,
  'an outcome older than 30 days is never counted');
select is((select count(*)::int from public.signal_track_record()), 2, 'the default period is 7 days');
select throws_ok($$select * from public.signal_track_record('1y')$$, '22023', 'period must be 24h, 7d or 30d',
  'an unknown period is refused');

select pg_temp.login('free');
select throws_ok($$select * from public.signal_track_record('7d')$$, 'PT403', 'Active subscription required',
  'a free account is refused like movers_feed refuses it');
select pg_temp.login('banned');
select throws_ok($$select * from public.signal_track_record('7d')$$, 'PT403', 'Active subscription required',
  'a banned subscriber is refused');
select pg_temp.login('anon');
select throws_ok($$select * from public.signal_track_record('7d')$$, '42501', null, 'visitors may not call it');
select set_config('role', 'none', true);

select is(has_function_privilege('authenticated', 'public.signal_track_record(text)', 'execute'), true,
  'users may call it (the function checks the plan)');
select is((select prosecdef from pg_proc where oid = 'public.signal_track_record(text)'::regprocedure), false,
  'it runs with the caller''s rights, through the outcomes'' row-level security');

select * from finish();
rollback;
