-- Authorization matrix: every table of schema public × six actors × select/insert/update/delete,
-- then the movers_teaser view and the movers_feed RPC.
--
-- Each cell runs in its own subtransaction that is rolled back afterwards, so cells are
-- independent. A cell's outcome is one of
--   'rows=N'              select / insert: N rows visible or inserted
--   'rows=N unchanged'    update / delete: N rows affected, the fixture row is byte-identical
--   'rows=N changed'      update / delete: the statement changed or removed the fixture row
--   'error XXXXX'         the statement failed with SQLSTATE XXXXX (42501: privilege or RLS)
-- The fixture row of update/delete cells belongs to "user" (or to the system for market data).
-- A token ending in '?' is the outcome the rules call for but the migrations do not deliver
-- yet: it runs as a pgTAP TODO whose reason is the row's note.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

-- ---------------------------------------------------------------------------------------------
-- Fixtures: start from an empty data set so every count below is exact.
-- ---------------------------------------------------------------------------------------------
delete from auth.users;
truncate public.groups, public.instruments, public.strategy_signals, public.order_books,
  public.funding_rates, public.alerts_sent, public.activity_logs, public.billing_events cascade;

create temp table actor (name text primary key, ord int, uid uuid, db_role text);
insert into actor values
  ('anon',       1, null,                                   'anon'),
  ('user',       2, 'a1000000-0000-4000-8000-000000000001', 'authenticated'),  -- plan none
  ('other',      3, 'a1000000-0000-4000-8000-000000000002', 'authenticated'),  -- plan none
  ('subscriber', 4, 'a1000000-0000-4000-8000-000000000003', 'authenticated'),  -- pro, active
  ('banned',     5, 'a1000000-0000-4000-8000-000000000004', 'authenticated'),  -- pro, active, banned
  ('admin',      6, 'a1000000-0000-4000-8000-000000000005', 'authenticated'),  -- enterprise, admin
  ('target',     7, 'a1000000-0000-4000-8000-000000000006', 'authenticated'),  -- plan none, passive
  ('basic',      8, 'a1000000-0000-4000-8000-000000000007', 'authenticated'),  -- basic, active
  ('enterprise', 9, 'a1000000-0000-4000-8000-000000000008', 'authenticated'),  -- enterprise, active
  ('lapsed',    10, 'a1000000-0000-4000-8000-000000000009', 'authenticated');  -- pro, inactive
grant select on actor to anon, authenticated;

insert into auth.users (id, email) select uid, name || '@matrix.test' from actor where uid is not null;
update public.profiles p set plan = v.plan::public.plan, subscription_active = v.active,
  role = v.role::public.app_role
from (values
  ('subscriber', 'pro', true, 'user'), ('banned', 'pro', true, 'user'), ('admin', 'enterprise', true, 'admin'),
  ('basic', 'basic', true, 'user'), ('enterprise', 'enterprise', true, 'user'), ('lapsed', 'pro', false, 'user')
) as v (name, plan, active, role)
join actor a on a.name = v.name
where p.id = a.uid;
update public.profiles set banned = true, banned_reason = 'Matrix fixture ban'
where id = 'a1000000-0000-4000-8000-000000000004';
update public.profiles set username = 'matrix_user' where id = 'a1000000-0000-4000-8000-000000000001';

-- Market data (written by the scanner, i.e. the service role).
insert into public.instruments (symbol, exchange) values
  ('MTX1/USD', 'Matrix'), ('MTX2/USD', 'Matrix'), ('MTX3/USD', 'Matrix'), ('MTX4/USD', 'Matrix');
insert into public.price_history (instrument_id, ts, price)
select id, '2026-01-01 00:00:00+00'::timestamptz, 101 from public.instruments where symbol = 'MTX1/USD'
union all
select id, '2026-01-01 00:01:00+00'::timestamptz, 102 from public.instruments where symbol = 'MTX1/USD';
-- MTX1 is the newest mover and lacks every window-specific percent (pct is its fallback).
insert into public.movers (instrument_id, symbol, exchange, price, pct, pct_10sec, pct_15min, pct_30min, ts)
select i.id, i.symbol, i.exchange, 1, v.pct, v.p10s, v.p15, v.p30, now() - v.age
from public.instruments i
join (values
  ('MTX1/USD', 5.0, null::numeric, null::numeric, null::numeric, interval '1 minute'),
  ('MTX2/USD', 2.0, 0.2, 1.5, 3.0, interval '2 minutes'),
  ('MTX3/USD', -1.0, -0.1, -0.5, -1.5, interval '3 minutes'),
  ('MTX4/USD', 9.0, 0.9, 4.5, 9.5, interval '4 minutes')
) as v (symbol, pct, p10s, p15, p30, age) on v.symbol = i.symbol;
insert into public.strategy_signals (symbol, exchange, timeframe, strategy, signal, confidence, confidence_tier, price)
values ('MTX1/USD', 'Matrix', '1h', 'rsi', 'bullish', 0.8, 'high', 1),
       ('MTX2/USD', 'Matrix', '5min', 'macd', 'bearish', 0.4, 'low', 1);
