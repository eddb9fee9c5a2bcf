-- Retention (migration 20261125600000, decision 0039, docs/retention.md): one assertion pair per
-- rule (a row just past the rule goes, one just inside stays), user content untouched, who may
-- run the job, and its hourly pg_cron schedule where pg_cron is loaded.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(31);

-- The job's clock: everything below is dated relative to it.
create function pg_temp.at() returns timestamptz language sql immutable as $$ select '2026-09-01 12:00:00+00'::timestamptz $$;

insert into auth.users (id, email) values
  ('a3000000-0000-4000-8000-000000000001', 'keeper@retention.test');

-- Signals and outcomes: one 34 days old (past 33), one 32 days old (inside); outcomes 32 and
-- 30 days old (31 is the rule).
insert into public.strategy_signals (id, symbol, exchange, timeframe, strategy, signal, confidence, confidence_tier, price, computed_at)
  overriding system value values
  (930001, 'OLD/USDT', 'Binance', '1h', 'rsi', 'bullish', 0.8, 'high', 1, pg_temp.at() - interval '34 days'),
  (930002, 'KEEP/USDT', 'Binance', '1h', 'rsi', 'bullish', 0.8, 'high', 1, pg_temp.at() - interval '32 days'),
  (930003, 'NEW/USDT', 'Binance', '1h', 'rsi', 'bullish', 0.8, 'high', 1, pg_temp.at() - interval '31 days');
insert into public.strategy_signal_outcomes (signal_id, symbol, exchange, strategy, signal, entry_price, exit_price, pct_change, was_correct, hours_elapsed, created_at) values
  (930002, 'KEEP/USDT', 'Binance', 'rsi', 'bullish', 1, 1.1, 10, true, 1, pg_temp.at() - interval '32 days'),
  (930003, 'NEW/USDT', 'Binance', 'rsi', 'bullish', 1, 1.1, 10, true, 1, pg_temp.at() - interval '30 days');

insert into private.outbox (kind, channel, user_id, dedup_key, payload, status, created_at, sent_at) values
  ('alert', 'email', 'a3000000-0000-4000-8000-000000000001', 'ret-sent-old', '{}', 'sent', pg_temp.at() - interval '40 days', pg_temp.at() - interval '31 days'),
  ('alert', 'email', 'a3000000-0000-4000-8000-000000000001', 'ret-failed-old', '{}', 'failed', pg_temp.at() - interval '31 days', null),
  ('alert', 'email', 'a3000000-0000-4000-8000-000000000001', 'ret-sent-new', '{}', 'sent', pg_temp.at() - interval '40 days', pg_temp.at() - interval '29 days'),
  ('alert', 'email', 'a3000000-0000-4000-8000-000000000001', 'ret-pending-old', '{}', 'pending', pg_temp.at() - interval '60 days', null);

insert into public.alerts_sent (symbol, exchange, pct, price, ts, recipient, hash, created_at) values
  ('OLD/USDT', 'Binance', 5, 1, pg_temp.at(), 'x', 'ret-old', pg_temp.at() - interval '31 days'),
  ('NEW/USDT', 'Binance', 5, 1, pg_temp.at(), 'x', 'ret-new', pg_temp.at() - interval '29 days');

insert into public.activity_logs (action, details, created_at) values
  ('retention_old', 'x', pg_temp.at() - interval '91 days'),
  ('retention_new', 'x', pg_temp.at() - interval '89 days');

insert into public.source_health (source, state, quotes, last_attempt_at) values
  ('retired', 'ok', 1, pg_temp.at() - interval '8 days'),
  ('current', 'ok', 1, pg_temp.at() - interval '6 days');

insert into public.order_books (symbol, exchange, liquidity_score, snapshot_at) values
  ('OLD/USDT', 'Binance', 'deep', pg_temp.at() - interval '8 days'),
  ('NEW/USDT', 'Binance', 'deep', pg_temp.at() - interval '6 days');
