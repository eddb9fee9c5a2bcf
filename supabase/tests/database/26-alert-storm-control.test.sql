-- Storm control and enqueueing at scale (migration 20261125100000, decision 0029): the settings'
-- rules, the escalation step, the daily cap with its single notice (the user's own day), quiet
-- hours in the user's zone across midnight with dumps let through, one enqueue per scan, shared
-- cooldown state, and the per-user ordinal of the jobs.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(41);

delete from auth.users;
delete from private.outbox;
truncate public.instruments, public.strategy_signals, public.alerts_sent cascade;

insert into auth.users (id, email) values
  ('a2600000-0000-4000-8000-000000000001', 'esc@storm.test'),
  ('a2600000-0000-4000-8000-000000000002', 'cap@storm.test'),
  ('a2600000-0000-4000-8000-000000000003', 'capny@storm.test'),
  ('a2600000-0000-4000-8000-000000000004', 'quiet@storm.test'),
  ('a2600000-0000-4000-8000-000000000005', 'quietall@storm.test'),
  ('a2600000-0000-4000-8000-000000000006', 'twin1@storm.test'),
  ('a2600000-0000-4000-8000-000000000007', 'twin2@storm.test'),
  ('a2600000-0000-4000-8000-000000000008', 'twin3@storm.test');
update public.profiles set plan = 'enterprise', subscription_active = false, selected_window_minutes = 30,
  user_threshold = 5, email_alert = email, alert_directions = 'both'
where id::text like 'a2600000-%';

insert into public.instruments (id, symbol, exchange, exchange_type) overriding system value values
  (9101, 'ESC/USDT', 'Binance', 'cex'), (9102, 'CA/USDT', 'Binance', 'cex'), (9103, 'CB/USDT', 'Binance', 'cex'),
  (9104, 'CC/USDT', 'Binance', 'cex'), (9105, 'CD/USDT', 'Binance', 'cex'), (9106, 'QP/USDT', 'Binance', 'cex'),
  (9107, 'QD/USDT', 'Binance', 'cex'), (9108, 'T1/USDT', 'Binance', 'cex'), (9109, 'T2/USDT', 'Binance', 'cex'),
  (9110, 'T3/USDT', 'Binance', 'cex');

-- A scan: only the given instruments carry the scan's time.
create procedure pg_temp.mover(inst bigint, sym text, move numeric, price numeric, at timestamptz)
  language sql security definer as $$
  insert into public.movers (instrument_id, symbol, exchange, exchange_type, price, pct, pct_30min, ts)
  values (inst, sym, 'Binance', 'cex', price, move, move, at)
  on conflict (instrument_id) do update
    set price = excluded.price, pct = excluded.pct, pct_30min = excluded.pct_30min, ts = excluded.ts;
$$;
create function pg_temp.jobs_of(who text) returns integer language sql as $$
  select count(*)::int from private.outbox o join public.profiles p on p.id = o.user_id where p.email = who;
$$;
create function pg_temp.enqueue(at timestamptz) returns integer language sql as $$
  select (public.enqueue_alerts(at) ->> 'jobs')::int;
$$;
grant execute on function pg_temp.enqueue(timestamptz) to service_role;
grant execute on procedure pg_temp.mover(bigint, text, numeric, numeric, timestamptz) to service_role;

-- Settings: server-side rules, and the user's own columns.
select throws_ok($$update public.profiles set alert_escalation_step = 0.5 where email = 'esc@storm.test'$$,
  '23514', null, 'an escalation step below 1 point is refused');
select throws_ok($$update public.profiles set alert_daily_cap = 0 where email = 'esc@storm.test'$$,
  '23514', null, 'a daily cap of 0 is refused (null turns the cap off)');
select throws_ok($$update public.profiles set alert_quiet_start = '22:00' where email = 'esc@storm.test'$$,
  '23514', null, 'quiet hours need a start and an end');
select throws_ok($$update public.profiles set alert_quiet_start = '22:00', alert_quiet_end = '22:00' where email = 'esc@storm.test'$$,
  '23514', null, 'quiet hours cannot start and end at the same time');
select tests.authenticate_as('a2600000-0000-4000-8000-000000000001');
select lives_ok($$update public.profiles set alert_escalation_step = 5, alert_daily_cap = 20,
  alert_quiet_start = '23:00', alert_quiet_end = '06:00', alert_quiet_dumps = true
  where id = 'a2600000-0000-4000-8000-000000000001'$$, 'a subscriber saves its own storm control');
reset role;
update public.profiles set alert_daily_cap = null, alert_quiet_start = null, alert_quiet_end = null,
  alert_quiet_dumps = false, subscription_active = true where email = 'esc@storm.test';

select is(private.in_quiet_hours('2026-06-01 21:30+00', 'Europe/Berlin', '22:00', '07:00'), true,
  'quiet hours across midnight: 23:30 in Berlin is quiet');
select is(private.in_quiet_hours('2026-06-01 05:30+00', 'Europe/Berlin', '22:00', '07:00'), false,
  'quiet hours across midnight: 07:30 in Berlin is not');
select is(private.in_quiet_hours('2026-06-01 12:30+00', null, '12:00', '13:00'), true,
  'without a zone, quiet hours are in UTC');

-- Escalation: step 5 points, cooldown 15 minutes.
set local role service_role;
call pg_temp.mover(9101, 'ESC/USDT', 10, 1.10, '2026-06-01 10:00+00');
select is(pg_temp.enqueue('2026-06-01 10:00+00'), 1, 'escalation: the first crossing alerts');
call pg_temp.mover(9101, 'ESC/USDT', 13, 1.30, '2026-06-01 10:20+00');
select is(pg_temp.enqueue('2026-06-01 10:20+00'), 0,
  'escalation: after the cooldown, a move of 13 (less than 10 + 5) stays quiet, though the price rose 18 %');
call pg_temp.mover(9101, 'ESC/USDT', 15.5, 1.35, '2026-06-01 10:25+00');
select is(pg_temp.enqueue('2026-06-01 10:25+00'), 1, 'escalation: a move of 15.5 (10 + 5 and more) alerts again');
call pg_temp.mover(9101, 'ESC/USDT', 18, 1.40, '2026-06-01 10:45+00');
select is(pg_temp.enqueue('2026-06-01 10:45+00'), 0, 'escalation: 18 is below 15.5 + 5');
call pg_temp.mover(9101, 'ESC/USDT', 8, 1.08, '2026-06-01 11:41+00');
select is(pg_temp.enqueue('2026-06-01 11:41+00'), 1,
  'escalation: 76 minutes after the last alert (cooldown + 60) the pump is over, a new one alerts at its own size');
reset role;
update public.profiles set subscription_active = false where email = 'esc@storm.test';

-- Daily cap of 2 messages (UTC day): the second carries the one notice, then nothing until the next day.
update public.profiles set alert_daily_cap = 2, subscription_active = true where email = 'cap@storm.test';
set local role service_role;
call pg_temp.mover(9102, 'CA/USDT', 10, 1.1, '2026-06-02 08:00+00');
select is(pg_temp.enqueue('2026-06-02 08:00+00'), 1, 'cap: the first alert of the day');
call pg_temp.mover(9103, 'CB/USDT', 10, 1.1, '2026-06-02 09:00+00');
select is(pg_temp.enqueue('2026-06-02 09:00+00'), 1, 'cap: the second alert reaches the cap');
call pg_temp.mover(9104, 'CC/USDT', 10, 1.1, '2026-06-02 10:00+00');
select is(pg_temp.enqueue('2026-06-02 10:00+00'), 0, 'cap: nothing after the cap');
call pg_temp.mover(9105, 'CD/USDT', 10, 1.1, '2026-06-02 23:59+00');
select is(pg_temp.enqueue('2026-06-02 23:59+00'), 0, 'cap: still nothing at 23:59 UTC');
reset role;
select is((select count(*)::int from private.outbox o where o.payload ->> 'capReached' = 'true'
           and o.user_id = 'a2600000-0000-4000-8000-000000000002'), 1, 'cap: exactly one "cap reached" notice');
select is((select private.job_payload(o) -> 'items' -> 0 ->> 'symbol' from private.outbox o
           where o.payload ->> 'capReached' = 'true' and o.user_id = 'a2600000-0000-4000-8000-000000000002'),
          'CB/USDT', 'cap: the notice rides on the alert that reached the cap');
set local role service_role;
call pg_temp.mover(9102, 'CA/USDT', 12, 1.3, '2026-06-03 00:01+00');
select is(pg_temp.enqueue('2026-06-03 00:01+00'), 1, 'cap: the next UTC day alerts again');
reset role;
update public.profiles set subscription_active = false where email = 'cap@storm.test';

-- Daily cap of 1 in New York: the day turns at 04:00 UTC in June (EDT).
update public.profiles set alert_daily_cap = 1, time_zone = 'America/New_York', subscription_active = true
where email = 'capny@storm.test';
set local role service_role;
call pg_temp.mover(9102, 'CA/USDT', 10, 1.1, '2026-06-05 03:00+00');
select is(pg_temp.enqueue('2026-06-05 03:00+00'), 1, 'cap in New York: 23:00 local, the alert that reaches the cap');
call pg_temp.mover(9103, 'CB/USDT', 10, 1.1, '2026-06-05 03:30+00');
select is(pg_temp.enqueue('2026-06-05 03:30+00'), 0, 'cap in New York: 23:30 local, capped');
call pg_temp.mover(9104, 'CC/USDT', 10, 1.1, '2026-06-05 04:30+00');
select is(pg_temp.enqueue('2026-06-05 04:30+00'), 1, 'cap in New York: 00:30 local is a new day');
reset role;
update public.profiles set subscription_active = false where email = 'capny@storm.test';

-- Quiet hours 22:00-07:00 in Berlin: pumps are held, dumps pass for the user who lets them through.
update public.profiles set time_zone = 'Europe/Berlin', alert_quiet_start = '22:00', alert_quiet_end = '07:00',
  subscription_active = true
where email in ('quiet@storm.test', 'quietall@storm.test');
update public.profiles set alert_quiet_dumps = true where email = 'quiet@storm.test';
set local role service_role;
call pg_temp.mover(9106, 'QP/USDT', 12, 1.12, '2026-06-06 21:30+00');
call pg_temp.mover(9107, 'QD/USDT', -12, 0.88, '2026-06-06 21:30+00');
select is(pg_temp.enqueue('2026-06-06 21:30+00'), 1, 'quiet hours (23:30 in Berlin): only the dump, for the user who lets dumps through');
reset role;
select is(pg_temp.jobs_of('quiet@storm.test'), 1, 'quiet hours: the dump alert reached the user who lets dumps through');
select is(pg_temp.jobs_of('quietall@storm.test'), 0, 'quiet hours: nothing for the user who holds everything');
set local role service_role;
call pg_temp.mover(9106, 'QP/USDT', 13, 1.13, '2026-06-07 05:30+00');
select is(pg_temp.enqueue('2026-06-07 05:30+00'), 2,
  'after quiet hours (07:30 in Berlin) the pump still on alerts both users: held, not lost while it lasts');
reset role;
update public.profiles set subscription_active = false where email in ('quiet@storm.test', 'quietall@storm.test');

-- Twins: identical rules share one cooldown state; a scan is enqueued once; singles are ordered.
update public.profiles set subscription_active = true where email like 'twin%';
set local role service_role;
call pg_temp.mover(9108, 'T1/USDT', 10, 1.1, '2026-06-08 12:00+00');
call pg_temp.mover(9109, 'T2/USDT', 20, 1.2, '2026-06-08 12:00+00');
select is(pg_temp.enqueue('2026-06-08 12:00+00'), 6, 'two symbols for three users: two single messages each');
select is(public.enqueue_alerts('2026-06-08 12:00+00'), '{"alerts": 0, "jobs": 0, "repeated": true}'::jsonb,
  'the same scan again enqueues nothing and says so');
reset role;
select is((select count(*)::int from private.outbox o where o.payload ->> 'scannedAt' like '2026-06-08T12:00%'), 6,
  'no duplicate jobs for the scan');
select is((select count(distinct u.state_id)::int from private.alert_user_state u
           where u.user_id in ('a2600000-0000-4000-8000-000000000006', 'a2600000-0000-4000-8000-000000000007',
                               'a2600000-0000-4000-8000-000000000008')),
          1, 'the users alerted together share one cooldown state');
select is((select count(*)::int from private.alert_state_marks k
           where k.state_id = (select state_id from private.alert_user_state where user_id = 'a2600000-0000-4000-8000-000000000006')),
          2, 'the shared state holds one mark per symbol, not one per user and symbol');
select results_eq(
  $$select o.seq::int, private.job_payload(o) -> 'items' -> 0 ->> 'symbol' from private.outbox o
    where o.user_id = 'a2600000-0000-4000-8000-000000000007' order by o.seq$$,
  $$values (1, 'T2/USDT'::text), (2, 'T1/USDT')$$,
  'a user''s first job of a scan has seq 1 (its largest move), the second seq 2');
select ok((select max(o.id) from private.outbox o where o.seq = 1 and o.payload ->> 'scannedAt' like '2026-06-08T12:00%')
          < (select min(o.id) from private.outbox o where o.seq = 2 and o.payload ->> 'scannedAt' like '2026-06-08T12:00%'),
          'every user''s first job is queued before anyone''s second');

-- One twin tightens its threshold: it leaves the group, the others keep the shared state.
update public.profiles set user_threshold = 50 where email = 'twin3@storm.test';
set local role service_role;
call pg_temp.mover(9110, 'T3/USDT', 30, 1.3, '2026-06-08 12:30+00');
select is(pg_temp.enqueue('2026-06-08 12:30+00'), 2, 'only the two twins under the move get it');
reset role;
select is((select count(distinct u.state_id)::int from private.alert_user_state u
           where u.user_id in ('a2600000-0000-4000-8000-000000000006', 'a2600000-0000-4000-8000-000000000007')),
          1, 'the two alerted twins share their new state');
select is((select count(*)::int from private.alert_state_marks k
           where k.state_id = (select state_id from private.alert_user_state where user_id = 'a2600000-0000-4000-8000-000000000006')),
          3, 'the new state keeps the marks still in force and adds the new one');
select isnt((select state_id from private.alert_user_state where user_id = 'a2600000-0000-4000-8000-000000000008'),
            (select state_id from private.alert_user_state where user_id = 'a2600000-0000-4000-8000-000000000006'),
            'the twin who got nothing keeps its own (old) state');
select ok(exists (select 1 from private.alert_state_marks k
                  where k.state_id = (select state_id from private.alert_user_state where user_id = 'a2600000-0000-4000-8000-000000000008')),
          'the old state is kept while a user is in it');

-- A claimed job carries the whole message (decision 0020's payload), and the shared message is
-- stored once for all users of the group.
select is((select count(distinct o.message_id)::int from private.outbox o
           where o.payload ->> 'scannedAt' like '2026-06-08T12:00%'), 2,
          'the twins'' six jobs share two stored messages');
update private.outbox set next_attempt_at = case
  when user_id = 'a2600000-0000-4000-8000-000000000006' and seq = 1 and payload ->> 'scannedAt' like '2026-06-08T12:00%'
  then now() - interval '1 second' else now() + interval '1 hour' end;
set local role service_role;
select results_eq(
  $$select (c.message || c.payload) ->> 'shape', (c.message || c.payload) -> 'items' -> 0 ->> 'symbol',
           (c.payload ? 'unsubscribeToken')
    from public.claim_outbox('w-storm', 500, 60) c$$,
  $$values ('single'::text, 'T2/USDT'::text, true)$$,
  'the claim returns the job with its message beside it (decision 0072)');
reset role;

select * from finish();
rollback;