insert into public.strategy_signal_outcomes (signal_id, symbol, exchange, strategy, signal, entry_price,
  exit_price, pct_change, was_correct, hours_elapsed)
select id, symbol, exchange, strategy, signal, 1, 1.1, 10, true, 4 from public.strategy_signals
where symbol = 'MTX1/USD';
insert into public.order_books (symbol, exchange, liquidity_score) values ('MTX1/USD', 'Matrix', 'deep');
insert into public.funding_rates (symbol, exchange, funding_rate, funding_rate_pct, sentiment) values ('MTX1/USD', 'Matrix', 0.0001, 0.01, 'bullish');

-- Community. G1 public and G2 private, both created by "user" (their group admin); G3 public,
-- without members. "other" and "banned" are members of G1. "user" blocked and reported "banned".
insert into public.groups (id, name, is_public, created_by) values
  ('b1000000-0000-4000-8000-000000000001', 'Matrix public', true, 'a1000000-0000-4000-8000-000000000001'),
  ('b1000000-0000-4000-8000-000000000002', 'Matrix private', false, 'a1000000-0000-4000-8000-000000000001'),
  ('b1000000-0000-4000-8000-000000000003', 'Matrix open', true, null);
insert into public.group_members (group_id, user_id) values
  ('b1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002'),
  ('b1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000004');
insert into public.messages (id, group_id, sender_id, content) values
  ('c1000000-0000-4000-8000-000000000001', 'b1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000001', 'user in public'),
  ('c1000000-0000-4000-8000-000000000002', 'b1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002', 'other in public'),
  ('c1000000-0000-4000-8000-000000000003', 'b1000000-0000-4000-8000-000000000002', 'a1000000-0000-4000-8000-000000000001', 'user in private'),
  ('c1000000-0000-4000-8000-000000000004', 'b1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000004', 'banned in public');
insert into public.user_blocks (id, blocker_id, blocked_id) values
  ('f1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000004');
insert into public.user_reports (id, reporter_id, reported_id, reason) values
  ('f1000000-0000-4000-8000-000000000002', 'a1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000004', 'spam');

-- Support: one ticket each for user, subscriber and banned; the admin answered the user.
insert into public.support_tickets (id, user_id, subject, content) values
  ('d1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000001', 'User ticket', 'The user needs some help'),
  ('d1000000-0000-4000-8000-000000000002', 'a1000000-0000-4000-8000-000000000003', 'Subscriber ticket', 'The subscriber needs help'),
  ('d1000000-0000-4000-8000-000000000003', 'a1000000-0000-4000-8000-000000000004', 'Banned ticket', 'The banned user needs help');
insert into public.ticket_messages (id, ticket_id, sender_id, content) values
  ('e1000000-0000-4000-8000-000000000001', 'd1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000001', 'user follow-up'),
  ('e1000000-0000-4000-8000-000000000002', 'd1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000005', 'admin answer'),
  ('e1000000-0000-4000-8000-000000000003', 'd1000000-0000-4000-8000-000000000002', 'a1000000-0000-4000-8000-000000000003', 'subscriber follow-up'),
  ('e1000000-0000-4000-8000-000000000004', 'd1000000-0000-4000-8000-000000000003', 'a1000000-0000-4000-8000-000000000004', 'banned follow-up');
-- The admin's internal note on the user's ticket and a canned reply (support desk).
insert into public.ticket_notes (id, ticket_id, author_id, content) values
  ('e1000000-0000-4000-8000-000000000005', 'd1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000005', 'admin note');
insert into public.canned_replies (id, title, content, created_by) values
  ('e1000000-0000-4000-8000-000000000006', 'Matrix greeting', 'Hello from the matrix', 'a1000000-0000-4000-8000-000000000005');

-- Administration and billing (service role).
insert into public.activity_logs (id, admin_id, action, target_user_id) values
  ('f1000000-0000-4000-8000-000000000003', 'a1000000-0000-4000-8000-000000000005', 'set_plan', 'a1000000-0000-4000-8000-000000000001');
