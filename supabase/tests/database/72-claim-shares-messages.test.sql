-- A claim hands each shared message over once (migration 20261129050000, decision 0072): the
-- job's payload stays its own fields (no copy of the message into every job), the message comes
-- on the first of its jobs in the claim, a job whose message is gone is cancelled, and the
-- completion records alerts_sent from the message.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(11);

insert into auth.users (id, email) values
  ('a7200000-0000-4000-8000-000000000001', 'share-one@share.test'),
  ('a7200000-0000-4000-8000-000000000002', 'share-two@share.test'),
  ('a7200000-0000-4000-8000-000000000003', 'share-three@share.test');
update public.profiles set plan = 'enterprise', subscription_active = true,
  discord_webhook_url = 'https://discord.com/api/webhooks/72' || right(id::text, 1) || '/tok'
  where id::text like 'a7200000-%';
update private.outbox set status = 'cancelled' where status in ('pending', 'sending');

create temp table msg (id bigint, n int);
with ins as (
  insert into private.alert_messages (scanned_at, payload) values
    (now(), '{"shape": "digest", "total": 9, "items": [
       {"symbol": "LEAD/USDT", "exchange": "Binance", "direction": "pump", "pct": 30, "windowMinutes": 5, "price": 2, "ts": "2026-11-29T00:00:00Z", "instrumentId": 1},
       {"symbol": "NEXT/USDT", "exchange": "Binance", "direction": "pump", "pct": 20, "windowMinutes": 5, "price": 1, "ts": "2026-11-29T00:00:00Z", "instrumentId": 2}]}'),
    (now(), '{"shape": "single", "total": 1, "items": [
       {"symbol": "GONE/USDT", "exchange": "Binance", "direction": "pump", "pct": 10, "windowMinutes": 5, "price": 3, "ts": "2026-11-29T00:00:00Z", "instrumentId": 3}]}')
  returning id
)
insert into msg select id, row_number() over (order by id) from ins;

insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq, message_id, created_at)
select 'market_alert', 'discord', u.id, 'share:' || u.n, jsonb_build_object('scannedAt', '2026-11-29T00:00:00Z'),
       1, (select id from msg where n = case when u.n = 3 then 2 else 1 end), now() - interval '1 minute' + u.n * interval '1 second'
from (values ('a7200000-0000-4000-8000-000000000001'::uuid, 1), ('a7200000-0000-4000-8000-000000000002'::uuid, 2),
             ('a7200000-0000-4000-8000-000000000003'::uuid, 3)) u (id, n);
-- The third user's message is gone (older than a week and removed).
delete from private.alert_messages where id = (select id from msg where n = 2);

set local role service_role;
create temp table claimed as select * from public.claim_outbox('w-share', 10, 60, 'discord');
reset role;

select is((select count(*)::int from claimed), 2, 'the two jobs whose message exists are claimed');
select results_eq($$select message is not null, payload ? 'items' from claimed order by id$$,
  $$values (true, false), (false, false)$$,
  'the message comes once, on the first of its jobs; each payload is the job''s own');
select is((select (message || payload) -> 'items' -> 0 ->> 'symbol' from claimed where message is not null),
  'LEAD/USDT', 'the message and the job''s own fields make the payload the worker sends');
select is((select count(distinct message_id)::int from claimed), 1, 'both jobs name the same message');
select is((select count(*)::int from private.outbox o where o.dedup_key like 'share:%' and o.payload ? 'items'), 0,
  'no job holds a copy of its message');
select results_eq($$select status, last_error from private.outbox where dedup_key = 'share:3'$$,
  $$values ('cancelled'::text, 'The alert''s message expired before it could be sent.'::text)$$,
  'a job whose message is gone is cancelled, with the reason');

set local role service_role;
select is(public.complete_outbox_batch('w-share',
  (select jsonb_agg(jsonb_build_object('id', c.id, 'recipient', 'discord:72')) from claimed c)), 2,
  'both messages are completed');
reset role;
select results_eq(
  $$select symbol, pct, symbols, symbol_count from public.alerts_sent
    where user_id::text like 'a7200000-%' order by user_id$$,
  $$values ('LEAD/USDT'::text, 30::numeric, array['LEAD/USDT', 'NEXT/USDT']::text[], 9),
           ('LEAD/USDT'::text, 30::numeric, array['LEAD/USDT', 'NEXT/USDT']::text[], 9)$$,
  'alerts_sent records each delivered digest from its message: lead symbol, listed symbols, count');

-- A job's own items and total win over its message's (older jobs carried their message).
insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq, message_id) values
  ('market_alert', 'discord', 'a7200000-0000-4000-8000-000000000001', 'share:own',
   '{"shape": "single", "total": 1, "items": [{"symbol": "OWN/USDT", "exchange": "Kraken", "direction": "dump", "pct": -12, "windowMinutes": 5, "price": 1, "ts": "2026-11-29T00:00:00Z", "instrumentId": 4}]}',
   1, (select id from msg where n = 1));
set local role service_role;
create temp table claimed2 as select * from public.claim_outbox('w-share2', 10, 60, 'discord');
select is((select (coalesce(message, '{}') || payload) -> 'items' -> 0 ->> 'symbol' from claimed2), 'OWN/USDT',
  'a job''s own items win over its message''s');
select is(public.complete_outbox((select id from claimed2), 'w-share2', 'discord:72'), true,
  'complete_outbox completes the job');
reset role;
select is((select symbol from public.alerts_sent where user_id = 'a7200000-0000-4000-8000-000000000001'
           and symbol = 'OWN/USDT'), 'OWN/USDT', 'complete_outbox records the job''s own items');

select * from finish();
rollback;
