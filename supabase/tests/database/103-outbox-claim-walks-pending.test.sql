-- The claim walks pending jobs only (migration 20261203100100, decision 0103): the fair-order
-- index holds pending jobs, and a job whose lease ended before it was marked is made pending by
-- the next claim and taken in its fair place, its attempt counted; a marked one is still
-- recorded in doubt and not claimed.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(9);

insert into auth.users (id, email) values
  ('a1031000-0000-4000-8000-000000000001', 'cw-one@cw.test'),
  ('a1031000-0000-4000-8000-000000000002', 'cw-two@cw.test'),
  ('a1031000-0000-4000-8000-000000000003', 'cw-three@cw.test');
update public.profiles p set plan = 'enterprise', subscription_active = true,
  discord_webhook_url = 'https://discord.com/api/webhooks/1031' || right(p.id::text, 1) || '/tok',
  telegram_chat_id = '1031' || right(p.id::text, 1)
  where p.id::text like 'a1031000-%';
update private.outbox set status = 'cancelled' where status in ('pending', 'sending');

insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq, created_at) values
  ('market_alert', 'discord', 'a1031000-0000-4000-8000-000000000001', 'cw:1',
   '{"shape": "single", "total": 1, "items": [{"symbol": "A/USDT", "exchange": "Binance", "direction": "pump", "pct": 10, "windowMinutes": 5, "price": 1, "ts": "2026-12-03T00:00:00Z", "instrumentId": 1}]}',
   1, now() - interval '3 minutes'),
  ('market_alert', 'discord', 'a1031000-0000-4000-8000-000000000002', 'cw:2',
   '{"shape": "single", "total": 1, "items": [{"symbol": "B/USDT", "exchange": "Binance", "direction": "pump", "pct": 10, "windowMinutes": 5, "price": 1, "ts": "2026-12-03T00:00:00Z", "instrumentId": 2}]}',
   1, now() - interval '2 minutes');

select matches((select indexdef from pg_indexes where schemaname = 'private' and indexname = 'outbox_fair_idx'),
  'WHERE \(status = ''pending''::text\)$', 'the fair-order index holds pending jobs only');

create temp table first_job as select id from private.outbox where dedup_key = 'cw:1';
grant select on first_job to service_role;
set local role service_role;
select is((select count(*)::integer from public.claim_outbox('w-first', 10, 60, 'discord')), 2,
  'the first worker claims both jobs');
select is((select count(*)::integer from public.begin_outbox_sends('w-first',
  array[(select id from first_job)])), 1, 'and marks the first before its request');
reset role;

-- A newer job arrives; then the first worker's lease ends (it died): the first job was marked,
-- the second never was.
insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq, created_at) values
  ('market_alert', 'discord', 'a1031000-0000-4000-8000-000000000003', 'cw:3',
   '{"shape": "single", "total": 1, "items": [{"symbol": "C/USDT", "exchange": "Binance", "direction": "pump", "pct": 10, "windowMinutes": 5, "price": 1, "ts": "2026-12-03T00:00:00Z", "instrumentId": 3}]}',
   1, now() - interval '1 minute');
update private.outbox set next_attempt_at = now() - interval '1 second' where dedup_key in ('cw:1', 'cw:2');

set local role service_role;
create temp table second_claim as select c.id from public.claim_outbox('w-second', 1, 60, 'discord') c;
reset role;
select is((select o.dedup_key from second_claim c join private.outbox o on o.id = c.id), 'cw:2',
  'a claim of one takes the unmarked job whose lease ended, before the newer job (fair order)');
select results_eq(
  $$select status, claimed_by, attempts from private.outbox where dedup_key = 'cw:2'$$,
  $$values ('sending'::text, 'w-second'::text, 2)$$, 'it is the new worker''s, its second attempt counted');
select is((select status from private.outbox where dedup_key = 'cw:1'), 'in_doubt',
  'the marked job whose lease ended is in doubt, not claimed');

set local role service_role;
create temp table third_claim as select c.id from public.claim_outbox('w-third', 10, 60, 'discord') c;
reset role;
select is((select array_agg(o.dedup_key) from third_claim c join private.outbox o on o.id = c.id), array['cw:3'],
  'the next claim takes the newer job');
-- An unmarked job of another channel whose lease ended is due again for its own channel's claim.
update private.outbox set channel = 'telegram', status = 'sending', claimed_by = 'w-gone',
  next_attempt_at = now() - interval '1 second', send_started_at = null where dedup_key = 'cw:3';
set local role service_role;
select is((select count(*)::integer from public.claim_outbox('w-fourth', 10, 60, 'discord')), 0,
  'a Discord claim takes no Telegram job');
select is((select count(*)::integer from public.claim_outbox('w-fifth', 10, 60, 'telegram')), 1,
  'the Telegram claim takes it');
reset role;

select * from finish();
rollback;