insert into public.alerts_sent (symbol, exchange, pct, price, ts, recipient, hash) values
  ('MTX1/USD', 'Matrix', 5, 1, now(), 'enterprise@matrix.test', 'mtx-1'),
  ('MTX2/USD', 'Matrix', 2, 1, now(), 'enterprise@matrix.test', 'mtx-2');
insert into public.billing_customers (user_id, stripe_customer_id) values
  ('a1000000-0000-4000-8000-000000000001', 'cus_user'),
  ('a1000000-0000-4000-8000-000000000003', 'cus_subscriber'),
  ('a1000000-0000-4000-8000-000000000004', 'cus_banned');
insert into public.billing_subscriptions (id, user_id, stripe_customer_id, plan, status) values
  ('sub_user', 'a1000000-0000-4000-8000-000000000001', 'cus_user', 'basic', 'canceled'),
  ('sub_subscriber', 'a1000000-0000-4000-8000-000000000003', 'cus_subscriber', 'pro', 'active'),
  ('sub_banned', 'a1000000-0000-4000-8000-000000000004', 'cus_banned', 'pro', 'active');
insert into public.billing_events (id, type) values ('evt_1', 'checkout.session.completed');
-- Alert symbol rules (thresholds and mutes): one of "user" (from a past plan), one of "subscriber".
insert into public.alert_symbol_rules (user_id, symbol, threshold) values
  ('a1000000-0000-4000-8000-000000000001', 'MTX1/USD', 5),
  ('a1000000-0000-4000-8000-000000000003', 'MTX2/USD', 8);
delete from public.source_health;
insert into public.source_health (source, state, quotes, last_attempt_at) values ('simulated', 'ok', 10, now());
delete from public.stream_health;
insert into public.stream_health (source, state, connected_since, last_message_at) values ('binance', 'connected', now(), now());

