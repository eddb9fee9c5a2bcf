-- Price history per plan (migration 20261123100200, decision 0016): price_history is not
-- readable by API roles; price_history_for(instrument) serves one instrument's last 3 hours as
-- each 5-minute bucket's open/high/low/close samples, to active subscribers of every plan alike.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(28);

delete from auth.users;
delete from public.instruments;

create temp table u (code text primary key, uid uuid, plan public.plan, active boolean, role public.app_role, banned boolean);
insert into u values
  ('free',       'a1200000-0000-4000-8000-000000000001', 'none',       false, 'user',  false),
  ('basic',      'a1200000-0000-4000-8000-000000000002', 'basic',      true,  'user',  false),
  ('pro',        'a1200000-0000-4000-8000-000000000003', 'pro',        true,  'user',  false),
  ('enterprise', 'a1200000-0000-4000-8000-000000000004', 'enterprise', true,  'user',  false),
  ('admin',      'a1200000-0000-4000-8000-000000000005', 'enterprise', true,  'admin', false),
  ('banned',     'a1200000-0000-4000-8000-000000000006', 'enterprise', true,  'user',  true),
  ('lapsed',     'a1200000-0000-4000-8000-000000000007', 'enterprise', false, 'user',  false);
grant select on u to anon, authenticated;
insert into auth.users (id, email) select uid, code || '@history.test' from u;
update public.profiles p set plan = u.plan, subscription_active = u.active, role = u.role
from u where p.id = u.uid;
update public.profiles p set banned = true, banned_reason = 'History fixture ban'
from u where p.id = u.uid and u.banned;

-- 4 hours of a scan every 10 s (1,440 samples), of which the last 3 hours are served.
insert into public.instruments (id, symbol, exchange, exchange_type, source) overriding system value
values (9120001, 'HIST/USDT', 'Binance', 'cex', 'simulated');
insert into public.price_history (instrument_id, ts, price, volume_24h)
select 9120001, date_trunc('minute', now()) - make_interval(secs => g * 10),
       round((100 + 5 * sin(g / 7.0) + (g % 13) * 0.1)::numeric, 6), 1000 + g
from generate_series(0, 1439) g;

create temp table served (code text, ts timestamptz, price numeric, volume_24h numeric);
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

-- The table itself: nobody but the service role reads it.
select pg_temp.login('anon');
select throws_ok($$ select count(*) from public.price_history $$, '42501', null, 'anon cannot read price_history');
select throws_ok($$ select * from public.price_history_for(9120001) $$, '42501', null, 'anon cannot call price_history_for');
reset role;
select pg_temp.login('basic');
select throws_ok($$ select count(*) from public.price_history $$, '42501', null, 'a basic subscriber cannot page through price_history');
reset role;
select pg_temp.login('enterprise');
select throws_ok($$ select count(*) from public.price_history $$, '42501', null, 'an enterprise subscriber cannot read price_history either');
reset role;
select pg_temp.login('admin');
select throws_ok($$ select count(*) from public.price_history $$, '42501', null, 'an admin cannot read price_history');
reset role;

-- Without an active plan: refused with 403.
select pg_temp.login('free');
select throws_ok($$ select * from public.price_history_for(9120001) $$, 'PT403', 'Active subscription required', 'no plan: refused');
reset role;
select pg_temp.login('banned');
select throws_ok($$ select * from public.price_history_for(9120001) $$, 'PT403', 'Active subscription required', 'banned: refused');
reset role;
select pg_temp.login('lapsed');
select throws_ok($$ select * from public.price_history_for(9120001) $$, 'PT403', 'Active subscription required', 'lapsed subscription: refused');
reset role;

-- Each plan gets the same 5-minute resolution.
select pg_temp.login('basic');
insert into served select 'basic', * from public.price_history_for(9120001);
reset role;
select pg_temp.login('pro');
insert into served select 'pro', * from public.price_history_for(9120001);
reset role;
select pg_temp.login('enterprise');
insert into served select 'enterprise', * from public.price_history_for(9120001);
reset role;
select pg_temp.login('admin');
insert into served select 'admin', * from public.price_history_for(9120001);
reset role;

create function pg_temp.candles(rows_sql text) returns table (bucket numeric, o numeric, h numeric, l numeric, c numeric)
language plpgsql as $$
begin
  return query execute format($f$
    select floor(extract(epoch from r.ts) / 300), (array_agg(r.price order by r.ts))[1], max(r.price), min(r.price),
           (array_agg(r.price order by r.ts desc))[1]
    from (%s) r group by 1 $f$, rows_sql);
end;
$$;

select is((select count(*)::int from served where code = c), (select count(*)::int from served where code = 'basic'),
  format('%s gets as many rows as basic', c))
from unnest(array['pro', 'enterprise', 'admin']) c;
select is((select count(distinct (ts, price)) from served where code = 'basic'), (select count(*) from served where code = 'basic'),
  'no sample twice');

select ok((select count(*) from served where code = c) <= 4 * 37, format('%s: at most 4 rows per 5-minute bucket over 3 hours', c))
from unnest(array['basic', 'pro', 'enterprise', 'admin']) c;
select is((select max(n)::int from (select count(*) n from served where code = c group by floor(extract(epoch from ts) / 300)) b),
  4, format('%s: never more than the 4 samples of a candle per bucket', c))
from unnest(array['basic', 'pro', 'enterprise']) c;
select ok((select min(ts) from served where code = 'basic') >= now() - interval '3 hours', 'nothing older than 3 hours');
select is((select max(ts) from served where code = 'basic'), (select max(ts) from public.price_history where instrument_id = 9120001),
  'the newest sample is served');
select pg_temp.login('pro');
select ok((select bool_and(p.ts < p.nts) from (
             select f.ts, lead(f.ts) over (order by f.ord) nts
             from public.price_history_for(9120001) with ordinality f(ts, price, volume_24h, ord)) p
           where p.nts is not null), 'oldest first');
select is((select count(*)::int from public.price_history_for(-1)), 0, 'an unknown instrument has no history');
reset role;
select set_eq(
  $$select * from pg_temp.candles('select ts, price from served where code = ''basic''')$$,
  $$select * from pg_temp.candles('select ts, price from public.price_history where instrument_id = 9120001 and ts >= now() - interval ''3 hours''')$$,
  'the 5-minute candles of what is served are exactly those of the full history');
-- The 10-second window needs consecutive samples: of each bucket's 30, at most 4 are served,
-- so most consecutive 10-second pairs are missing.
select ok((select count(*) from (select ts, lead(ts) over (order by ts) nts from served where code = 'basic') p
           where nts - ts = interval '10 seconds') < 37 * 3,
  'most 10-second steps cannot be computed from what is served');
select is((select volume_24h from served where code = 'basic' order by ts desc limit 1),
  (select volume_24h from public.price_history where instrument_id = 9120001 order by ts desc limit 1),
  'each served sample keeps its 24-hour volume');

-- The function is safe to expose.
select is((select prosecdef from pg_proc where oid = 'public.price_history_for(bigint)'::regprocedure), true, 'security definer');
select ok((select proconfig @> array['search_path=""'] from pg_proc where oid = 'public.price_history_for(bigint)'::regprocedure),
  'with an empty search_path');

select * from finish();
rollback;
