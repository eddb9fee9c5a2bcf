-- Alert delivery (migration 20261124000000, decision 0020): detection after a scan
-- (enqueue_alerts), the outbox's claim/complete/fail with leases and backoff, the no-spam rules
-- (cooldown, new move, digest, mute, per-symbol threshold, direction, confluence), plan rules,
-- ticket e-mails, and who may call what.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(52);

delete from auth.users;
delete from private.outbox;
truncate public.instruments, public.strategy_signals, public.alerts_sent cascade;

-- Actors: enterprise subscribers with channels, and those who must get nothing.
insert into auth.users (id, email) values
  ('a2000000-0000-4000-8000-000000000001', 'pump@alerts.test'),
  ('a2000000-0000-4000-8000-000000000002', 'dump@alerts.test'),
  ('a2000000-0000-4000-8000-000000000003', 'inactive@alerts.test'),
  ('a2000000-0000-4000-8000-000000000004', 'banned@alerts.test'),
  ('a2000000-0000-4000-8000-000000000005', 'pro@alerts.test'),
  ('a2000000-0000-4000-8000-000000000006', 'admin@alerts.test'),
  ('a2000000-0000-4000-8000-000000000007', 'confluence@alerts.test');
update public.profiles set plan = 'enterprise', subscription_active = true, selected_window_minutes = 30,
  user_threshold = 5, email_alert = email
where id::text like 'a2000000-%' and email <> 'pro@alerts.test';
update public.profiles set discord_webhook_url = 'https://discord.com/api/webhooks/1/pump', telegram_chat_id = '-1001'
where email = 'pump@alerts.test';
update public.profiles set alert_directions = 'dump' where email = 'dump@alerts.test';
update public.profiles set subscription_active = false where email = 'inactive@alerts.test';
update public.profiles set banned = true, banned_reason = 'spamming the chat' where email = 'banned@alerts.test';
update public.profiles set plan = 'pro', subscription_active = true where email = 'pro@alerts.test';
update public.profiles set role = 'admin', email_alert = null where email = 'admin@alerts.test';
update public.profiles set alert_confluence_min = 2 where email = 'confluence@alerts.test';

-- A scan: UP rose 20 %, DOWN fell 12 %, FLAT moved 1 %.
insert into public.instruments (id, symbol, exchange, exchange_type) overriding system value values
  (9001, 'UP/USDT', 'Binance', 'cex'), (9002, 'DOWN/USDT', 'Binance', 'cex'), (9003, 'FLAT/USDT', 'Binance', 'cex');
insert into public.movers (instrument_id, symbol, exchange, exchange_type, price, pct, pct_30min, ts) values
  (9001, 'UP/USDT', 'Binance', 'cex', 1.2, 20, 20, '2026-06-01 12:00:00+00'),
  (9002, 'DOWN/USDT', 'Binance', 'cex', 0.88, -12, -12, '2026-06-01 12:00:00+00'),
  (9003, 'FLAT/USDT', 'Binance', 'cex', 1.01, 1, 1, '2026-06-01 12:00:00+00');

-- Who may call what.
select is(has_function_privilege('anon', 'public.enqueue_alerts(timestamptz)', 'execute'), false, 'visitors cannot enqueue alerts');
select is(has_function_privilege('authenticated', 'public.enqueue_alerts(timestamptz)', 'execute'), false, 'users cannot enqueue alerts');
select is(has_function_privilege('authenticated', 'public.claim_outbox(text, integer, integer, text)', 'execute'), false, 'users cannot claim jobs');
select is(has_function_privilege('authenticated', 'public.complete_outbox(bigint, text, text)', 'execute'), false, 'users cannot complete jobs');
select is(has_function_privilege('authenticated', 'public.fail_outbox(bigint, text, text, numeric, boolean)', 'execute'), false, 'users cannot fail jobs');
select is(has_function_privilege('authenticated', 'public.complete_outbox_batch(text, jsonb)', 'execute'), false, 'users cannot complete batches');
select is(has_function_privilege('authenticated', 'public.move_telegram_chat(text, text)', 'execute'), false, 'users cannot move chats');
select is(has_table_privilege('authenticated', 'private.outbox', 'select'), false, 'users cannot read the outbox');

select is(has_function_privilege('authenticated', 'private.schedule_delivery()', 'execute'), false, 'users cannot schedule delivery');
create function pg_temp.delivery_jobs() returns text language plpgsql as $$
declare
  res text;
begin
  execute 'select string_agg(schedule || '' '' || command, '';'') from cron.job where jobname = ''deliver-alerts'''
    into res;
  return res;
