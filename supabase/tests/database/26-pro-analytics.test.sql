-- Candle history and Pro's analysis (migrations 20261125400000 and 20261125400100, decision 0035):
-- the rollup's candles, its pruning by age, the values of the comparison and analytics, and who
-- may read them: Pro and Enterprise; Basic gets PT403 'The Pro plan is required'; free, lapsed
-- and banned accounts 'Active subscription required'; anon may not call at all.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(65);

delete from auth.users;
delete from public.instruments;

create temp table u (code text primary key, uid uuid, plan public.plan, active boolean, role public.app_role, banned boolean);
insert into u values
  ('free',       'a2600000-0000-4000-8000-000000000001', 'none',       false, 'user',  false),
  ('basic',      'a2600000-0000-4000-8000-000000000002', 'basic',      true,  'user',  false),
  ('pro',        'a2600000-0000-4000-8000-000000000003', 'pro',        true,  'user',  false),
  ('enterprise', 'a2600000-0000-4000-8000-000000000004', 'enterprise', true,  'user',  false),
  ('banned',     'a2600000-0000-4000-8000-000000000005', 'enterprise', true,  'user',  true),
  ('lapsed',     'a2600000-0000-4000-8000-000000000006', 'pro',        false, 'user',  false);
grant select on u to anon, authenticated;
insert into auth.users (id, email) select uid, code || '@analytics.test' from u;
update public.profiles p set plan = u.plan, subscription_active = u.active, role = u.role
from u where p.id = u.uid;
update public.profiles p set banned = true, banned_reason = 'Analytics fixture ban'
from u where p.id = u.uid and u.banned;

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

insert into public.instruments (id, symbol, exchange, exchange_type, source) overriding system value values
  (9260001, 'ROLL/USDT', 'Binance', 'cex', 'simulated'),
  (9260002, 'CMP/USDT', 'Binance', 'cex', 'simulated'),
  (9260003, 'BTC/USDT', 'Binance', 'cex', 'simulated'),
  (9260004, 'TWIN/USDT', 'Binance', 'cex', 'simulated'),
  (9260005, 'WILD/USDT', 'Binance', 'cex', 'simulated');

-- ---------------------------------------------------------------------------------------------
-- The rollup
-- ---------------------------------------------------------------------------------------------
-- One sample a minute for an hour, 100, 101, … 159, on a constant 24-hour volume of 1,440.
create temp table t as select to_timestamp(floor(extract(epoch from now()) / 3600) * 3600) - interval '2 hours' as base;
grant select on t to anon, authenticated;
insert into public.price_history (instrument_id, ts, price, volume_24h)
select 9260001, (select base from t) + make_interval(mins => g), 100 + g, 1440 from generate_series(0, 59) g;
-- Old candles the job must prune, and young ones it must keep.
insert into public.candles_5m (instrument_id, bucket, open, high, low, close, volume, samples) values
  (9260001, (select base from t) - interval '8 days', 1, 1, 1, 1, 0, 1),
  (9260001, (select base from t) - interval '6 days', 1, 1, 1, 1, 0, 1);
insert into public.candles_1h (instrument_id, bucket, open, high, low, close, volume, samples) values
  (9260001, (select base from t) - interval '91 days', 1, 1, 1, 1, 0, 1),
  (9260001, (select base from t) - interval '89 days', 1, 1, 1, 1, 0, 1);

select pg_temp.login('pro');
select throws_ok($$ select * from private.rollup_candles() $$, '42501', null, 'a subscriber cannot run the rollup');
select throws_ok($$ select * from public.run_candle_rollup() $$, '42501', null, 'nor through the public wrapper');
reset role;

select results_eq(
  $$ select candles_5m, candles_1h, pruned from private.rollup_candles((select base from t) + interval '59 minutes', (select base from t)) $$,
  $$ values (12, 1, 2) $$,
  'one run writes 12 five-minute candles and one hourly candle, and prunes the two aged ones');
