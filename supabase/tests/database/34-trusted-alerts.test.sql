-- Trusted alerts (migration 20261126200100, decision 0046): the two alert settings default off and
-- are their owner's to change (not another user's, not anon's), and the movers' trust columns
-- refuse what the rules do not allow.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(9);

delete from auth.users where email like '%@trusted.test';
insert into auth.users (id, email) values
  ('a3400000-0000-4000-8000-000000000001', 'own@trusted.test'),
  ('a3400000-0000-4000-8000-000000000002', 'other@trusted.test');

select is(
  (select (alert_include_thin, alert_require_confirmation)::text from public.profiles
   where id = 'a3400000-0000-4000-8000-000000000001'),
  '(f,f)', 'a new profile neither includes thin moves nor requires confirmation');

select tests.authenticate_as('a3400000-0000-4000-8000-000000000001');
update public.profiles set alert_include_thin = true, alert_require_confirmation = true
where id = 'a3400000-0000-4000-8000-000000000001';
-- Another user's row is not visible to update.
update public.profiles set alert_include_thin = true where id = 'a3400000-0000-4000-8000-000000000002';
select tests.clear_authentication();

select is(
  (select (alert_include_thin, alert_require_confirmation)::text from public.profiles
   where id = 'a3400000-0000-4000-8000-000000000001'),
  '(t,t)', 'the owner turns both on');
select is(
  (select alert_include_thin from public.profiles where id = 'a3400000-0000-4000-8000-000000000002'),
  false, 'another user cannot change them');

select tests.authenticate_as_anon();
select throws_ok(
  $$update public.profiles set alert_include_thin = true$$,
  '42501', null, 'anon cannot change them');
select tests.clear_authentication();

-- The movers' trust columns keep to their rules.
insert into public.instruments (id, symbol, exchange, exchange_type) overriding system value values
  (93401, 'TRST/USDT', 'Binance', 'cex');
insert into public.movers (instrument_id, symbol, exchange, exchange_type, price, pct, ts)
values (93401, 'TRST/USDT', 'Binance', 'cex', 1, 0, now());
select throws_ok(
  $$update public.movers set flags = array['not_a_flag'] where instrument_id = 93401$$,
  '23514', null, 'an unknown flag is refused');
select throws_ok(
  $$update public.movers set trust_score = 101 where instrument_id = 93401$$,
  '23514', null, 'a trust score above 100 is refused');
select throws_ok(
  $$update public.movers set liquidity_usd = -1 where instrument_id = 93401$$,
  '23514', null, 'a negative reserve is refused');
select lives_ok(
  $$update public.movers set flags = array['young_pool', 'wash_volume'], trust_score = 0 where instrument_id = 93401$$,
  'known flags and a score in range are kept');
select is(
  (select (thin, confirmed_on, flags)::text from public.movers m
   join public.instruments i on i.id = m.instrument_id where i.id = 93401),
  '(f,{},"{young_pool,wash_volume}")', 'a mover row has its trust columns, never null');

select * from finish();
rollback;