end;
$$;
select case when exists (select 1 from pg_extension where extname = 'pg_cron')
              and exists (select 1 from pg_extension where extname = 'pg_net')
  then is(pg_temp.delivery_jobs(), '15 seconds select private.invoke_delivery()',
          'with pg_cron and pg_net the migration scheduled delivery every 15 seconds')
  else throws_ok('select private.schedule_delivery()', '55000', null,
                 'without pg_cron and pg_net, scheduling delivery says what is missing') end;
select case when exists (select 1 from pg_extension where extname = 'pg_cron')
              and not exists (select 1 from pg_extension where extname = 'pg_net')
  then is(pg_temp.delivery_jobs(), null, 'pg_cron without pg_net: no delivery job that could not reach the function')
  when exists (select 1 from pg_extension where extname = 'pg_cron')
  then isnt(pg_temp.delivery_jobs(), null, 'the delivery job is in cron.job')
  else skip('pg_cron is not loaded into this database', 1) end;

-- Detection.
set local role service_role;
select is(public.enqueue_alerts('2026-06-01 12:00:00+00') ->> 'jobs', '4', 'four jobs: pump user on three channels, dump user by e-mail');
reset role;
select results_eq(
  $$select p.email, o.channel, private.job_payload(o) ->> 'shape', private.job_payload(o) -> 'items' -> 0 ->> 'symbol'
    from private.outbox o join public.profiles p on p.id = o.user_id order by 1, 2$$,
  $$values ('dump@alerts.test', 'email', 'single', 'DOWN/USDT'), ('pump@alerts.test', 'discord', 'single', 'UP/USDT'),
           ('pump@alerts.test', 'email', 'single', 'UP/USDT'), ('pump@alerts.test', 'telegram', 'single', 'UP/USDT')$$,
  'rises go to pump subscribers, falls to dump subscribers; nothing for inactive, banned, pro or channel-less users');
select is((select count(*)::int from private.outbox o join public.profiles p on p.id = o.user_id
           where p.email = 'confluence@alerts.test'), 0, 'confluence: no alert without agreeing strategy signals');

set local role service_role;
select is(public.enqueue_alerts('2026-06-01 12:00:00+00') ->> 'jobs', '0', 'the same scan again enqueues nothing');
reset role;

-- Cooldown and new move: 5 minutes later UP is at 1.5 (+25 % since the alert): still cooling down.
update public.movers set price = 1.5, pct = 50, pct_30min = 50, ts = '2026-06-01 12:05:00+00' where instrument_id = 9001;
set local role service_role;
select is(public.enqueue_alerts('2026-06-01 12:05:00+00') ->> 'jobs', '0', 'no alert inside the 15-minute cooldown');
reset role;
-- 20 minutes after the alert, UP is at 1.22 (+1.7 % since the alerted 1.2): no new move.
update public.movers set price = 1.22, pct = 22, pct_30min = 22, ts = '2026-06-01 12:20:00+00' where instrument_id = 9001;
set local role service_role;
select is(public.enqueue_alerts('2026-06-01 12:20:00+00') ->> 'jobs', '0', 'no alert without a new move of the threshold');
reset role;
-- 21 minutes after, UP is at 1.4 (+16.7 % since the alert): alerts again.
update public.movers set price = 1.4, pct = 40, pct_30min = 40, ts = '2026-06-01 12:21:00+00' where instrument_id = 9001;
set local role service_role;
select is(public.enqueue_alerts('2026-06-01 12:21:00+00') ->> 'jobs', '3', 'after the cooldown and a new move, a new alert on each channel');
reset role;

-- Per-symbol threshold and mute.
insert into public.alert_symbol_rules (user_id, symbol, threshold) values ('a2000000-0000-4000-8000-000000000001', 'UP/USDT', 90);
update public.movers set price = 2.0, pct = 100, pct_30min = 60, ts = '2026-06-01 13:00:00+00' where instrument_id = 9001;
set local role service_role;
select is(public.enqueue_alerts('2026-06-01 13:00:00+00') ->> 'jobs', '0', 'a per-symbol threshold above the move keeps it quiet');
reset role;
update public.alert_symbol_rules set threshold = null, muted_until = '2026-06-01 14:00:00+00' where symbol = 'UP/USDT';
update public.movers set ts = '2026-06-01 13:30:00+00' where instrument_id = 9001;
set local role service_role;
select is(public.enqueue_alerts('2026-06-01 13:30:00+00') ->> 'jobs', '0', 'a muted symbol is skipped');
reset role;

-- Digest: four symbols at once become one message per channel.
delete from public.alert_symbol_rules;
insert into public.instruments (id, symbol, exchange, exchange_type) overriding system value values
  (9011, 'D1/USDT', 'Binance', 'cex'), (9012, 'D2/USDT', 'Binance', 'cex'), (9013, 'D3/USDT', 'Binance', 'cex'),
  (9014, 'D4/USDT', 'Coinbase', 'cex');
