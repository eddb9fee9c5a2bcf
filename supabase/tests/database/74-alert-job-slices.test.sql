-- A scan's jobs written in slices (migration 20261129010000, decision 0074): the enqueue applies
-- the rules and writes the first slice; public.write_alert_jobs writes the rest, each slice and
-- its progress in one transaction. A slice rolled back (a crash inside it) loses nothing and
-- writes nothing twice; a recipient deleted between slices is skipped; every slice's jobs carry
-- the enqueue's time (the claim's fair order spans slices); the cap notice rides in its slice.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(20);

delete from auth.users;
delete from private.outbox;
truncate public.instruments, public.strategy_signals, public.alerts_sent cascade;
truncate private.alert_scans, private.alert_fanout;

insert into auth.users (id, email) values
  ('a7400000-0000-4000-8000-000000000001', 'slice1@slice.test'),
  ('a7400000-0000-4000-8000-000000000002', 'slice2@slice.test'),
  ('a7400000-0000-4000-8000-000000000003', 'slice3@slice.test'),
  ('a7400000-0000-4000-8000-000000000004', 'slice4@slice.test');
update public.profiles set plan = 'enterprise', subscription_active = true, selected_window_minutes = 30,
  user_threshold = 5, email_alert = email, alert_directions = 'both'
where id::text like 'a7400000-%';
-- The first also on Discord; the third on Telegram, with a daily cap of one (its alert carries
-- the cap notice).
update public.profiles set discord_webhook_url = 'https://discord.com/api/webhooks/74/one'
where id = 'a7400000-0000-4000-8000-000000000001';
update public.profiles set telegram_chat_id = '-74003', alert_daily_cap = 1
where id = 'a7400000-0000-4000-8000-000000000003';

insert into public.instruments (id, symbol, exchange, exchange_type) overriding system value values
  (9401, 'SA/USDT', 'Binance', 'cex'), (9402, 'SB/USDT', 'Binance', 'cex');
-- Two crossings: two single alerts (seq 1 and 2) per user.
insert into public.movers (instrument_id, symbol, exchange, exchange_type, price, pct, pct_30min, ts) values
  (9401, 'SA/USDT', 'Binance', 'cex', 1.1, 10, 10, '2026-07-02 10:00:00+00'),
  (9402, 'SB/USDT', 'Binance', 'cex', 0.9, -11, -11, '2026-07-02 10:00:00+00');

-- Slices of one recipient.
set local moverscan.alert_slice = 1;
set local role service_role;
select is(public.enqueue_alerts('2026-07-02 10:00:00+00'), '{"alerts": 8, "jobs": 4, "pending": 3}'::jsonb,
  'the enqueue applies the rules to all four and writes the first recipient''s jobs (two messages, two channels)');
reset role;
select is((select count(*)::int from private.outbox where user_id = 'a7400000-0000-4000-8000-000000000001'), 4,
  'the first slice holds the first recipient''s jobs');
select is((select count(*)::int from private.alert_fanout), 3, 'three slices wait, one recipient each');
select is((select count(*)::int from private.alert_user_state where sent_today = 1), 4,
  'every recipient''s state (daily count) is recorded by the enqueue, slices or not');

-- A crash inside the next slice: its transaction is rolled back.
savepoint before_crash;
set local role service_role;
select is(public.write_alert_jobs(2), '{"jobs": 6, "pending": 1}'::jsonb, 'a slice of two recipients (six jobs)');
reset role;
rollback to savepoint before_crash;
select is((select count(*)::int from private.outbox), 4, 'after the crash: only the first slice''s jobs');
select is((select count(*)::int from private.alert_fanout), 3, 'and the three slices still wait');

-- The second recipient's account is deleted between slices: skipped, nothing refused.
delete from auth.users where id = 'a7400000-0000-4000-8000-000000000002';
set local role service_role;
select is(public.write_alert_jobs(1), '{"jobs": 0, "pending": 2}'::jsonb,
  'a deleted recipient gets no jobs and does not stop the slice');
select is(public.write_alert_jobs(1), '{"jobs": 4, "pending": 1}'::jsonb,
  'the next slice: the third recipient (e-mail and Telegram, two messages)');
select is(public.write_alert_jobs(), '{"jobs": 2, "pending": 0}'::jsonb, 'the last slice: the fourth recipient');
select is(public.write_alert_jobs(), '{"jobs": 0, "pending": 0}'::jsonb, 'nothing left to write');
reset role;

select is((select count(*)::int from private.alert_fanout), 0, 'the fan-out rows are gone once written');
select is((select count(*)::int from private.outbox), 10, 'ten jobs in all');
select is((select count(distinct dedup_key)::int from private.outbox), 10, 'each written once');
select is((select count(distinct created_at)::int from private.outbox), 1,
  'every slice''s jobs carry the enqueue''s time (the fair order spans slices)');
select is((select count(*)::int from private.outbox where seq = 2), 5, 'each recipient has its second message');
select is(
  (select count(*)::int from private.outbox
   where user_id = 'a7400000-0000-4000-8000-000000000003' and payload @> '{"capReached": true, "dailyCap": 1}'),
  4, 'the capped recipient''s jobs carry the cap notice, written in a later slice');
select is(
  (select count(*)::int from private.outbox where payload ? 'capReached'), 4, 'and nobody else''s');

select throws_ok($$select public.write_alert_jobs(0)$$, '22023', null, 'a slice of no recipients is refused');
set local role authenticated;
select throws_ok($$select public.write_alert_jobs()$$, '42501', null, 'users cannot write alert jobs');
reset role;

select * from finish();
rollback;