insert into public.funding_rates (symbol, exchange, funding_rate, funding_rate_pct, sentiment, fetched_at) values
  ('OLD/USDT', 'Binance', 0.01, 1, 'neutral', pg_temp.at() - interval '8 days'),
  ('NEW/USDT', 'Binance', 0.01, 1, 'neutral', pg_temp.at() - interval '6 days');

insert into public.billing_events (id, type, received_at) values
  ('evt_ret_old', 'checkout.session.completed', pg_temp.at() - interval '401 days'),
  ('evt_ret_new', 'checkout.session.completed', pg_temp.at() - interval '399 days');

insert into private.promotion_attempts (user_id, succeeded, attempted_at) values
  ('a3000000-0000-4000-8000-000000000001', false, pg_temp.at() - interval '31 days'),
  ('a3000000-0000-4000-8000-000000000001', true, pg_temp.at() - interval '29 days');

insert into public.instruments (id, symbol, exchange, exchange_type) overriding system value values
  (930001, 'OLD/USDT', 'Binance', 'cex');
insert into private.alert_state_marks (state_id, instrument_id, direction, last_price, last_move, last_alert_at) values
  (930001, 930001, 'pump', 1, 10, pg_temp.at() - interval '31 days'),
  (930001, 930001, 'dump', 1, -10, pg_temp.at() - interval '29 days');
insert into private.alert_scans (scanned_at) values
  (pg_temp.at() - interval '31 days'), (pg_temp.at() - interval '29 days');
-- Three 32-day-old messages: one free (goes), one still named by a pending job (stays); one new.
insert into private.alert_messages (id, scanned_at, payload) overriding system value values
  (930001, pg_temp.at() - interval '32 days', '{}'),
  (930002, pg_temp.at() - interval '32 days', '{}'),
  (930003, pg_temp.at() - interval '1 day', '{}');
insert into private.outbox (kind, channel, payload, dedup_key, message_id) values
  ('market_alert', 'email', '{}', 'retention-test-held-message', 930002);

-- User content, however old, stays.
insert into public.support_tickets (id, user_id, subject, content, created_at) values
  ('a3000000-0000-4000-8000-0000000000f1', 'a3000000-0000-4000-8000-000000000001', 'An old question', 'Asked a long time ago.', pg_temp.at() - interval '3 years');
insert into public.groups (id, name, created_by, created_at) values
  ('a3000000-0000-4000-8000-0000000000f2', 'Old friends', 'a3000000-0000-4000-8000-000000000001', pg_temp.at() - interval '3 years');
insert into public.messages (group_id, sender_id, content, created_at) values
  ('a3000000-0000-4000-8000-0000000000f2', 'a3000000-0000-4000-8000-000000000001', 'hello from the past', pg_temp.at() - interval '3 years');

-- Who may run it.
select is(has_function_privilege('anon', 'private.run_retention(timestamptz)', 'execute'), false, 'visitors cannot run retention');
select is(has_function_privilege('authenticated', 'private.run_retention(timestamptz)', 'execute'), false, 'users cannot run retention');
select ok(has_function_privilege('service_role', 'private.run_retention(timestamptz)', 'execute'), 'the service role runs retention');
select ok((select p.prosecdef and p.proconfig @> array['search_path=""'] from pg_proc p
           where p.oid = 'private.run_retention(timestamptz)'::regprocedure),
  'run_retention is security definer with an empty search_path');

select is((private.run_retention(pg_temp.at()) ->> 'strategy_signals')::int, 1, 'the job reports what each rule removed');

select is((select array_agg(id order by id) from public.strategy_signals where id between 930001 and 930003),
  array[930002, 930003]::bigint[], 'signals older than 33 days go, younger ones stay');
select is((select array_agg(signal_id order by signal_id) from public.strategy_signal_outcomes where signal_id between 930001 and 930003),
  array[930003]::bigint[], 'outcomes older than 31 days go, the 30-day track record keeps its own');
select is((select count(*)::int from public.strategy_signal_outcomes where signal_id = 930003), 1,
  'an outcome inside the track record''s longest period stays');
