-- Sparklines of the movers list (migration 20261125500000): movers_sparklines(window) serves the
-- last 30 minutes of each instrument in the caller's movers of the window, one sample per
-- minute, under movers_feed's plan rules.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(13);

delete from auth.users;
delete from public.movers;
delete from public.instruments;

create temp table u (code text primary key, uid uuid, plan public.plan, active boolean, banned boolean);
insert into u values
  ('free',       'a2800000-0000-4000-8000-000000000001', 'none',       false, false),
  ('basic',      'a2800000-0000-4000-8000-000000000002', 'basic',      true,  false),
  ('pro',        'a2800000-0000-4000-8000-000000000003', 'pro',        true,  false),
  ('enterprise', 'a2800000-0000-4000-8000-000000000004', 'enterprise', true,  false),
  ('banned',     'a2800000-0000-4000-8000-000000000005', 'enterprise', true,  true);
grant select on u to anon, authenticated;
insert into auth.users (id, email) select uid, code || '@sparklines.test' from u;
update public.profiles p set plan = u.plan, subscription_active = u.active from u where p.id = u.uid;
update public.profiles p set banned = true, banned_reason = 'Sparkline fixture ban'
from u where p.id = u.uid and u.banned;

-- Two movers with history, and an instrument with history that is not a mover.
insert into public.instruments (id, symbol, exchange, exchange_type, source) overriding system value
values (9280001, 'SPARK/USDT', 'Binance', 'cex', 'simulated'),
       (9280002, 'LINE/USDT', 'Binance', 'cex', 'simulated'),
       (9280003, 'QUIET/USDT', 'Binance', 'cex', 'simulated');
insert into public.movers (instrument_id, symbol, exchange, exchange_type, price, pct, pct_30min, pct_15min, ts)
values (9280001, 'SPARK/USDT', 'Binance', 'cex', 1.5, 5, 5, 4, now()),
       (9280002, 'LINE/USDT', 'Binance', 'cex', 2, -3, -3, -2, now());
-- An hour of a scan every 10 s, the newest at the start of this minute.
insert into public.price_history (instrument_id, ts, price, volume_24h)
select i, date_trunc('minute', now()) - make_interval(secs => g * 10), 1 + g * 0.001 + i % 10, 1000
from generate_series(0, 359) g, unnest(array[9280001, 9280002, 9280003]) i;

create temp table served (code text, instrument_id bigint, times timestamptz[], prices numeric[]);
grant all on served to authenticated;

create function pg_temp.login(who text) returns void language plpgsql as $$
declare
  id uuid;
begin
  perform set_config('role', 'none', true);
  if who = 'anon' then
    perform tests.authenticate_as_anon();
    return;
  end if;
  select uid into strict id from pg_temp.u where code = who;
  perform tests.authenticate_as(id);
end;
$$;

-- Refused without a plan offering the window.
select pg_temp.login('anon');
select throws_ok($$ select * from public.movers_sparklines(30) $$, '42501', null, 'anon cannot call movers_sparklines');
reset role;
select pg_temp.login('free');
select throws_ok($$ select * from public.movers_sparklines(30) $$, 'PT403', 'Active subscription required', 'no plan: refused');
reset role;
select pg_temp.login('banned');
select throws_ok($$ select * from public.movers_sparklines(30) $$, 'PT403', 'Active subscription required', 'banned: refused');
reset role;
select pg_temp.login('basic');
select throws_ok($$ select * from public.movers_sparklines(15) $$, 'PT403', 'The basic plan does not offer a 15 minute window',
  'basic: only its own window');
insert into served select 'basic', * from public.movers_sparklines(30);
reset role;
select pg_temp.login('pro');
insert into served select 'pro', * from public.movers_sparklines(15);
reset role;
select pg_temp.login('enterprise');
insert into served select 'enterprise', * from public.movers_sparklines(null);
reset role;

select is((select array_agg(instrument_id order by instrument_id) from served where code = 'basic'),
  array[9280001, 9280002]::bigint[], 'one row for each mover of the window, none for other instruments');
select is((select count(*)::int from served where code = 'pro'), 2, 'pro: its chosen window works too');
select is((select count(*)::int from served where code = 'enterprise'), 2, 'no window: the caller''s selected one');
select ok((select bool_and(cardinality(times) = cardinality(prices)) from served), 'a price for each time');
select ok((select bool_and(cardinality(times) between 30 and 31) from served),
  'one sample per minute over 30 minutes, not one per scan');
select ok((select bool_and(times[1] >= now() - interval '30 minutes') from served), 'nothing older than 30 minutes');
select ok((select bool_and(times[cardinality(times)] = date_trunc('minute', now())) from served),
  'the newest sample is included');
select ok(
  (select bool_and(t.times[i] < t.times[i + 1] and date_trunc('minute', t.times[i]) < date_trunc('minute', t.times[i + 1]))
   from served t, generate_subscripts(t.times, 1) i where i < cardinality(t.times)),
  'oldest first, one sample per minute');
-- Each point is the minute's last sample.
select ok(
  (select bool_and(t.prices[i] = (
     select h.price from public.price_history h
     where h.instrument_id = t.instrument_id and date_trunc('minute', h.ts) = date_trunc('minute', t.times[i])
     order by h.ts desc limit 1))
   from served t, generate_subscripts(t.times, 1) i),
  'each point is the last price of its minute');

select * from finish();
rollback;