-- ---------------------------------------------------------------------------------------------
-- The statements each actor attempts, per table: the insert, and the fixture row that update
-- and delete aim at (with the change the update tries).
-- ---------------------------------------------------------------------------------------------
create temp table target (tbl text primary key, ins text, key text, upd text);
insert into target values
  ('profiles', $$insert into public.profiles (id, email) values (gen_random_uuid(), 'new@matrix.test')$$,
   $$id = 'a1000000-0000-4000-8000-000000000001'$$, $$username = 'tampered_name'$$),
  ('instruments', $$insert into public.instruments (symbol, exchange) values ('NEW/USD', 'Matrix')$$,
   $$symbol = 'MTX1/USD'$$, $$network = 'tampered'$$),
  ('price_history', $$insert into public.price_history (instrument_id, ts, price) values (1, now(), 1)$$,
   $$price = 101$$, $$price = 1$$),
  ('candles_5m', $$insert into public.candles_5m (instrument_id, bucket, open, high, low, close, samples) values (1, '2026-01-01', 1, 1, 1, 1, 1)$$,
   $$instrument_id = 1$$, $$close = 2$$),
  ('candles_1h', $$insert into public.candles_1h (instrument_id, bucket, open, high, low, close, samples) values (1, '2026-01-01', 1, 1, 1, 1, 1)$$,
   $$instrument_id = 1$$, $$close = 2$$),
  ('movers', $$insert into public.movers (instrument_id, symbol, exchange, price) values (1, 'NEW/USD', 'Matrix', 1)$$,
   $$symbol = 'MTX1/USD'$$, $$pct = 999$$),
  ('strategy_signals', $$insert into public.strategy_signals (symbol, exchange, timeframe, strategy, signal,
     confidence, confidence_tier, price) values ('NEW/USD', 'Matrix', '1h', 'rsi', 'bullish', 0.5, 'medium', 1)$$,
   $$symbol = 'MTX1/USD'$$, $$confidence = 0.01$$),
  ('strategy_signal_outcomes', $$insert into public.strategy_signal_outcomes (signal_id, symbol, exchange, strategy,
     signal, entry_price, exit_price, pct_change, was_correct, hours_elapsed)
     values (1, 'NEW/USD', 'Matrix', 'rsi', 'bullish', 1, 1, 0, true, 1)$$,
   $$symbol = 'MTX1/USD'$$, $$was_correct = not was_correct$$),
  ('order_books', $$insert into public.order_books (symbol, exchange, liquidity_score) values ('NEW/USD', 'Matrix', 'deep')$$,
   $$symbol = 'MTX1/USD'$$, $$spread_pct = 99$$),
  ('funding_rates', $$insert into public.funding_rates (symbol, exchange, funding_rate, funding_rate_pct, sentiment) values ('NEW/USD', 'Matrix', 0.001, 0.1, 'bullish')$$,
   $$symbol = 'MTX1/USD'$$, $$funding_rate = 99$$),
  ('groups', $$insert into public.groups (name, created_by) values ('Matrix new group', auth.uid())$$,
   $$id = 'b1000000-0000-4000-8000-000000000001'$$, $$name = 'Tampered name'$$),
  ('group_members', $$insert into public.group_members (group_id, user_id) values ('b1000000-0000-4000-8000-000000000003', auth.uid())$$,
   $$group_id = 'b1000000-0000-4000-8000-000000000001' and user_id = 'a1000000-0000-4000-8000-000000000001'$$, $$role = 'member'$$),
  ('messages', $$insert into public.messages (group_id, content) values ('b1000000-0000-4000-8000-000000000001', 'matrix hello')$$,
   $$id = 'c1000000-0000-4000-8000-000000000001'$$, $$content = 'tampered'$$),
  ('user_blocks', $$insert into public.user_blocks (blocked_id) values ('a1000000-0000-4000-8000-000000000006')$$,
   $$id = 'f1000000-0000-4000-8000-000000000001'$$, $$blocked_id = 'a1000000-0000-4000-8000-000000000006'$$),
  ('user_reports', $$insert into public.user_reports (reported_id, reason) values ('a1000000-0000-4000-8000-000000000006', 'spam')$$,
   $$id = 'f1000000-0000-4000-8000-000000000002'$$, $$description = 'tampered'$$),
  ('support_tickets', $$insert into public.support_tickets (subject, content) values ('Matrix subject', 'Matrix content, long enough')$$,
   $$id = 'd1000000-0000-4000-8000-000000000001'$$, $$subject = 'Tampered subject'$$),
  ('ticket_messages', $$insert into public.ticket_messages (ticket_id, content) values ('d1000000-0000-4000-8000-000000000001', 'matrix reply')$$,
   $$id = 'e1000000-0000-4000-8000-000000000001'$$, $$content = 'tampered'$$),
  ('ticket_notes', $$insert into public.ticket_notes (ticket_id, content) values ('d1000000-0000-4000-8000-000000000001', 'matrix note')$$,
   $$id = 'e1000000-0000-4000-8000-000000000005'$$, $$content = 'tampered'$$),
  ('canned_replies', $$insert into public.canned_replies (title, content) values ('Matrix new', 'matrix canned reply')$$,
   $$id = 'e1000000-0000-4000-8000-000000000006'$$, $$content = 'tampered'$$),
  ('source_health', $$insert into public.source_health (source, state, last_attempt_at) values ('forged', 'ok', now())$$,
   $$source = 'simulated'$$, $$state = 'failing', failure = 'other'$$),
  ('stream_health', $$insert into public.stream_health (source, state, dropped_at) values ('forged', 'dropped', now())$$,
   $$source = 'binance'$$, $$state = 'dropped', connected_since = null, dropped_at = now()$$),
  ('alert_symbol_rules', $$insert into public.alert_symbol_rules (symbol, threshold) values ('NEW/USD', 7)$$,
   $$user_id = 'a1000000-0000-4000-8000-000000000001' and symbol = 'MTX1/USD'$$, $$threshold = 9$$),
  ('activity_logs', $$insert into public.activity_logs (action) values ('forged')$$,
   $$id = 'f1000000-0000-4000-8000-000000000003'$$, $$details = 'tampered'$$),
  ('alerts_sent', $$insert into public.alerts_sent (symbol, exchange, pct, price, ts, recipient, hash)
     values ('X', 'Y', 1, 1, now(), 'r', 'forged')$$,
   $$hash = 'mtx-1'$$, $$recipient = 'tampered'$$),
  ('billing_customers', $$insert into public.billing_customers (user_id, stripe_customer_id) values (auth.uid(), 'cus_forged')$$,
   $$user_id = 'a1000000-0000-4000-8000-000000000001'$$, $$stripe_customer_id = 'cus_tampered'$$),
  ('billing_subscriptions', $$insert into public.billing_subscriptions (id, user_id, stripe_customer_id, plan, status)
     values ('sub_forged', auth.uid(), 'cus_forged', 'enterprise', 'active')$$,
   $$id = 'sub_user'$$, $$plan = 'enterprise'$$),
  ('billing_events', $$insert into public.billing_events (id, type) values ('evt_forged', 'forged')$$,
   $$id = 'evt_1'$$, $$type = 'tampered'$$);

