-- The track record's daily rollup (migration 20261128157000, decision 0058): on a fixed data set of
-- 2,000 outcomes over 30.5 days (every strategy, both horizons, repeated and distinct returns,
-- neutral signals), signal_track_record gives exactly the figures of the raw computation of
-- migration 20261123000200 before the rollup, after it, after a late outcome lands in a rolled-up
-- day and after one is deleted. The rollup is what it reads, it keeps 31 days, and only
-- subscribers read it.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(22);

delete from auth.users;
delete from public.strategy_signal_outcomes;
delete from public.strategy_signals;
delete from private.signal_outcome_days;
delete from private.signal_outcome_rollup;

create temp table u (code text primary key, uid uuid, plan public.plan, active boolean);
insert into u values
  ('pro',  'a5800000-0000-4000-8000-000000000001', 'pro',  true),
  ('free', 'a5800000-0000-4000-8000-000000000002', 'none', false);
grant select on u to authenticated;
insert into auth.users (id, email) select uid, code || '@rollup.test' from u;
update public.profiles p set plan = u.plan, subscription_active = u.active from u where p.id = u.uid;

-- 2,000 signals, one every 22 minutes back from now, each with its outcome recorded then.
insert into public.strategy_signals (symbol, exchange, exchange_type, timeframe, strategy, signal, confidence,
  confidence_tier, price, computed_at)
select 'RU' || (g % 7) || '/USDT', 'Binance', 'cex', '5min',
       (enum_range(null::public.strategy))[1 + g % cardinality(enum_range(null::public.strategy))],
       (enum_range(null::public.signal_direction))[1 + (g / 3) % 3],
       0.5, 'medium', 100, now() - g * interval '22 minutes' - interval '1 hour'
from generate_series(0, 1999) g;
insert into public.strategy_signal_outcomes (signal_id, symbol, exchange, strategy, signal, entry_price,
  exit_price, pct_change, was_correct, hours_elapsed, created_at)
select s.id, s.symbol, s.exchange, s.strategy, s.signal, 100, 100 + c.pct, c.pct,
       case s.signal when 'bullish' then c.pct > 0 when 'bearish' then c.pct < 0 else abs(c.pct) < 0.5 end,
       case when (s.id / 7) % 4 = 0 then 4.2 else 1.0 + (s.id % 3) / 100.0 end,
       s.computed_at + interval '1 hour'
from public.strategy_signals s
-- Returns from -5 % to +5 % in quarter steps (many ties), and a few with four decimals.
cross join lateral (select case when s.id % 11 = 0 then round((s.id % 997) / 97.0 - 5, 4)
                                else ((s.id * 37) % 41 - 20) / 4.0 end as pct) c;

-- The raw computation of migration 20261123000200, for comparison (run by the test's superuser,
-- who sees every outcome, as a subscriber does).
create function pg_temp.raw(span interval) returns table (
  strategy public.strategy, horizon_hours integer, signals integer, hits integer, hit_rate numeric,
  directional integer, avg_return numeric, median_return numeric)
language sql as $$
  with o as (
    select x.strategy, greatest(1, round(x.hours_elapsed))::integer as horizon, x.was_correct,
           case x.signal when 'bullish' then x.pct_change when 'bearish' then -x.pct_change end as ret
    from public.strategy_signal_outcomes x
    where x.created_at > now() - span
  )
  select o.strategy, o.horizon, count(*)::integer, count(*) filter (where o.was_correct)::integer,
         round(count(*) filter (where o.was_correct)::numeric / count(*), 4),
         count(o.ret)::integer, round(avg(o.ret), 4),
         round((percentile_cont(0.5) within group (order by o.ret))::numeric, 4)
  from o group by o.strategy, o.horizon order by o.strategy, o.horizon
$$;
create temp table expected (period text, ord integer, strategy public.strategy, horizon_hours integer, signals integer,
  hits integer, hit_rate numeric, directional integer, avg_return numeric, median_return numeric);
grant select on expected to authenticated;
create function pg_temp.expect() returns void language sql as $$
  delete from pg_temp.expected;
  insert into pg_temp.expected
  select p.period, row_number() over (partition by p.period order by r.strategy, r.horizon_hours), r.*
  from (values ('24h', interval '24 hours'), ('7d', interval '7 days'), ('30d', interval '30 days')) p (period, span)
  cross join lateral pg_temp.raw(p.span) r;
$$;
-- signal_track_record(period) against the raw figures, as the subscriber.
create function pg_temp.same(period text, descr text) returns text language plpgsql as $$
declare
  r text;
begin
  perform tests.authenticate_as('a5800000-0000-4000-8000-000000000001');
  r := results_eq(
    format($q$select strategy::text, horizon_hours, signals, hits, hit_rate, directional, avg_return, median_return
              from public.signal_track_record(%L)$q$, period),
    format($q$select strategy::text, horizon_hours, signals, hits, hit_rate, directional, avg_return, median_return
              from pg_temp.expected where period = %L order by ord$q$, period),
    descr);
  perform tests.clear_authentication();
  return r;