select is((select array_agg(dedup_key order by dedup_key) from private.outbox where dedup_key like 'ret-%'),
  array['ret-pending-old', 'ret-sent-new'], 'finished outbox jobs go 30 days after finishing; unfinished ones stay');
select ok(not exists (select 1 from private.outbox where dedup_key = 'ret-failed-old'), 'a failed job 31 days old goes');
select is((select array_agg(hash order by hash) from public.alerts_sent where hash like 'ret-%'),
  array['ret-new'], 'delivery records go after 30 days');
select ok(exists (select 1 from public.alerts_sent where hash = 'ret-new'), 'a 29-day-old delivery record stays');
select is((select array_agg(action order by action) from public.activity_logs where action like 'retention_%'),
  array['retention_new'], 'the activity log keeps 90 days');
select ok(not exists (select 1 from public.activity_logs where action = 'retention_old'), 'a 91-day-old log line goes');
select is((select array_agg(source order by source) from public.source_health where source in ('retired', 'current')),
  array['current'], 'source health drops a venue not attempted for 7 days');
select ok(exists (select 1 from public.source_health where source = 'current'), 'a venue attempted 6 days ago stays');
select is((select array_agg(symbol order by symbol) from public.order_books where symbol in ('OLD/USDT', 'NEW/USDT')),
  array['NEW/USDT'], 'order-book snapshots keep 7 days');
select ok(not exists (select 1 from public.order_books where symbol = 'OLD/USDT'), 'an 8-day-old snapshot goes');
select is((select array_agg(symbol order by symbol) from public.funding_rates where symbol in ('OLD/USDT', 'NEW/USDT')),
  array['NEW/USDT'], 'funding rates keep 7 days');
select ok(not exists (select 1 from public.funding_rates where symbol = 'OLD/USDT'), 'an 8-day-old funding rate goes');
select is((select array_agg(id order by id) from public.billing_events where id like 'evt_ret_%'),
  array['evt_ret_new'], 'billing events keep 400 days');
select ok(not exists (select 1 from public.billing_events where id = 'evt_ret_old'), 'a 401-day-old billing event goes');
select is((select array_agg(succeeded) from private.promotion_attempts where user_id = 'a3000000-0000-4000-8000-000000000001'),
  array[true], 'promotion attempts keep 30 days');
select is((select array_agg(direction) from private.alert_state_marks where state_id = 930001),
  array['dump'], 'alert marks go 30 days after their last alert');
select is((select count(*)::int from private.alert_scans where scanned_at < pg_temp.at() - interval '30 days'),
  0, 'enqueued-scan records keep 30 days');
select is((select array_agg(id order by id) from private.alert_messages where id between 930001 and 930003),
  array[930002, 930003]::bigint[], 'stored alert messages go after 31 days unless a job still names them');
select ok(exists (select 1 from public.support_tickets where id = 'a3000000-0000-4000-8000-0000000000f1'),
  'a three-year-old ticket stays until its owner or an admin deletes it');
select ok(exists (select 1 from public.messages where content = 'hello from the past'),
  'a three-year-old chat message stays until its owner or an admin deletes it');
select ok(exists (select 1 from public.groups where id = 'a3000000-0000-4000-8000-0000000000f2'),
  'a three-year-old group stays');

select is((select sum(value::int)::int from jsonb_each_text(private.run_retention(pg_temp.at()))), 0,
  'a second run finds nothing more to remove');

-- The hourly schedule: in cron.job where pg_cron is loaded into this database.
create function pg_temp.retention_jobs() returns text language plpgsql as $$
declare
  res text;
begin
  execute 'select string_agg(schedule || '' '' || command, '';'') from cron.job where jobname = ''retention'''
    into res;
  return res;
end;
$$;
select case when exists (select 1 from pg_extension where extname = 'pg_cron')
  then is(pg_temp.retention_jobs(), '17 * * * * select private.run_retention()',
          'pg_cron runs the retention job every hour')
  else skip('pg_cron is not loaded into this database: the retention schedule is the local runner''s', 1)
end;

select * from finish();
rollback;