-- ---------------------------------------------------------------------------------------------
-- The matrix. Columns: anon, user, other, subscriber, banned, admin.
--   N = N rows (visible / inserted / affected), D = error 42501, '?' suffix = TODO (known bug).
-- For update/delete, 0 means "silently filtered, row unchanged" and 1 "row changed/removed".
-- ---------------------------------------------------------------------------------------------
create temp table expect (ord serial, tbl text, op text, outcomes text[], note text);
insert into expect (tbl, op, outcomes, note) values
  ('profiles', 'select', '{0,1,1,1,1,9}', null),
  ('profiles', 'insert', '{D,D,D,D,D,D}', null),
  ('profiles', 'update', '{D,1,0,0,0,0}', null),
  ('profiles', 'delete', '{D,D,D,D,D,D}', null),
  ('instruments', 'select', '{0,0,0,4,0,4}', null),
  ('instruments', 'insert', '{D,D,D,D,D,D}', null),
  ('instruments', 'update', '{D,D,D,D,D,D}', null),
  ('instruments', 'delete', '{D,D,D,D,D,D}', null),
  ('price_history', 'select', '{D,D,D,D,D,D}', null),
  ('price_history', 'insert', '{D,D,D,D,D,D}', null),
  ('price_history', 'update', '{D,D,D,D,D,D}', null),
  ('price_history', 'delete', '{D,D,D,D,D,D}', null),
  ('candles_5m', 'select', '{D,D,D,D,D,D}', null),
  ('candles_5m', 'insert', '{D,D,D,D,D,D}', null),
  ('candles_5m', 'update', '{D,D,D,D,D,D}', null),
  ('candles_5m', 'delete', '{D,D,D,D,D,D}', null),
  ('candles_1h', 'select', '{D,D,D,D,D,D}', null),
  ('candles_1h', 'insert', '{D,D,D,D,D,D}', null),
  ('candles_1h', 'update', '{D,D,D,D,D,D}', null),
  ('candles_1h', 'delete', '{D,D,D,D,D,D}', null),
  ('movers', 'select', '{D,D,D,D,D,D}', null),
  ('movers', 'insert', '{D,D,D,D,D,D}', null),
  ('movers', 'update', '{D,D,D,D,D,D}', null),
  ('movers', 'delete', '{D,D,D,D,D,D}', null),
  ('strategy_signals', 'select', '{0,0,0,2,0,2}', null),
  ('strategy_signals', 'insert', '{D,D,D,D,D,D}', null),
  ('strategy_signals', 'update', '{D,D,D,D,D,D}', null),
  ('strategy_signals', 'delete', '{D,D,D,D,D,D}', null),
  ('strategy_signal_outcomes', 'select', '{0,0,0,1,0,1}', null),
  ('strategy_signal_outcomes', 'insert', '{D,D,D,D,D,D}', null),
  ('strategy_signal_outcomes', 'update', '{D,D,D,D,D,D}', null),
  ('strategy_signal_outcomes', 'delete', '{D,D,D,D,D,D}', null),
  ('order_books', 'select', '{0,0,0,1,0,1}', null),
  ('order_books', 'insert', '{D,D,D,D,D,D}', null),
  ('order_books', 'update', '{D,D,D,D,D,D}', null),
  ('order_books', 'delete', '{D,D,D,D,D,D}', null),
  ('funding_rates', 'select', '{0,0,0,1,0,1}', null),
  ('funding_rates', 'insert', '{D,D,D,D,D,D}', null),
  ('funding_rates', 'update', '{D,D,D,D,D,D}', null),
  ('funding_rates', 'delete', '{D,D,D,D,D,D}', null),
  ('groups', 'select', '{0,3,2,2,0,2}', null),
  ('groups', 'insert', '{D,1,1,1,D,1}', null),
  ('groups', 'update', '{D,1,0,0,0,0}', null),
  ('groups', 'delete', '{0,1,0,0,0,0}', null),
  ('group_members', 'select', '{0,4,3,0,0,0}', null),
  ('group_members', 'insert', '{D,1,1,1,D,1}', null),
  ('group_members', 'update', '{D,1,0,0,0,0}', null),
  ('group_members', 'delete', '{0,1,0,0,0,0}', null),
  ('messages', 'select', '{0,3,3,0,0,0}', null),
  ('messages', 'insert', '{D,1,1,D,D,D}', null),
  ('messages', 'update', '{D,1,0,0,0,0}', null),
  ('messages', 'delete', '{0,1,0,0,0,0}', null),
  ('user_blocks', 'select', '{0,1,0,0,0,0}', null),
  ('user_blocks', 'insert', '{D,1,1,1,D,1}', null),
  ('user_blocks', 'update', '{D,D,D,D,D,D}', null),
  ('user_blocks', 'delete', '{0,1,0,0,0,0}', null),
  ('user_reports', 'select', '{0,1,0,0,0,1}', null),
  ('user_reports', 'insert', '{D,1,1,1,D,1}', null),
  ('user_reports', 'update', '{D,D,D,D,D,D}', null),
  ('user_reports', 'delete', '{0,0,0,0,0,1}', null),
  ('support_tickets', 'select', '{0,1,0,1,0,3}', null),
  ('support_tickets', 'insert', '{D,1,1,1,D,1}', null),
  ('support_tickets', 'update', '{D,D,D,D,D,D}', null),
  ('support_tickets', 'delete', '{0,0,0,0,0,1}', null),
  ('ticket_messages', 'select', '{0,2,0,1,0,4}', null),
  ('ticket_messages', 'insert', '{D,1,D,D,D,1}', null),
  ('ticket_messages', 'update', '{D,D,D,D,D,D}', null),
  ('ticket_messages', 'delete', '{D,D,D,D,D,D}', null),
  ('ticket_notes', 'select', '{D,0,0,0,0,1}', null),
  ('ticket_notes', 'insert', '{D,D,D,D,D,1}', null),
  ('ticket_notes', 'update', '{D,D,D,D,D,D}', null),
  ('ticket_notes', 'delete', '{D,0,0,0,0,1}', null),
  ('canned_replies', 'select', '{D,0,0,0,0,1}', null),
  ('canned_replies', 'insert', '{D,D,D,D,D,1}', null),
  ('canned_replies', 'update', '{D,0,0,0,0,1}', null),
  ('canned_replies', 'delete', '{D,0,0,0,0,1}', null),
  ('source_health', 'select', '{1,1,1,1,1,1}', 'anyone reads each source''s state'),
  ('source_health', 'insert', '{D,D,D,D,D,D}', null),
  ('source_health', 'update', '{D,D,D,D,D,D}', null),
  ('source_health', 'delete', '{D,D,D,D,D,D}', null),
  ('stream_health', 'select', '{1,1,1,1,1,1}', 'anyone reads each venue stream''s state'),
  ('stream_health', 'insert', '{D,D,D,D,D,D}', null),
  ('stream_health', 'update', '{D,D,D,D,D,D}', null),
  ('stream_health', 'delete', '{D,D,D,D,D,D}', null),
  ('activity_logs', 'select', '{0,0,0,0,0,1}', null),
  ('activity_logs', 'insert', '{D,D,D,D,D,D}', null),
  ('activity_logs', 'update', '{D,D,D,D,D,D}', null),
  ('activity_logs', 'delete', '{D,D,D,D,D,D}', null),
  ('alert_symbol_rules', 'select', '{D,1,0,1,0,0}', 'each user reads their own rules'),
  ('alert_symbol_rules', 'insert', '{D,D,D,1,D,1}', 'subscribers (not banned) add rules'),
  ('alert_symbol_rules', 'update', '{D,0,0,0,0,0}', 'a user without a plan changes nothing, others never'),
  ('alert_symbol_rules', 'delete', '{D,1,0,0,0,0}', 'users delete their own rules'),
  ('alerts_sent', 'select', '{0,0,0,0,0,2}', null),
  ('alerts_sent', 'insert', '{D,D,D,D,D,D}', null),
  ('alerts_sent', 'update', '{D,D,D,D,D,D}', null),
  ('alerts_sent', 'delete', '{D,D,D,D,D,D}', null),
  ('billing_customers', 'select', '{0,1,0,1,0,0}', null),
  ('billing_customers', 'insert', '{D,D,D,D,D,D}', null),
  ('billing_customers', 'update', '{D,D,D,D,D,D}', null),
  ('billing_customers', 'delete', '{D,D,D,D,D,D}', null),
  ('billing_subscriptions', 'select', '{0,1,0,1,0,0}', null),
  ('billing_subscriptions', 'insert', '{D,D,D,D,D,D}', null),
  ('billing_subscriptions', 'update', '{D,D,D,D,D,D}', null),
  ('billing_subscriptions', 'delete', '{D,D,D,D,D,D}', null),
  ('billing_events', 'select', '{D,D,D,D,D,D}', null),
  ('billing_events', 'insert', '{D,D,D,D,D,D}', null),
  ('billing_events', 'update', '{D,D,D,D,D,D}', null),
  ('billing_events', 'delete', '{D,D,D,D,D,D}', null);