select results_eq(
  $$ select open, high, low, close, samples from public.candles_5m
     where instrument_id = 9260001 and bucket >= (select base from t) order by bucket $$,
  $$ select 100 + 5 * k::numeric, 104 + 5 * k::numeric, 100 + 5 * k::numeric, 104 + 5 * k::numeric, 5
     from generate_series(0, 11) k $$,
  'each 5-minute candle has the first, highest, lowest and last sample of its bucket');
select is((select volume from public.candles_5m where instrument_id = 9260001 and bucket = (select base from t) + interval '5 minutes'),
  5 * 1440 * 60 / 86400.0, 'a candle''s volume is what left the 24-hour total meanwhile, per sample (5 × 1 here)');
select is((select volume from public.candles_5m where instrument_id = 9260001 and bucket = (select base from t)),
  4 * 1440 * 60 / 86400.0, 'the very first sample has no previous total and adds nothing');
select results_eq(
  $$ select open, high, low, close, samples, volume from public.candles_1h where instrument_id = 9260001 and bucket = (select base from t) $$,
  $$ values (100::numeric, 159::numeric, 100::numeric, 159::numeric, 60, 59 * 1440 * 60 / 86400.0) $$,
  'the hourly candle is made of its twelve 5-minute candles');
select is((select count(*)::int from public.candles_5m where instrument_id = 9260001 and bucket < (select base from t) - interval '7 days'), 0,
  '5-minute candles older than 7 days are pruned');
select is((select count(*)::int from public.candles_5m where instrument_id = 9260001 and bucket = (select base from t) - interval '6 days'), 1,
  'a 6-day-old 5-minute candle stays');
select is((select count(*)::int from public.candles_1h where instrument_id = 9260001 and bucket < (select base from t) - interval '90 days'), 0,
  'hourly candles older than 90 days are pruned');
select is((select count(*)::int from public.candles_1h where instrument_id = 9260001 and bucket = (select base from t) - interval '89 days'), 1,
  'an 89-day-old hourly candle stays');

-- A late sample in the last bucket: the next run (from the stored mark) rewrites that candle.
insert into public.price_history (instrument_id, ts, price, volume_24h)
values (9260001, (select base from t) + interval '59 minutes 30 seconds', 90, 1440);
select results_eq(
  $$ select candles_5m, candles_1h from private.rollup_candles((select base from t) + interval '60 minutes') $$,
  $$ values (1, 1) $$, 'the next run rewrites only the candle that changed, and its hour');
select results_eq(
  $$ select low, close, samples from public.candles_5m where instrument_id = 9260001 and bucket = (select base from t) + interval '55 minutes' $$,
  $$ values (90::numeric, 90::numeric, 6) $$, 'the late sample is in its candle');
select is((select low from public.candles_1h where instrument_id = 9260001 and bucket = (select base from t)), 90::numeric,
  'and in its hour');
select is((select count(*)::int from public.candles_5m where instrument_id = 9260001), 13, 'a second run adds no duplicate');

-- Instruments that go take their candles with them.
insert into public.instruments (id, symbol, exchange, exchange_type, source) overriding system value
values (9260009, 'GONE/USDT', 'Binance', 'cex', 'simulated');
insert into public.candles_5m (instrument_id, bucket, open, high, low, close, volume, samples)
values (9260009, (select base from t), 1, 1, 1, 1, 0, 1);
insert into public.candles_1h (instrument_id, bucket, open, high, low, close, volume, samples)
values (9260009, (select base from t), 1, 1, 1, 1, 0, 1);
delete from public.instruments where id = 9260009;
select is((select count(*)::int from public.candles_5m where instrument_id = 9260009)
          + (select count(*)::int from public.candles_1h where instrument_id = 9260009), 0,
  'deleting an instrument deletes its candles');

-- ---------------------------------------------------------------------------------------------
-- Fixtures for the comparison and the analytics
-- ---------------------------------------------------------------------------------------------
create temp table h as select to_timestamp(floor(extract(epoch from now()) / 3600) * 3600) as hour_now,
                               to_timestamp(floor(extract(epoch from now()) / 300) * 300) as five_now;
