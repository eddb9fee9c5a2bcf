-- The alert step over a range of writes (migration 20261128171000, decision 0069): two writes then
-- one enqueue alert both; each write is taken once, across overlapping ranges, a repeated range and
-- a single-scan call; a write committed late inside a range that already ran is taken by the next
-- range; bad ranges are refused; only the service role may call it.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(20);

delete from auth.users;
delete from private.outbox;
truncate public.instruments, public.strategy_signals, public.alerts_sent cascade;
truncate private.alert_scans;

insert into auth.users (id, email) values
  ('a6900000-0000-4000-8000-000000000001', 'range1@range.test'),
  ('a6900000-0000-4000-8000-000000000002', 'range2@range.test');
update public.profiles set plan = 'enterprise', subscription_active = true, selected_window_minutes = 30,
  user_threshold = 5, email_alert = email, alert_directions = 'both'
where id::text like 'a6900000-%';

insert into public.instruments (id, symbol, exchange, exchange_type) overriding system value values
  (9201, 'RA/USDT', 'Binance', 'cex'), (9202, 'RB/USDT', 'Binance', 'cex'), (9203, 'RC/USDT', 'Binance', 'cex'),
  (9204, 'RD/USDT', 'Binance', 'cex');

-- A write: only the given instrument carries the write's time.
create procedure pg_temp.mover(inst bigint, sym text, move numeric, price numeric, at timestamptz)
  language sql security definer as $$
  insert into public.movers (instrument_id, symbol, exchange, exchange_type, price, pct, pct_30min, ts)
  values (inst, sym, 'Binance', 'cex', price, move, move, at)
  on conflict (instrument_id) do update
    set price = excluded.price, pct = excluded.pct, pct_30min = excluded.pct_30min, ts = excluded.ts;
$$;
create function pg_temp.symbols_of(who text) returns text language sql security definer as $$
  select string_agg(i ->> 'symbol', ',' order by i ->> 'symbol')
  from private.outbox o join public.profiles p on p.id = o.user_id
  cross join lateral jsonb_array_elements(private.job_payload(o) -> 'items') i
  where p.email = who;
$$;
grant execute on procedure pg_temp.mover(bigint, text, numeric, numeric, timestamptz) to service_role;
grant execute on function pg_temp.symbols_of(text) to service_role;

set local role service_role;
-- Two writes a second apart, then one enqueue over both.
call pg_temp.mover(9201, 'RA/USDT', 10, 1.10, '2026-07-01 10:00:01+00');
call pg_temp.mover(9202, 'RB/USDT', -12, 0.88, '2026-07-01 10:00:02+00');
select is(public.enqueue_alerts_between('2026-07-01 10:00:01+00', '2026-07-01 10:00:02+00'),
  '{"alerts": 4, "jobs": 4, "writes": 2}'::jsonb,
  'two writes, one enqueue: both crossings of both users, in one call that took both writes');
select is(pg_temp.symbols_of('range1@range.test'), 'RA/USDT,RB/USDT',
  'the first user is alerted for the crossing of each write');
select is(pg_temp.symbols_of('range2@range.test'), 'RA/USDT,RB/USDT', 'and so is the second');
reset role;
select is((select count(*)::int from private.alert_scans s
           where s.scanned_at between '2026-07-01 10:00:01+00' and '2026-07-01 10:00:02+00'), 2,
  'each write taken is recorded once');
set local role service_role;

-- The same range again, an overlapping one, and a single-scan call for a write already taken.
select is(public.enqueue_alerts_between('2026-07-01 10:00:01+00', '2026-07-01 10:00:02+00'),
  '{"alerts": 0, "jobs": 0, "writes": 0, "repeated": true}'::jsonb, 'the same range again takes nothing');
call pg_temp.mover(9203, 'RC/USDT', 9, 1.09, '2026-07-01 10:00:03+00');
select is(public.enqueue_alerts_between('2026-07-01 10:00:00+00', '2026-07-01 10:00:03+00') ->> 'writes', '1',
  'an overlapping range takes only the write no enqueue took');
select is(pg_temp.symbols_of('range1@range.test'), 'RA/USDT,RB/USDT,RC/USDT',
  'overlapping ranges: the new crossing is alerted, the earlier two are not alerted again');
select is(public.enqueue_alerts('2026-07-01 10:00:02+00'), '{"alerts": 0, "jobs": 0, "repeated": true}'::jsonb,
  'a single-scan call for a write a range took is a repeat (same answer as before)');
reset role;
select is((select count(*)::int from private.outbox o
           join public.profiles p on p.id = o.user_id where p.email like '%@range.test'), 6,
  'no crossing got a second job');
set local role service_role;

-- A write whose time lies inside a range that already ran (it committed late) is taken by the
-- next range that reaches back to it, once.
call pg_temp.mover(9204, 'RD/USDT', 15, 1.15, '2026-07-01 10:00:02.500+00');
select is(public.enqueue_alerts_between('2026-07-01 10:00:02.500+00', '2026-07-01 10:00:03+00') ->> 'jobs', '2',
  'a late write inside a range already run is taken by the next range');
select is(public.enqueue_alerts_between('2026-07-01 10:00:00+00', '2026-07-01 10:00:03+00') ->> 'repeated', 'true',
  'and not again by a wider one');

-- A write that did not cross is taken (recorded) and alerts nobody; a later write of the same
-- instrument in cooldown stays quiet, as with single scans.
call pg_temp.mover(9201, 'RA/USDT', 11, 1.11, '2026-07-01 10:00:05+00');
select is(public.enqueue_alerts_between('2026-07-01 10:00:04+00', '2026-07-01 10:00:05+00'),
  '{"alerts": 0, "jobs": 0, "writes": 1}'::jsonb, 'cooldown holds across ranges: RA again 4 s later stays quiet');

-- The single-scan function answers as before for a new write.
call pg_temp.mover(9203, 'RC/USDT', 30, 1.30, '2026-07-01 11:00:00+00');
select is(public.enqueue_alerts('2026-07-01 11:00:00+00'), '{"alerts": 2, "jobs": 2}'::jsonb,
  'enqueue_alerts(scanned_at) still enqueues one scan with its old answer');

-- Bad ranges.
select throws_ok($$select public.enqueue_alerts_between(null, now())$$, '22023', null, 'since is required');
select throws_ok($$select public.enqueue_alerts_between(now(), null)$$, '22023', null, 'through is required');
select throws_ok($$select public.enqueue_alerts_between('2026-07-01 10:00:05+00', '2026-07-01 10:00:04+00')$$,
  '22023', null, 'since after through is refused');
select throws_ok($$select public.enqueue_alerts_between('2026-06-29 10:00:00+00', '2026-07-01 10:00:00+00')$$,
  '22023', null, 'a range longer than a day is refused');
reset role;

-- Who may call it.
select tests.authenticate_as('a6900000-0000-4000-8000-000000000001');
select throws_ok($$select public.enqueue_alerts_between(now(), now())$$, '42501', null,
  'a signed-in user cannot enqueue alerts');
reset role;
set local role anon;
select throws_ok($$select public.enqueue_alerts_between(now(), now())$$, '42501', null, 'anon cannot either');
reset role;
select is((select count(*)::int from private.outbox o
           join public.profiles p on p.id = o.user_id where p.email like '%@range.test'), 10,
  'all told: RA, RB, RC, RD and RC''s new pump for two users, each once');

select * from finish();
rollback;