-- ---------------------------------------------------------------------------------------------
-- Helpers
-- ---------------------------------------------------------------------------------------------
-- Act as an actor for the rest of the transaction (or until the next call); 'postgres' = superuser.
create function pg_temp.become(who text) returns void language plpgsql as $$
declare
  a record;
begin
  if who = 'postgres' then
    perform tests.clear_authentication();
    return;
  end if;
  select * into strict a from pg_temp.actor where name = who;
  case a.db_role
    when 'anon' then perform tests.authenticate_as_anon();
    when 'service_role' then perform tests.authenticate_as_service_role();
    else perform tests.authenticate_as(a.uid);
  end case;
end;
$$;

-- Run one statement as an actor, describe the outcome, and roll the statement back.
create function pg_temp.probe(who text, stmt text, tbl text default null, key text default null)
returns text language plpgsql as $$
declare
  n bigint;
  before_hash text;
  after_hash text;
  res text;
  fingerprint text;
begin
  if key is not null then
    fingerprint := format('select md5(coalesce(string_agg(t::text, %L order by t::text), %L)) from public.%I t where %s',
                          '|', 'gone', tbl, key);
    execute fingerprint into before_hash;
  end if;
  begin
    perform pg_temp.become(who);
    execute stmt;
    get diagnostics n = row_count;
    perform pg_temp.become('postgres');
    res := 'rows=' || n;
    if key is not null then
      execute fingerprint into after_hash;
      res := res || case when after_hash = before_hash then ' unchanged' else ' changed' end;
    end if;
    raise exception using errcode = 'TPROB', message = res;
  exception
    when sqlstate 'TPROB' then res := sqlerrm;
    when others then res := 'error ' || sqlstate;
  end;
  perform pg_temp.become('postgres');
  return res;
