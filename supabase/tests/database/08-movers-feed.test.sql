-- movers_feed returns the window's strongest movers, at most 100, like the live broadcasts.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(5);

delete from public.movers;
delete from public.instruments;
insert into auth.users (id, email) values ('a8000000-0000-4000-8000-000000000001', 'feed@feed.test');
update public.profiles set plan = 'enterprise', subscription_active = true
 where id = 'a8000000-0000-4000-8000-000000000001';

with i as (
  insert into public.instruments (symbol, exchange, exchange_type, source)
  select 'FEED' || g || '/USDT', 'Binance', 'cex', 'simulated' from generate_series(1, 150) g
  returning id, symbol
)
insert into public.movers (instrument_id, symbol, exchange, exchange_type, price, pct, pct_5min, pct_30min, ts)
select id, symbol, 'Binance', 'cex', 1,
       0, -- the generic column: the window's own percent decides
       case when symbol = 'FEED7/USDT' then -99 else (regexp_replace(symbol, '\D', '', 'g')::int % 50) end,
       (regexp_replace(symbol, '\D', '', 'g')::int % 50) * -1,
       now()
from i;

create temp table feed5 (ord serial, id bigint, symbol text, pct numeric);
create temp table feed30 (ord serial, id bigint, symbol text, pct numeric);
grant all on feed5, feed30 to authenticated;
grant usage on all sequences in schema pg_temp to authenticated;

select tests.authenticate_as('a8000000-0000-4000-8000-000000000001');
insert into feed5 (id, symbol, pct) select id, symbol, pct from public.movers_feed(5);
insert into feed30 (id, symbol, pct) select id, symbol, pct from public.movers_feed(30);
reset role;

select is((select count(*)::int from feed5), 100, 'at most 100 movers');
select is((select symbol from feed5 order by ord limit 1), 'FEED7/USDT',
  'the strongest move of the window comes first, losses included');
select ok((select min(abs(pct)) from feed5)
          >= (select max(abs(m.pct_5min)) from public.movers m where m.id not in (select id from feed5)),
  'the 50 movers left out are the weakest of the window');
select is((select count(*)::int from feed30 where pct > 0), 0,
  'the 30-minute window ranks by its own column');
select ok((select bool_and(abs(a.pct) >= abs(b.pct)) from feed30 a join feed30 b on b.ord = a.ord + 1),
  'ordered by absolute change');

select * from finish();
rollback;
