-- A venue's "confirmed through" time (migration 20261129030000, decision 0079): the stream reader
-- reports through when its stored events confirm the venue's unchanged symbols; movers_feed's
-- confirmed_at is that time for a row written by the venue's last full poll or after it, when the
-- poll ran after the stream's unbroken run began; otherwise the row's own quote time. A stalled
-- venue's confirmation stops, so its rows age.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(14);

delete from public.movers;
delete from public.instruments;
delete from public.source_health;
delete from public.stream_health;
insert into auth.users (id, email) values ('a7900000-0000-4000-8000-000000000001', 'confirm@feed.test');
update public.profiles set plan = 'enterprise', subscription_active = true
 where id = 'a7900000-0000-4000-8000-000000000001';

-- The venues' last full polls, 20 s ago; Binance's stream has run for a minute and confirms
-- through 1 s ago; Coinbase's run began 10 s ago (after its poll); Kraken's stalled 50 s ago.
set local role service_role;
select public.record_source_health(
  '[{"source": "binance", "state": "ok", "quotes": 10}, {"source": "coinbase", "state": "ok", "quotes": 10},
    {"source": "kraken", "state": "ok", "quotes": 10}]'::jsonb, now() - interval '20 seconds');
select public.record_stream_health(jsonb_build_object('source', 'binance', 'state', 'connected',
  'connectedSince', now() - interval '60 seconds', 'confirmedSince', now() - interval '60 seconds',
  'confirmedThrough', now() - interval '1 second'));
select public.record_stream_health(jsonb_build_object('source', 'coinbase', 'state', 'connected',
  'connectedSince', now() - interval '10 seconds', 'confirmedSince', now() - interval '10 seconds',
  'confirmedThrough', now() - interval '1 second'));
select public.record_stream_health(jsonb_build_object('source', 'kraken', 'state', 'connected',
  'connectedSince', now() - interval '90 seconds', 'confirmedSince', now() - interval '90 seconds',
  'confirmedThrough', now() - interval '50 seconds'));
reset role;

select is((select confirmed_through from public.stream_health where source = 'binance'),
  now() - interval '1 second', 'the reader''s confirmation is stored');

-- Rows: written by the poll (ts = the poll's scan time) or before it, per venue.
with i as (
  insert into public.instruments (venue_key, symbol, exchange, exchange_type, source)
  values ('Binance:UNCH/USDT', 'UNCH/USDT', 'Binance', 'cex', 'binance'),
         ('Binance:GONE/USDT', 'GONE/USDT', 'Binance', 'cex', 'binance'),
         ('Coinbase:LATE/USD', 'LATE/USD', 'Coinbase', 'cex', 'coinbase'),
         ('Kraken:STALL/USD', 'STALL/USD', 'Kraken', 'cex', 'kraken'),
         ('dex:pool', 'POOL/WETH', 'Uniswap V3', 'dex', 'dex')
  returning id, symbol, exchange, exchange_type, source
)
insert into public.movers (instrument_id, symbol, exchange, exchange_type, source, price, pct, pct_5min, ts, quoted_at)
select id, symbol, exchange, exchange_type, source, 1, 5, 5,
       case symbol when 'GONE/USDT' then now() - interval '40 seconds' when 'STALL/USD' then now() - interval '20 seconds'
                   else now() - interval '20 seconds' end,
       case symbol when 'GONE/USDT' then now() - interval '40 seconds' when 'STALL/USD' then now() - interval '55 seconds'
                   else now() - interval '21 seconds' end
from i;
select private.refresh_movers_top(null);

create temp table feed (symbol text, quoted_at timestamptz, confirmed_at timestamptz);
grant all on feed to authenticated;
select tests.authenticate_as('a7900000-0000-4000-8000-000000000001');
insert into feed select symbol, quoted_at, confirmed_at from public.movers_feed(5);
reset role;

select is((select count(*)::int from feed), 5, 'every row is in the feed');
select is((select confirmed_at from feed where symbol = 'UNCH/USDT'), now() - interval '1 second',
  'an unchanged symbol written by the last full poll is confirmed through the stream''s newest stored event');
select is((select quoted_at from feed where symbol = 'UNCH/USDT'), now() - interval '21 seconds',
  'quoted_at stays the quote''s own venue time');
select is((select confirmed_at from feed where symbol = 'GONE/USDT'), now() - interval '40 seconds',
  'a row the last full poll did not write (delisted, say) keeps its own quote time');
select is((select confirmed_at from feed where symbol = 'LATE/USD'), now() - interval '21 seconds',
  'a stream run that began after the last full poll confirms nothing yet');
select is((select confirmed_at from feed where symbol = 'STALL/USD'), now() - interval '50 seconds',
  'a stalled venue''s confirmation stops: its rows age from its last stored event');
select is((select confirmed_at from feed where symbol = 'POOL/WETH'), now() - interval '21 seconds',
  'a venue without a stream keeps its quote times');

-- The report's rules.
set local role service_role;
select public.record_stream_health(jsonb_build_object('source', 'binance', 'state', 'connected',
  'connectedSince', now() - interval '60 seconds', 'confirmedSince', now() - interval '60 seconds',
  'confirmedThrough', now() - interval '30 seconds'));
select is((select confirmed_through from public.stream_health where source = 'binance'),
  now() - interval '1 second', 'within one run the confirmation never moves back');
select public.record_stream_health(jsonb_build_object('source', 'binance', 'state', 'connected',
  'connectedSince', now() - interval '60 seconds', 'reconnects', 0));
select is((select confirmed_through from public.stream_health where source = 'binance'),
  now() - interval '1 second', 'a report without the fields (an older reader) keeps the confirmation');
select public.record_stream_health(jsonb_build_object('source', 'binance', 'state', 'connected',
  'connectedSince', now(), 'confirmedSince', now()));
select results_eq(
  $$select confirmed_since, confirmed_through from public.stream_health where source = 'binance'$$,
  $$values (now(), null::timestamptz)$$,
  'a new run replaces the confirmation (none until its first stored event)');
select public.record_stream_health(jsonb_build_object('source', 'binance', 'state', 'connected',
  'connectedSince', now(), 'confirmedSince', now(), 'confirmedThrough', now() + interval '6 seconds'));
select is((select confirmed_through from public.stream_health where source = 'binance'), null::timestamptz,
  'a confirmation more than 5 s ahead of the database''s clock is not stored');
select throws_ok($$select public.record_stream_health(jsonb_build_object('source', 'binance', 'state', 'connected',
  'confirmedThrough', now()))$$, '22023', null, 'a confirmation without the run''s start is refused');
reset role;
select is(has_function_privilege('authenticated', 'public.record_stream_health(jsonb)', 'execute'), false,
  'users cannot report a confirmation');

select * from finish();
rollback;