end;
$$;

create function pg_temp.token_outcome(token text, op text) returns text language sql immutable as $$
  select case
    when token = 'D' then 'error 42501'
    when token ~ '^[0-9]+$' and op in ('update', 'delete')
      then 'rows=' || token || case when token = '0' then ' unchanged' else ' changed' end
    when token ~ '^[0-9]+$' then 'rows=' || token
    else 'error ' || token
  end
$$;

create function pg_temp.run_matrix() returns setof text language plpgsql as $$
declare
  c record;
  stmt text;
  want text;
  token text;
begin
  for c in
    select e.*, t.ins, t.key, t.upd, a.name as actor, a.ord as actor_ord
    from pg_temp.expect e
    join pg_temp.target t using (tbl)
    cross join pg_temp.actor a
    where a.ord <= 6
    order by e.ord, a.ord
  loop
    token := c.outcomes[c.actor_ord];
    stmt := case c.op
      when 'select' then format('select 1 from public.%I', c.tbl)
      when 'insert' then c.ins
      when 'update' then format('update public.%I set %s where %s', c.tbl, c.upd, c.key)
      when 'delete' then format('delete from public.%I where %s', c.tbl, c.key)
    end;
    want := pg_temp.token_outcome(rtrim(token, '?'), c.op);
    if token like '%?' then
      perform todo(c.note, 1);
    end if;
    return next is(
      pg_temp.probe(c.actor, stmt, c.tbl, case when c.op in ('update', 'delete') then c.key end),
      want,
      format('%s: %s %s -> %s', c.actor, c.op, c.tbl, want)
    );
  end loop;
end;
$$;

-- Window outcomes for movers_feed: which plans may ask for which window.
create temp table feed_case (actor text, windows int[], allowed int[]);
insert into feed_case values
  ('basic', '{0,5,10,15,20,25,30}', '{30}'),
  ('subscriber', '{0,5,10,15,20,25,30}', '{15,20,25,30}'),
  ('enterprise', '{0,5,10,15,20,25,30}', '{0,5,10,15,20,25,30}');

select plan(
  (select count(*)::int * 6 from expect)
  + (select sum(cardinality(windows))::int from feed_case)
  + 20
);

