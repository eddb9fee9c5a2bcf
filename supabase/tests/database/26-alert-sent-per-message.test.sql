-- alerts_sent records one row per delivered message (migration 20261126100000, decision 0043):
-- a digest of 25 crossing symbols that lists 3 is one row with those 3 symbols and a count of
-- 25; a single alert one row. claim_outbox hands the worker the recipient's locale and time zone
-- (migration 20261126100100) for messages in their language and zone.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(7);

insert into auth.users (id, email) values
  ('a2610000-0000-4000-8000-000000000001', 'sent-one@sent.test');
update public.profiles set plan = 'enterprise', subscription_active = true, locale = 'fr',
  time_zone = 'Asia/Tokyo',
  discord_webhook_url = 'https://discord.com/api/webhooks/2610/tok'
  where id = 'a2610000-0000-4000-8000-000000000001';
update private.outbox set status = 'cancelled' where status in ('pending', 'sending');

insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq, created_at) values
  ('market_alert', 'discord', 'a2610000-0000-4000-8000-000000000001', 'sent:digest',
   '{"shape": "digest", "total": 25, "items": [
      {"symbol": "BIG/USDT", "exchange": "Binance", "direction": "pump", "pct": 40, "windowMinutes": 15, "price": 2, "ts": "2026-11-26T00:00:00Z", "instrumentId": 1},
      {"symbol": "MID/USDT", "exchange": "Binance", "direction": "dump", "pct": -30, "windowMinutes": 15, "price": 1, "ts": "2026-11-26T00:00:00Z", "instrumentId": 2},
      {"symbol": "LOW/USDT", "exchange": "Kraken", "direction": "pump", "pct": 20, "windowMinutes": 15, "price": 3, "ts": "2026-11-26T00:00:00Z", "instrumentId": 3}]}',
   1, now()),
  ('market_alert', 'discord', 'a2610000-0000-4000-8000-000000000001', 'sent:single',
   '{"shape": "single", "total": 1, "items": [
      {"symbol": "ONE/USDT", "exchange": "Binance", "direction": "pump", "pct": 12.5, "windowMinutes": 5, "price": 0.5, "ts": "2026-11-26T00:00:00Z", "instrumentId": 4}]}',
   2, now());

set local role service_role;
create temp table claimed as select * from public.claim_outbox('w-sent', 10, 60, 'discord');
select results_eq($$select distinct locale, time_zone from claimed$$,
  $$values ('fr'::text, 'Asia/Tokyo'::text)$$, 'a claim carries the recipient''s locale and time zone');
select is(public.complete_outbox_batch('w-sent',
  (select jsonb_agg(jsonb_build_object('id', c.id, 'recipient', 'discord:2610')) from claimed c)), 2,
  'both messages are completed');
reset role;

select is((select count(*)::int from public.alerts_sent where user_id = 'a2610000-0000-4000-8000-000000000001'), 2,
  'one row per delivered message, not one per symbol');
select results_eq(
  $$select symbol, exchange, pct, direction, symbols, symbol_count from public.alerts_sent
    where user_id = 'a2610000-0000-4000-8000-000000000001' order by symbol_count desc$$,
  $$values ('BIG/USDT'::text, 'Binance'::text, 40::numeric, 'pump'::text, array['BIG/USDT', 'MID/USDT', 'LOW/USDT']::text[], 25),
           ('ONE/USDT'::text, 'Binance'::text, 12.5::numeric, 'pump'::text, array['ONE/USDT']::text[], 1)$$,
  'the row leads with the largest move, lists the message''s symbols and counts those it does not list');

-- Completing again (a late batch) writes nothing twice.
set local role service_role;
select is(public.complete_outbox_batch('w-sent',
  (select jsonb_agg(jsonb_build_object('id', c.id, 'recipient', 'discord:2610')) from claimed c)), 0,
  'a message completes once');
reset role;
select throws_ok(
  $$insert into public.alerts_sent (symbol, exchange, pct, price, ts, recipient, hash, symbols, symbol_count)
    values ('A', 'X', 1, 1, now(), 'r', 'sent-bad', array['A', 'B'], 1)$$,
  '23514', null, 'a row cannot count fewer symbols than it lists');
select is((select count(*)::int from public.alerts_sent where user_id = 'a2610000-0000-4000-8000-000000000001'), 2,
  'still two rows');

select * from finish();
rollback;