grant select on h to anon, authenticated;
-- CMP: 31 days of hourly closes cycling 100, 110, 99: moves of +10 %, −10 % and +1.0101 %.
insert into public.candles_1h (instrument_id, bucket, open, high, low, close, volume, samples)
select 9260002, (select hour_now from h) - make_interval(hours => 744 - g), c, c, c, c, 1, 1
from generate_series(0, 744) g, lateral (select (array[100, 110, 99])[(g % 3) + 1]::numeric as c) x;
-- Its current move: 100 an hour ago, 110 now (+10 %).
insert into public.candles_5m (instrument_id, bucket, open, high, low, close, volume, samples) values
  (9260002, (select five_now from h) - interval '65 minutes', 100, 100, 100, 100, 1, 1),
  (9260002, (select five_now from h) - interval '5 minutes', 110, 110, 110, 110, 1, 1);
-- BTC and TWIN: 24 hours of 5-minute closes; TWIN moves with BTC, twice as far, and WILD against it.
insert into public.candles_5m (instrument_id, bucket, open, high, low, close, volume, samples)
select i, (select five_now from h) - make_interval(mins => 5 * (287 - k)), c, c, c, c, 1, 1
from generate_series(0, 287) k,
     lateral (values (9260003, 100 + (k % 2)::numeric),
                     (9260004, 50 + 2 * (k % 2)::numeric),
                     (9260005, 60 - 3 * (k % 2)::numeric)) v(i, c);
-- WILD: 30 days of hourly closes barely moving, then a last day swinging 10 %.
insert into public.candles_1h (instrument_id, bucket, open, high, low, close, volume, samples)
select 9260005, (select hour_now from h) - make_interval(hours => 720 - g), c, c, c, c, 1, 1
from generate_series(0, 720) g,
     lateral (select case when g >= 700 then 100 + 10 * (g % 2) else 100 + 0.1 * (g % 2) end::numeric as c) x;

-- ---------------------------------------------------------------------------------------------
-- Who may call
-- ---------------------------------------------------------------------------------------------
create temp table calls (name text, sql text);
grant select on calls to anon, authenticated;
insert into calls values
  ('history_candles', 'select * from public.history_candles(9260002, ''1h'')'),
  ('history_insights', 'select public.history_insights(9260002)'),
  ('history_compare', 'select * from public.history_compare(array[9260003, 9260004]::bigint[], ''24h'')');

select pg_temp.login('anon');
select throws_ok(c.sql, '42501', null, 'anon cannot call ' || c.name) from calls c order by c.name;
reset role;
select pg_temp.login('free');
select throws_ok(c.sql, 'PT403', 'Active subscription required', 'free: ' || c.name || ' refused') from calls c order by c.name;
reset role;
select pg_temp.login('lapsed');
select throws_ok(c.sql, 'PT403', 'Active subscription required', 'lapsed Pro: ' || c.name || ' refused') from calls c order by c.name;
reset role;
select pg_temp.login('banned');
select throws_ok(c.sql, 'PT403', 'Active subscription required', 'banned Enterprise: ' || c.name || ' refused') from calls c order by c.name;
reset role;
select pg_temp.login('basic');
select throws_ok(c.sql, 'PT403', 'The Pro plan is required', 'basic: ' || c.name || ' refused with the upgrade reason') from calls c order by c.name;
select throws_ok($$ select count(*) from public.candles_5m $$, '42501', null, 'basic cannot read the 5-minute candles table');
reset role;
select pg_temp.login('pro');
select lives_ok(c.sql, 'pro: ' || c.name || ' answers') from calls c order by c.name;
select throws_ok($$ select count(*) from public.candles_1h $$, '42501', null, 'pro cannot read the hourly candles table directly');
reset role;
select pg_temp.login('enterprise');
select lives_ok(c.sql, 'enterprise: ' || c.name || ' answers') from calls c order by c.name;
reset role;