end;
$$;

select pg_temp.expect();
select cmp_ok((select count(*)::int from pg_temp.expected where period = '30d'), '>=', 10,
  'the data set has many strategy and horizon groups');
select ok((select bool_and(directional > 1) from pg_temp.expected where period = '30d'),
  'every group has several directional outcomes, so the median interpolates');

-- Nothing rolled up yet: the raw path alone.
select pg_temp.same('24h', 'before the rollup, 24 h: the raw figures');
select pg_temp.same('7d', 'before the rollup, 7 d: the raw figures');
select pg_temp.same('30d', 'before the rollup, 30 d: the raw figures');

select cmp_ok(private.roll_signal_outcomes(now()), '>=', 30, 'the rollup rolls up the closed days');
select is((select rolled_until from private.signal_outcome_rollup),
  ((now() - interval '1 hour') at time zone 'UTC')::date, 'every day closed an hour ago is rolled up');
select is((select sum(outcomes)::int from private.signal_outcome_days),
  (select count(*)::int from public.strategy_signal_outcomes
   where created_at < (((now() - interval '1 hour') at time zone 'UTC')::date)::timestamp at time zone 'UTC'),
  'the rollup counts every outcome of the rolled-up days');
select cmp_ok((select count(*)::int from private.signal_outcome_days), '<',
  (select count(*)::int from public.strategy_signal_outcomes), 'it holds fewer rows than the outcomes');

select pg_temp.same('24h', 'after the rollup, 24 h: the same figures');
select pg_temp.same('7d', 'after the rollup, 7 d: the same figures');
select pg_temp.same('30d', 'after the rollup, 30 d: the same figures');

-- A late outcome in a day rolled up ten days ago moves the rollup's end back to that day.
insert into public.strategy_signals (symbol, exchange, exchange_type, timeframe, strategy, signal, confidence,
  confidence_tier, price, computed_at)
values ('LATE/USDT', 'Binance', 'cex', '5min', 'rsi', 'bullish', 0.5, 'medium', 100, now() - interval '10 days 2 hours');
insert into public.strategy_signal_outcomes (signal_id, symbol, exchange, strategy, signal, entry_price,
  exit_price, pct_change, was_correct, hours_elapsed, created_at)
select id, symbol, exchange, strategy, signal, 100, 177, 77, true, 1, now() - interval '10 days'
from public.strategy_signals where symbol = 'LATE/USDT';
select is((select rolled_until from private.signal_outcome_rollup),
  ((now() - interval '10 days') at time zone 'UTC')::date, 'a late outcome moves the rollup back to its day');
select pg_temp.expect();
select pg_temp.same('30d', 'with a late outcome in a rolled-up day: the same figures');

-- The retention job rolls it up again; a deleted outcome of a rolled-up day is noticed too.
do $$ begin perform private.run_retention(now()); end $$;
select is((select rolled_until from private.signal_outcome_rollup),
  ((now() - interval '1 hour') at time zone 'UTC')::date, 'the retention job rolls the day up again');
delete from public.strategy_signal_outcomes where created_at between now() - interval '5 days' and now() - interval '4 days';
select pg_temp.expect();
select pg_temp.same('7d', 'after deleting a day of outcomes: the same figures');
do $$ begin perform private.run_retention(now()); end $$;
select pg_temp.same('30d', 'rolled up again after the delete: the same figures');

-- The track record reads the rollup (a rolled-up day's count shows), not the outcomes again.
update private.signal_outcome_days set outcomes = outcomes + 1000
where day = ((now() - interval '20 days') at time zone 'UTC')::date and strategy = 'rsi' and horizon_hours = 1
  and ret is not distinct from (select min(ret) from private.signal_outcome_days
                                where day = ((now() - interval '20 days') at time zone 'UTC')::date
                                  and strategy = 'rsi' and horizon_hours = 1);
select tests.authenticate_as('a5800000-0000-4000-8000-000000000001');
select is((select signals from public.signal_track_record('30d') where strategy = 'rsi' and horizon_hours = 1),
  (select signals + 1000 from pg_temp.expected where period = '30d' and strategy = 'rsi' and horizon_hours = 1),
  'whole days inside the period come from the rollup');
select cmp_ok((select count(*)::int from private.signal_outcome_days), '>', 0, 'a subscriber reads the rollup');
select tests.authenticate_as('a5800000-0000-4000-8000-000000000002');
select is((select count(*)::int from private.signal_outcome_days), 0, 'a free account reads none of it');
select throws_ok($$select private.roll_signal_outcomes(now())$$, '42501', null, 'users may not run the rollup');
select tests.clear_authentication();

-- Retention: the rollup keeps 31 days, like the outcomes.
insert into private.signal_outcome_days (day, strategy, horizon_hours, ret, was_correct, outcomes) values
  (((now() - interval '33 days') at time zone 'UTC')::date, 'rsi', 1, 1, true, 1);
select is((private.run_retention(now()) ->> 'signal_outcome_days')::int, 1,
  'rollup rows older than 31 days go, and the job reports them');

select * from finish();
rollback;
