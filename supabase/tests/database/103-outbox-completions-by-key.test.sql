-- complete_outbox_batch finds its jobs by key (migration 20261203100000, decision 0103): the
-- rules it keeps. Each job's own recipient is recorded with its alerts_sent row (read by id from
-- the list, not by its place in it); an id listed twice completes once, with its first
-- recipient; entries without a numeric id are skipped; only the claiming worker's jobs still
-- being sent, or in doubt after its mark, are completed; jobs that share a message and a job
-- that carries its own items are recorded alike; an empty list completes nothing.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(12);

insert into auth.users (id, email) values
  ('a1030000-0000-4000-8000-000000000001', 'ck-one@ck.test'),
  ('a1030000-0000-4000-8000-000000000002', 'ck-two@ck.test'),
  ('a1030000-0000-4000-8000-000000000003', 'ck-three@ck.test'),
  ('a1030000-0000-4000-8000-000000000004', 'ck-four@ck.test');
update public.profiles p set plan = 'enterprise', subscription_active = true,
  discord_webhook_url = 'https://discord.com/api/webhooks/103' || right(p.id::text, 1) || '/tok'
  where p.id::text like 'a1030000-%';
update private.outbox set status = 'cancelled' where status in ('pending', 'sending');

with message as (
  insert into private.alert_messages (scanned_at, payload)
  values (now(), '{"shape": "digest", "total": 30, "items": [
    {"symbol": "AAA/USDT", "exchange": "Binance", "direction": "pump", "pct": 31, "windowMinutes": 15, "price": 2, "ts": "2026-12-03T00:00:00Z", "instrumentId": 1},
    {"symbol": "BBB/USDT", "exchange": "Binance", "direction": "pump", "pct": 22, "windowMinutes": 15, "price": 1, "ts": "2026-12-03T00:00:00Z", "instrumentId": 2}]}')
  returning id)
insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq, message_id)
select 'market_alert', 'discord', u.id::uuid, 'ck:' || u.n, '{"unsubscribeToken": "t"}', 1, message.id
from message, (values (1, 'a1030000-0000-4000-8000-000000000001'),
                      (2, 'a1030000-0000-4000-8000-000000000002'),
                      (3, 'a1030000-0000-4000-8000-000000000003')) u (n, id);
insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq) values
  ('market_alert', 'discord', 'a1030000-0000-4000-8000-000000000004', 'ck:4',
   '{"shape": "single", "total": 1, "items": [
      {"symbol": "OWN/USDT", "exchange": "Kraken", "direction": "dump", "pct": -12, "windowMinutes": 5, "price": 0.5, "ts": "2026-12-03T00:00:00Z", "instrumentId": 9}]}',
   1);

set local role service_role;
create temp table claimed as select * from public.claim_outbox('w-ck', 10, 60, 'discord');
reset role;
create temp table ids as
  select (select id from private.outbox where dedup_key = 'ck:1') as one,
         (select id from private.outbox where dedup_key = 'ck:2') as two,
         (select id from private.outbox where dedup_key = 'ck:3') as three,
         (select id from private.outbox where dedup_key = 'ck:4') as four;
grant select on ids to service_role;

set local role service_role;
select is(public.complete_outbox_batch('w-ck', '[]'::jsonb), 0, 'an empty list completes nothing');
select is(public.complete_outbox_batch('w-other',
  (select jsonb_build_array(jsonb_build_object('id', one, 'recipient', 'discord:x')) from ids)), 0,
  'another worker cannot complete a job it did not claim');
-- The third job is marked, then its worker's lease ends: in doubt (the next claim's sweep).
select is((select count(*)::integer from public.begin_outbox_sends('w-ck', (select array[three] from ids))), 1,
  'the third job is marked before its request');
reset role;
update private.outbox set next_attempt_at = now() - interval '1 second' where dedup_key = 'ck:3';
set local role service_role;
select is((select count(*)::integer from public.claim_outbox('w-late', 10, 60, 'discord')), 0,
  'nothing else is due');
reset role;
select is((select status from private.outbox where dedup_key = 'ck:3'), 'in_doubt', 'the marked job is in doubt');

-- Listed out of key order, one id twice (its first recipient wins), one entry without an id.
set local role service_role;
select is(public.complete_outbox_batch('w-ck', (select jsonb_build_array(
    jsonb_build_object('id', four, 'recipient', 'discord:1034'),
    jsonb_build_object('id', two, 'recipient', 'discord:1032'),
    jsonb_build_object('id', '1', 'recipient', 'not a number'),
    jsonb_build_object('id', one, 'recipient', 'discord:1031'),
    jsonb_build_object('id', two, 'recipient', 'discord:second'),
    jsonb_build_object('id', three, 'recipient', 'discord:1033')) from ids)), 4,
  'four jobs complete: each once, the one in doubt after its mark included');
reset role;

select results_eq(
  $$select o.dedup_key, o.status from private.outbox o where o.dedup_key like 'ck:%' order by o.dedup_key$$,
  $$values ('ck:1'::text, 'sent'::text), ('ck:2', 'sent'), ('ck:3', 'sent'), ('ck:4', 'sent')$$,
  'every job is sent');
select results_eq(
  $$select u.email::text, s.recipient from public.alerts_sent s join auth.users u on u.id = s.user_id
    where u.email like 'ck-%' order by u.email$$,
  $$values ('ck-four@ck.test'::text, 'discord:1034'::text), ('ck-one@ck.test', 'discord:1031'),
           ('ck-three@ck.test', 'discord:1033'), ('ck-two@ck.test', 'discord:1032')$$,
  'each row records its own job''s recipient (an id listed twice: its first)');
select results_eq(
  $$select s.symbol, s.symbols, s.symbol_count from public.alerts_sent s join auth.users u on u.id = s.user_id
    where u.email in ('ck-one@ck.test', 'ck-two@ck.test', 'ck-three@ck.test') order by u.email$$,
  $$values ('AAA/USDT'::text, array['AAA/USDT', 'BBB/USDT']::text[], 30),
           ('AAA/USDT'::text, array['AAA/USDT', 'BBB/USDT']::text[], 30),
           ('AAA/USDT'::text, array['AAA/USDT', 'BBB/USDT']::text[], 30)$$,
  'the jobs of one shared message each record its lead symbol, its list and its count');
select results_eq(
  $$select s.symbol, s.exchange, s.pct, s.direction, s.symbols, s.symbol_count from public.alerts_sent s
    join auth.users u on u.id = s.user_id where u.email = 'ck-four@ck.test'$$,
  $$values ('OWN/USDT'::text, 'Kraken'::text, -12::numeric, 'dump'::text, array['OWN/USDT']::text[], 1)$$,
  'a job with its own items is recorded from them');

set local role service_role;
select is(public.complete_outbox_batch('w-ck',
  (select jsonb_agg(jsonb_build_object('id', x, 'recipient', 'again')) from ids, unnest(array[one, two, three, four]) x)), 0,
  'completing again completes nothing');
reset role;
select is((select count(*)::integer from public.alerts_sent s join auth.users u on u.id = s.user_id
           where u.email like 'ck-%'), 4, 'and writes no second row');

select * from finish();
rollback;