insert into public.movers (instrument_id, symbol, exchange, exchange_type, price, pct, pct_30min, ts) values
  (9011, 'D1/USDT', 'Binance', 'cex', 2, 30, 30, '2026-06-01 15:00:00+00'),
  (9012, 'D2/USDT', 'Binance', 'cex', 2, 31, 31, '2026-06-01 15:00:00+00'),
  (9013, 'D3/USDT', 'Binance', 'cex', 2, 32, 32, '2026-06-01 15:00:00+00'),
  (9014, 'D4/USDT', 'Coinbase', 'cex', 2, 33, 33, '2026-06-01 15:00:00+00');
update public.profiles set selected_exchanges = array['cex-major'] where email = 'pump@alerts.test';
set local role service_role;
select is(public.enqueue_alerts('2026-06-01 15:00:00+00') ->> 'jobs', '3', 'three symbols at once: one digest per channel');
reset role;
select results_eq(
  $$select private.job_payload(o) ->> 'shape', jsonb_array_length(private.job_payload(o) -> 'items') from private.outbox o
    where payload ->> 'scannedAt' like '2026-06-01T15:00%' and channel = 'email'$$,
  $$values ('digest'::text, 3)$$,
  'the digest lists the symbols of the user''s exchanges only (Coinbase left out)');

-- Confluence: two agreeing bullish signals let the alert through.
insert into public.strategy_signals (symbol, exchange, exchange_type, timeframe, strategy, signal, confidence, confidence_tier, price, computed_at) values
  ('D1/USDT', 'Binance', 'cex', '5min', 'rsi', 'bullish', 0.8, 'high', 2, '2026-06-01 15:55:00+00'),
  ('D1/USDT', 'Binance', 'cex', '5min', 'macd', 'bullish', 0.7, 'medium', 2, '2026-06-01 15:56:00+00'),
  ('D2/USDT', 'Binance', 'cex', '5min', 'rsi', 'bullish', 0.8, 'high', 2, '2026-06-01 15:55:00+00');
update public.movers set ts = '2026-06-01 16:00:00+00' where instrument_id in (9011, 9012);
update public.profiles set subscription_active = false where email in ('pump@alerts.test', 'dump@alerts.test');
set local role service_role;
select is(public.enqueue_alerts('2026-06-01 16:00:00+00') ->> 'jobs', '1', 'confluence: only the symbol with two agreeing signals');
reset role;
select is((select private.job_payload(o) -> 'items' -> 0 ->> 'symbol' from private.outbox o join public.profiles p on p.id = o.user_id
           where p.email = 'confluence@alerts.test'), 'D1/USDT', 'the confluence alert is for D1');
update public.profiles set subscription_active = true where email in ('pump@alerts.test', 'dump@alerts.test');

-- Delivery: claim, complete, fail.
delete from private.outbox where user_id <> 'a2000000-0000-4000-8000-000000000001' or dedup_key not like '%:email:%';
update private.outbox set next_attempt_at = now() - interval '1 second';
create temp table jobs as
  select min(id) as first_id, max(id) as last_id,
         (select id from private.outbox order by id offset 1 limit 1) as mid_id
  from private.outbox;
grant select on jobs to service_role;
set local role service_role;
select is((select count(*)::int from public.claim_outbox('w1', 10, 60)), 3, 'a worker claims the due jobs');
select is((select count(*)::int from public.claim_outbox('w2', 10, 60)), 0, 'claimed jobs are not claimed twice while leased');
select ok(public.complete_outbox((select first_id from jobs), 'w1', 'pump@alerts.test'), 'the worker completes a job');
select is(public.complete_outbox_batch('w1', jsonb_build_array(jsonb_build_object('id', (select first_id from jobs), 'recipient', 'x'))), 0, 'a job completes once, in a batch too');
select ok(not public.complete_outbox((select last_id from jobs), 'w2', 'x'), 'another worker cannot complete it');
select is(public.fail_outbox((select last_id from jobs), 'w1', 'HTTP 500', null, false), 'pending', 'a failure is retried');
reset role;
select ok((select next_attempt_at between now() + interval '4 seconds' and now() + interval '6 seconds'
           from private.outbox where id = (select last_id from jobs)), 'the first retry is due after 5 seconds');
set local role service_role;
select is(public.fail_outbox((select mid_id from jobs), 'w1', 'Unknown Webhook', 30, true), 'failed', 'a permanent failure is given up');
reset role;
select results_eq(
  $$select symbol, channel, user_id::text, recipient from public.alerts_sent$$,
  $$values ('UP/USDT'::text, 'email'::text, 'a2000000-0000-4000-8000-000000000001'::text, 'pump@alerts.test'::text)$$,
  'a completed market alert is recorded in alerts_sent with its recipient');