-- Sanity: the matrix covers every table of schema public.
select set_eq(
  $$select c.relname::text from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p')$$,
  $$select distinct tbl from pg_temp.expect$$,
  'the matrix covers exactly the tables of schema public'
);
select is(
  (select count(*)::int from (select tbl from expect group by tbl
     having array_agg(op order by op) = '{delete,insert,select,update}') t),
  (select count(distinct tbl)::int from expect),
  'every table has exactly the four operations in the matrix'
);

select * from pg_temp.run_matrix();

-- ---------------------------------------------------------------------------------------------
-- movers_teaser: anyone sees the three strongest gainers, a few columns only.
-- ---------------------------------------------------------------------------------------------
select is(pg_temp.probe('anon', 'select 1 from public.movers_teaser'), 'rows=3', 'anon sees 3 teaser rows of 4 movers');
select is(pg_temp.probe('user', 'select 1 from public.movers_teaser'), 'rows=3', 'a user without plan sees 3 teaser rows');
select is(pg_temp.probe('subscriber', 'select 1 from public.movers_teaser'), 'rows=3', 'a subscriber sees 3 teaser rows');
select is(pg_temp.probe('banned', 'select 1 from public.movers_teaser'), 'rows=3', 'the teaser is public, banned included');
select table_privs_are('public', 'movers_teaser', 'anon', array['SELECT'], 'anon may only select from the teaser');
select table_privs_are('public', 'movers_teaser', 'authenticated', array['SELECT'],
  'authenticated may only select from the teaser');

select pg_temp.become('anon');
select is(
  (select array_agg(symbol) from public.movers_teaser),
  array['MTX4/USD', 'MTX1/USD', 'MTX2/USD'],
  'the teaser shows the three strongest gainers by 30-minute percent, strongest first'
);
select columns_are('public', 'movers_teaser', array['id', 'symbol', 'exchange', 'pct', 'price', 'ts'],
  'the teaser exposes only id, symbol, exchange, pct, price, ts');
select pg_temp.become('anon');
select is(
  (select pct from public.movers_teaser where symbol = 'MTX1/USD'),
  5.0,
  'a teaser row without a 30-minute percent falls back to pct'
);
select pg_temp.become('postgres');

-- ---------------------------------------------------------------------------------------------
-- movers_feed(window): only active subscribers, only the windows of their plan.
-- ---------------------------------------------------------------------------------------------
select is(pg_temp.probe('anon', 'select * from public.movers_feed(30)'), 'error 42501', 'anon cannot call movers_feed');
select is(pg_temp.probe('user', 'select * from public.movers_feed(30)'), 'error PT403', 'a user without plan is refused');
select is(pg_temp.probe('user', 'select * from public.movers_feed()'), 'error PT403', 'a user without plan is refused (default window)');
select is(pg_temp.probe('lapsed', 'select * from public.movers_feed(15)'), 'error PT403', 'an inactive subscription is refused');
select is(pg_temp.probe('banned', 'select * from public.movers_feed(15)'), 'error PT403', 'a banned subscriber is refused');
select is(pg_temp.probe('basic', 'select * from public.movers_feed()'), 'rows=4', 'basic without a window uses the stored window (30)');
select is(pg_temp.probe('admin', 'select * from public.movers_feed(0)'), 'rows=4', 'an admin on enterprise reads window 0');

select is(pg_temp.probe(f.actor, format('select * from public.movers_feed(%s)', w)),
          case when w = any (f.allowed) then 'rows=4' else 'error PT403' end,
          format('movers_feed: %s %s window %s', f.actor,
                 case when w = any (f.allowed) then 'reads' else 'is refused' end, w))
from feed_case f, unnest(f.windows) with ordinality as u (w, i)
order by f.actor, i;

select pg_temp.become('subscriber');
select results_eq(
  $$select symbol, pct, window_used from public.movers_feed(15) order by ts desc$$,
  $$values ('MTX1/USD'::text, 5.0::numeric, 15), ('MTX2/USD', 1.5, 15), ('MTX3/USD', -0.5, 15), ('MTX4/USD', 4.5, 15)$$,
  'movers_feed returns the window''s percent, falling back to pct, newest first'
);
select pg_temp.become('enterprise');
select results_eq(
  $$select symbol, pct, window_used from public.movers_feed(0) order by ts desc$$,
  $$values ('MTX1/USD'::text, 5.0::numeric, 0), ('MTX2/USD', 0.2, 0), ('MTX3/USD', -0.1, 0), ('MTX4/USD', 0.9, 0)$$,
  'window 0 reads the 10-second percent'
);
select pg_temp.become('postgres');

select * from finish();
rollback;