-- ---------------------------------------------------------------------------------------------
-- What Pro gets
-- ---------------------------------------------------------------------------------------------
select pg_temp.login('pro');
select throws_ok($$ select * from public.history_candles(9260002, '15m') $$, '22023', null, 'an unknown resolution is refused');
select throws_ok($$ select * from public.history_candles(1, '5m') $$, 'PT404', 'No such instrument', 'an unknown instrument is a 404');
select throws_ok($$ select * from public.history_compare(array[9260003]::bigint[], '24h') $$, '22023',
  'Compare two to four different symbols', 'one symbol is not a comparison');
select throws_ok($$ select * from public.history_compare(array[9260001, 9260002, 9260003, 9260004, 9260005]::bigint[], '7d') $$, '22023',
  'Compare two to four different symbols', 'five symbols are too many');
select throws_ok($$ select * from public.history_compare(array[9260003, 9260003]::bigint[], '7d') $$, '22023',
  'Compare two to four different symbols', 'the same symbol twice is refused');

select is((select count(*)::int from public.history_candles(9260003, '5m')), 288, '5m: the last 24 hours of 5-minute candles');
select is((select count(*)::int from public.history_candles(9260002, '1h')), 168, '1h: the last 7 days of hourly candles');
select ok((select count(*) from public.history_candles(9260002, '4h')) between 180 and 181, '4h: 30 days of 4-hour candles');
select is((select high from public.history_candles(9260002, '4h') order by bucket desc limit 1 offset 1), 110::numeric,
  'a 4-hour candle''s high is its hours'' highest');

create temp table ins as select public.history_insights(9260002) as j, public.history_insights(9260004) as twin,
                                public.history_insights(9260005) as wild;
select is((select (j ->> 'move_1h_pct')::numeric from ins), 10.0000, 'the current move: +10 % over the last hour');
select ok((select (j -> 'comparison' ->> 'hours')::int from ins) between 718 and 721, 'compared against 30 days of hourly moves');
select ok((select (j -> 'comparison' ->> 'occurrences')::int from ins) between 239 and 241,
  'it moved this much about every third hour');
select is((select (j -> 'comparison' -> 'after_1h' ->> 'avg_pct')::numeric from ins), -10.0000, 'an hour later it had fallen 10 %');
select is((select (j -> 'comparison' -> 'after_4h' ->> 'avg_pct')::numeric from ins), -10.0000, 'four hours later too');
select is((select (j -> 'comparison' -> 'after_24h' ->> 'avg_pct')::numeric from ins), 0.0000, 'a day later it was back where it was');
select ok((select (j -> 'comparison' -> 'after_24h' ->> 'samples')::int from ins)
          < (select (j -> 'comparison' -> 'after_1h' ->> 'samples')::int from ins),
  'the last day''s moves have no 24-hour outcome yet: fewer samples');
select ok((select (j ->> 'percentile')::numeric from ins) between 32 and 35,
  'percentile: only the +1 % hours moved less');
select is((select (twin ->> 'btc_correlation')::numeric from ins), 1.0000, 'TWIN moves with BTC: correlation 1');
select is((select (wild ->> 'btc_correlation')::numeric from ins), -1.0000, 'WILD moves against BTC: correlation −1');
select is((select twin -> 'drawdown' ->> 'pct' from ins), '-3.8462', 'TWIN''s largest drawdown: 52 to 50');
select is((select wild -> 'volatility' ->> 'regime' from ins), 'wild', 'a last day swinging 10 % after 30 quiet days is wild');
select is((select j -> 'volatility' ->> 'regime' from ins), 'normal', 'a steady rhythm is normal');

create temp table cmp as select * from public.history_compare(array[9260004, 9260003]::bigint[], '24h');
select results_eq($$ select instrument_id from cmp $$, $$ values (9260004::bigint), (9260003::bigint) $$,
  'symbols come back in the order asked');
select is((select points -> 0 ->> 1 from cmp where instrument_id = 9260003), '0.0000', 'each series starts at 0 %');
select is((select points -> 1 ->> 1 from cmp where instrument_id = 9260004), '4.0000', 'and moves as its close does (50 to 52: +4 %)');
select is((select jsonb_array_length(points) from cmp where instrument_id = 9260003), 288, 'one point per 5-minute candle over 24 h');
reset role;

select * from finish();
rollback;