update private.outbox set attempts = 8, next_attempt_at = now() - interval '1 second', status = 'pending'
where id = (select last_id from jobs);
set local role service_role;
select is((select count(*)::int from public.claim_outbox('w3', 10, 60)), 1, 'the retried job is claimed again');
select is(public.fail_outbox((select last_id from jobs), 'w3', 'HTTP 500', null, false), 'failed', 'given up after the last attempt');
reset role;

-- A lease that ran out is claimed by another worker (the first one died).
update private.outbox set status = 'sending', claimed_by = 'dead', next_attempt_at = now() - interval '1 second'
where id = (select last_id from jobs);
select is((select claimed_by from private.outbox where id = (select last_id from jobs)), 'dead', 'fixture: a dead worker''s claim');
set local role service_role;
select is((select count(*)::int from public.claim_outbox('w4', 10, 60)), 1, 'its job is claimed again when the lease ran out');
select ok(not public.complete_outbox((select last_id from jobs), 'dead', 'x'), 'the dead worker''s late answer is refused');
reset role;

-- A plan change stops pending alerts: the job is cancelled at the claim.
update private.outbox set status = 'pending', next_attempt_at = now() - interval '1 second' where id = (select last_id from jobs);
update public.profiles set plan = 'pro' where email = 'pump@alerts.test';
set local role service_role;
select is((select count(*)::int from public.claim_outbox('w5', 10, 60)), 0, 'nothing to send after a downgrade');
reset role;
select is((select status from private.outbox where id = (select last_id from jobs)), 'cancelled', 'the job is cancelled');

-- Telegram chat migration.
update public.profiles set plan = 'enterprise', telegram_chat_id = '-1001' where email = 'pump@alerts.test';
set local role service_role;
select is(public.move_telegram_chat('-1001', '-1009999'), 1, 'a migrated chat id is followed');
reset role;

-- Users: mute, unsubscribe, their own alerts.
select tests.authenticate_as('a2000000-0000-4000-8000-000000000001');
select ok(public.mute_alert_symbol('UP/USDT', 60) > now(), 'a subscriber mutes a symbol for an hour');
select throws_ok($$select public.mute_alert_symbol('UP/USDT', 7)$$, '22023', null, 'only 15, 60 or 1440 minutes');
select is((select count(*)::int from public.alerts_sent), 1, 'a user reads their own alerts');
select is((select count(*)::int from public.alert_symbol_rules), 1, 'and their own symbol rules');
select tests.authenticate_as('a2000000-0000-4000-8000-000000000005');
select is((select count(*)::int from public.alerts_sent), 0, 'another user reads none of them');
select tests.authenticate_as('a2000000-0000-4000-8000-000000000004');
select throws_ok($$select public.mute_alert_symbol('UP/USDT', 60)$$, '42501', null, 'a banned user cannot mute');
reset role;
select is((select count(*)::int from public.alert_symbol_rules), 1, 'fixture: one rule');
create temp table link as select alert_unsubscribe_token as token from public.profiles where email = 'dump@alerts.test';
grant select on link to anon;
set local role anon;
select ok(not public.unsubscribe_alert_email(gen_random_uuid()), 'an unknown token unsubscribes nobody');
select ok(public.unsubscribe_alert_email((select token from link)),
  'the one-click link unsubscribes without a session');
reset role;
select is((select email_alert from public.profiles where email = 'dump@alerts.test'), null, 'e-mail alerts are off');

-- Ticket e-mails.
delete from private.outbox;
insert into public.support_tickets (id, user_id, subject, content) values
  ('d2000000-0000-4000-8000-000000000001', 'a2000000-0000-4000-8000-000000000005', 'Help me please', 'Something does not work here');
insert into public.ticket_messages (ticket_id, sender_id, content) values
  ('d2000000-0000-4000-8000-000000000001', 'a2000000-0000-4000-8000-000000000005', 'Any news?'),
  ('d2000000-0000-4000-8000-000000000001', 'a2000000-0000-4000-8000-000000000006', 'We are on it.');
update public.support_tickets set status = 'in_progress' where id = 'd2000000-0000-4000-8000-000000000001';
update public.support_tickets set status = 'resolved' where id = 'd2000000-0000-4000-8000-000000000001';
select results_eq(
  $$select kind, channel, user_id::text, payload ->> 'status' from private.outbox order by id$$,
  $$values ('ticket_reply'::text, 'email'::text, 'a2000000-0000-4000-8000-000000000005'::text, 'open'::text),
           ('ticket_status', 'email', 'a2000000-0000-4000-8000-000000000005', 'resolved')$$,
  'an admin reply and the status changes (merged while unsent) e-mail the owner, whatever the plan');

select * from finish();
rollback;
