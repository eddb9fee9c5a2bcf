-- Scan ingest (migration 20261121000900) and its schedule (20261121001000): public.ingest_scan()
-- window maths on constructed histories, the tolerance for young instruments, gaps, upserts that
-- keep ids, malformed quotes skipped and counted, pruning at 200 minutes, one broadcast per scan,
-- movers_feed reading the new percents, execute rights, and the guarded pg_cron/pg_net schedule.
--
-- Every scan runs at a fixed time T = 2026-06-01 12:00:00+00 (or T + 10 s), so the expected
-- percents are exact.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

-- ---------------------------------------------------------------------------------------------
-- Fixtures
-- ---------------------------------------------------------------------------------------------
delete from auth.users;
truncate public.instruments cascade;
delete from realtime.messages;

create temp table u (code text primary key, uid uuid, plan public.plan, active boolean);
insert into u values
  ('enterprise', 'a7000000-0000-4000-8000-000000000001', 'enterprise', true),
  ('basic',      'a7000000-0000-4000-8000-000000000002', 'basic',      true);
grant select on u to anon, authenticated;
insert into auth.users (id, email) select uid, code || '@scan.test' from u;
update public.profiles p set plan = u.plan, subscription_active = u.active from u where p.id = u.uid;

-- A quote as the scanner sends it (market.ts Quote); `extra` overrides or removes keys.
create function pg_temp.quote(symbol text, price numeric, ts text, extra jsonb default '{}') returns jsonb
language sql immutable as $$
  select jsonb_strip_nulls(jsonb_build_object(
    'symbol', symbol, 'exchange', 'Binance', 'exchangeType', 'cex', 'source', 'binance',
    'selection', 'cex-major', 'price', price, 'volume24h', 1000, 'ts', ts)) || extra
$$;
create function pg_temp.t(offset_text text default '0 seconds') returns timestamptz language sql immutable as $$
  select timestamptz '2026-06-01 12:00:00+00' + offset_text::interval
$$;
-- History sample `ago` before T.
create function pg_temp.sample(sym text, ago text, price numeric) returns void language sql as $$
  insert into public.price_history (instrument_id, ts, price)
  select i.id, pg_temp.t() - ago::interval, price from public.instruments i where i.symbol = sym
$$;
create function pg_temp.mover(sym text) returns public.movers language sql stable as $$
  select * from public.movers m where m.symbol = sym
$$;

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
create function pg_temp.logout() returns void language plpgsql as $$
begin
  perform tests.clear_authentication();
end;
$$;
-- Run a statement as someone, roll it back, report 'ok' or 'error SQLSTATE'. Call as superuser.
create function pg_temp.try(who text, stmt text) returns text language plpgsql as $$
declare
  res text;
begin
  begin
    perform pg_temp.login(who);
    execute stmt;
    raise exception using errcode = 'TPROB', message = 'ok';
  exception
    when sqlstate 'TPROB' then res := sqlerrm;
    when others then res := 'error ' || sqlstate;
  end;
  return res;
end;
$$;
-- The market-scan jobs in pg_cron (0 when pg_cron is not installed).
create function pg_temp.scan_jobs() returns integer language plpgsql as $$
declare
  n integer := 0;
begin
  if to_regclass('cron.job') is not null then
    execute 'select count(*)::int from cron.job where jobname = ''market-scan''' into n;
  end if;
  return n;
end;
$$;
-- The pg_cron jobs whose command matches a pattern (0 when pg_cron is not installed).
create function pg_temp.cron_commands(pattern text) returns integer language plpgsql as $$
declare
  n integer := 0;
begin
  if to_regclass('cron.job') is not null then
    execute 'select count(*)::int from cron.job where command like $1' into n using pattern;
  end if;
  return n;
end;
$$;
create function pg_temp.has_ext(name text) returns boolean language sql stable as $$
  select exists (select 1 from pg_extension where extname = name)
$$;

-- Instruments known before the first scan, with constructed histories (relative to T).
insert into public.instruments (symbol, exchange, exchange_type, source) values
  ('WIN/USDT', 'Binance', 'cex', 'binance'),   -- one sample at every window's cut-off
  ('GAP/USDT', 'Binance', 'cex', 'binance'),   -- two samples with long gaps
  ('TWO/USDT', 'Binance', 'cex', 'binance'),   -- one sample 20 s old
  ('TOL/USDT', 'Binance', 'cex', 'binance'),   -- one sample 4 minutes old
  ('OLD/USDT', 'Binance', 'cex', 'binance');   -- samples around the retention limit
-- WIN: current price 100; a reference per window, plus decoys just after each cut-off.
select pg_temp.sample('WIN/USDT', '3 hours', 50);          -- 3 h   → +100 %
select pg_temp.sample('WIN/USDT', '179 minutes', 1);       -- decoy (after the 3 h cut-off)
select pg_temp.sample('WIN/USDT', '30 minutes', 80);       -- 30 min → +25 %
select pg_temp.sample('WIN/USDT', '29 minutes 59 seconds', 1);
select pg_temp.sample('WIN/USDT', '25 minutes', 125);      -- 25 min → -20 %
select pg_temp.sample('WIN/USDT', '20 minutes', 200);      -- 20 min → -50 %
select pg_temp.sample('WIN/USDT', '15 minutes', 40);       -- 15 min → +150 %
select pg_temp.sample('WIN/USDT', '10 minutes', 400);      -- 10 min → -75 %
select pg_temp.sample('WIN/USDT', '5 minutes', 250);       -- 5 min  → -60 %
select pg_temp.sample('WIN/USDT', '4 minutes 59 seconds', 1);
select pg_temp.sample('WIN/USDT', '10 seconds', 99);       -- 10 s   → +1.0101 %
select pg_temp.sample('WIN/USDT', '9 seconds', 1);
-- GAP: 40 at T - 3 h 10 min, 50 at T - 17 min; current 60.
select pg_temp.sample('GAP/USDT', '190 minutes', 40);
select pg_temp.sample('GAP/USDT', '17 minutes', 50);
-- TWO: 10 at T - 20 s; current 11.
select pg_temp.sample('TWO/USDT', '20 seconds', 10);
-- TOL: 8 at T - 4 min; current 10.
select pg_temp.sample('TOL/USDT', '4 minutes', 8);
-- OLD: two samples beyond 200 minutes, one just inside, and one on the limit.
select pg_temp.sample('OLD/USDT', '201 minutes', 5);
select pg_temp.sample('OLD/USDT', '200 minutes 1 second', 5);
select pg_temp.sample('OLD/USDT', '200 minutes', 5);
select pg_temp.sample('OLD/USDT', '199 minutes', 5);
create temp table ids_before as select symbol, id from public.instruments;

create temp table scan (n int primary key, result jsonb);
grant insert, select on scan to service_role;

select plan(86);

-- =============================================================================================
-- Catalog and rights
-- =============================================================================================
select function_returns('public', 'ingest_scan', array['jsonb', 'timestamp with time zone', 'uuid'], 'jsonb',
  'public.ingest_scan(jsonb, timestamptz, uuid) returns jsonb');
select ok((select p.prosecdef and p.proconfig @> array['search_path=""']
           from pg_proc p where p.oid = 'public.ingest_scan(jsonb, timestamptz, uuid)'::regprocedure),
  'ingest_scan is security definer with an empty search_path');
select ok(has_function_privilege('service_role', 'public.ingest_scan(jsonb, timestamptz, uuid)', 'execute'),
  'service_role executes ingest_scan');
select ok(not has_function_privilege('anon', 'public.ingest_scan(jsonb, timestamptz, uuid)', 'execute')
          and not has_function_privilege('authenticated', 'public.ingest_scan(jsonb, timestamptz, uuid)', 'execute'),
  'neither anon nor authenticated executes ingest_scan');
select ok(not exists (select 1 from pg_proc p, aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                      where p.oid = 'public.ingest_scan(jsonb, timestamptz, uuid)'::regprocedure and a.grantee = 0),
  'PUBLIC has no execute right on ingest_scan');
select is(pg_temp.try('anon', $$select public.ingest_scan('[]')$$), 'error 42501', 'anon is refused');
select is(pg_temp.try('enterprise', $$select public.ingest_scan('[]')$$), 'error 42501',
  'an authenticated subscriber is refused');

-- =============================================================================================
-- Scan 1 at T: six good quotes, a duplicate, and malformed ones
-- =============================================================================================
set local role service_role;
insert into scan values (1, public.ingest_scan(jsonb_build_array(
  pg_temp.quote('WIN/USDT', 100, '2026-06-01T12:00:00Z'),
  pg_temp.quote('GAP/USDT', 60, '2026-06-01T12:00:00.000Z'),
  pg_temp.quote('TWO/USDT', 11, '2026-06-01T14:00:00+02:00'),          -- T in another zone
  pg_temp.quote('TOL/USDT', 10, '2026-06-01 12:00:00+00'),
  pg_temp.quote('NEW/USDT', 3.5, null),                                  -- no ts: the scan's time
  pg_temp.quote('PEPE/WETH', 0.00001234, '2026-06-01T11:59:30Z', jsonb_build_object(
    'exchange', 'Uniswap V3 (ethereum)', 'exchangeType', 'dex', 'network', 'ethereum', 'source', 'dex',
    'selection', 'dex', 'poolUrl', 'https://www.geckoterminal.com/eth/pools/0xabc', 'volume24h', null)),
  pg_temp.quote('PEPE/WETH', 0.00001, '2026-06-01T11:59:00Z', jsonb_build_object(  -- older duplicate
    'exchange', 'Uniswap V3 (ethereum)', 'exchangeType', 'dex', 'network', 'ethereum', 'source', 'dex')),
  pg_temp.quote('ZERO/USDT', 0, '2026-06-01T12:00:00Z'),                 -- price 0
  pg_temp.quote('NEG/USDT', -1, '2026-06-01T12:00:00Z'),                 -- negative price
  pg_temp.quote('STR/USDT', 1, '2026-06-01T12:00:00Z', '{"price": "1.5"}'),  -- price as text
  pg_temp.quote('HTTP/USDT', 1, '2026-06-01T12:00:00Z', '{"poolUrl": "http://pool.test/1"}'),
  pg_temp.quote('JS/USDT', 1, '2026-06-01T12:00:00Z', '{"poolUrl": "javascript:alert(1)"}'),
  pg_temp.quote('NOSYM', 1, '2026-06-01T12:00:00Z') - 'symbol',           -- no symbol
  pg_temp.quote('', 1, '2026-06-01T12:00:00Z'),                           -- empty symbol
  pg_temp.quote('TYPE/USDT', 1, '2026-06-01T12:00:00Z', '{"exchangeType": "swap"}'),
  pg_temp.quote('VOL/USDT', 1, '2026-06-01T12:00:00Z', '{"volume24h": -5}'),
  pg_temp.quote('TS1/USDT', 1, 'yesterday'),                              -- not ISO 8601
  pg_temp.quote('TS2/USDT', 1, '2026-02-30T12:00:00Z'),                   -- no such day
  pg_temp.quote('TS3/USDT', 1, '2026-06-01T12:05:00Z'),                   -- 5 min in the future
  pg_temp.quote('TS4/USDT', 1, '2026-06-01T08:00:00Z'),                   -- older than the retention
  '42'::jsonb,                                                            -- not an object
  'null'::jsonb
), pg_temp.t()));
reset role;

select is((select result from scan where n = 1),
  '{"instruments": 6, "movers": 6, "stale": 0, "pruned": 2, "broadcasts": 7, "skipped": 16}'::jsonb,
  'scan 1 reports 6 instruments and movers, 2 pruned samples, 7 broadcasts and 16 skipped quotes');
select is((select count(*)::int from public.movers), 6, 'six movers exist');
select set_eq($$select symbol from public.instruments$$,
  array['WIN/USDT', 'GAP/USDT', 'TWO/USDT', 'TOL/USDT', 'OLD/USDT', 'NEW/USDT', 'PEPE/WETH'],
  'no malformed quote created an instrument');
select is_empty($$select 1 from public.instruments i join ids_before b using (symbol) where i.id <> b.id$$,
  'known instruments keep their ids');

-- WIN: one exact reference per window.
select is(
  (select array[m.pct_10sec, m.pct_5min, m.pct_10min, m.pct_15min, m.pct_20min, m.pct_25min, m.pct_30min, m.pct_3hour]
   from pg_temp.mover('WIN/USDT') m),
  array[1.0101, -60, -75, 150, -50, -20, 25, 100]::numeric[],
  'each window compares with the latest sample at or before its cut-off (10 s, 5, 10, 15, 20, 25, 30 min, 3 h)');
select is((pg_temp.mover('WIN/USDT')).price_3hour_ago, 50::numeric, 'price_3hour_ago is the 3-hour reference');
select is((pg_temp.mover('WIN/USDT')).pct, 25::numeric, 'pct is the 30-minute percent');
select is((pg_temp.mover('WIN/USDT')).price, 100::numeric, 'price is the quote''s price');
select is(scale((pg_temp.mover('WIN/USDT')).pct_10sec), 4, 'percents are rounded to 4 decimals');
select is((pg_temp.mover('WIN/USDT')).ts, pg_temp.t(), 'the mover''s ts is the scan''s time');
select is((pg_temp.mover('WIN/USDT')).volume_24h, 1000::numeric, 'volume_24h is the quote''s');
select is(
  (select array[h.price, h.volume_24h] from public.price_history h join public.instruments i on i.id = h.instrument_id
   where i.symbol = 'WIN/USDT' and h.ts = pg_temp.t()),
  array[100, 1000]::numeric[], 'the quote was appended to the history at its ts');

-- GAP: a reference at most 1.5 windows old (decision 0033), else the young-instrument tolerance;
-- a gap longer than that leaves the window null instead of a percent from a stale sample.
select is(
  (select array[m.pct_10sec, m.pct_5min, m.pct_10min, m.pct_15min, m.pct_20min, m.pct_25min, m.pct_30min, m.pct_3hour]
   from pg_temp.mover('GAP/USDT') m),
  array[null, null, null, 20, 20, 20, 20, 50]::numeric[],
  'across gaps a window uses a sample at most 1.5 windows old, else it is null');
select is((pg_temp.mover('GAP/USDT')).price_3hour_ago, 40::numeric, 'a gap before 3 h uses the older sample');

-- TWO: two samples 20 s apart are not two samples within 15 s: the 10-second window is null.
select is((pg_temp.mover('TWO/USDT')).pct_10sec, null::numeric, 'two samples 20 s apart: the 10-second window is null');
select ok((select m.pct_5min is null and m.pct_10min is null and m.pct_30min is null and m.pct_3hour is null
                  and m.price_3hour_ago is null from pg_temp.mover('TWO/USDT') m),
  'and the 5-minute and longer windows are null (20 s is not half of 5 min)');
select is((pg_temp.mover('TWO/USDT')).pct, 0::numeric, 'pct is 0 when no window has a percent');
select ok(exists (select 1 from public.price_history h join public.instruments i on i.id = h.instrument_id
                  where i.symbol = 'TWO/USDT' and h.ts = pg_temp.t()),
  'a ts with another offset is the same instant');

-- TOL: a sample 4 min old stands in for 5 min (at least half the window), not for 10 min.
select is((pg_temp.mover('TOL/USDT')).pct_5min, 25::numeric,
  'without a sample 5 min old, the oldest sample at least 2.5 min old is the reference');
select is((pg_temp.mover('TOL/USDT')).pct_10min, null::numeric, 'a 4-minute-old sample is too young for 10 min');
select is((pg_temp.mover('TOL/USDT')).pct_10sec, null::numeric, 'the 10-second window does not use a 4-minute-old sample');
select is((pg_temp.mover('TOL/USDT')).pct, 25::numeric, 'pct falls back to the 5-minute percent');

-- NEW: a brand-new instrument has no percent yet.
select ok((select m.pct_10sec is null and m.pct_5min is null and m.pct_10min is null and m.pct_15min is null
                  and m.pct_20min is null and m.pct_25min is null and m.pct_30min is null and m.pct_3hour is null
                  and m.price_3hour_ago is null from pg_temp.mover('NEW/USDT') m),
  'a brand-new instrument (one sample) has null percents');
select is((pg_temp.mover('NEW/USDT')).pct, 0::numeric, 'and its pct is 0');
select is(
  (select h.ts from public.price_history h join public.instruments i on i.id = h.instrument_id where i.symbol = 'NEW/USDT'),
  pg_temp.t(), 'a quote without ts is stored at the scan''s time');

-- PEPE: a DEX instrument; the latest of two quotes wins.
select is(
  (select row(i.exchange_type, i.network, i.source, i.pool_url)::text from public.instruments i where i.symbol = 'PEPE/WETH'),
  '(dex,ethereum,dex,https://www.geckoterminal.com/eth/pools/0xabc)',
  'a new DEX instrument stores type, network, source and pool link');
select is(
  (select row(m.exchange, m.exchange_type, m.network, m.source, m.pool_url, m.price, m.volume_24h)::text
   from pg_temp.mover('PEPE/WETH') m),
  '("Uniswap V3 (ethereum)",dex,ethereum,dex,https://www.geckoterminal.com/eth/pools/0xabc,0.00001234,)',
  'its mover carries the instrument''s attributes and the latest quote''s price (no volume)');
select is(
  (select count(*)::int from public.price_history h join public.instruments i on i.id = h.instrument_id
   where i.symbol = 'PEPE/WETH'),
  1, 'of two quotes for one instrument only the latest is ingested');

-- Pruning: only samples older than 200 minutes before the scan.
select is(
  (select array_agg(extract(epoch from pg_temp.t() - h.ts)::int / 60 order by h.ts)
   from public.price_history h join public.instruments i on i.id = h.instrument_id where i.symbol = 'OLD/USDT'),
  array[200, 199], 'pruning removed the samples older than 200 minutes and kept the one on the limit');
select is((select min(ts) from public.price_history), pg_temp.t('-200 minutes'), 'no older sample is left anywhere');

-- The broadcast: one message per window, entries shaped and ranked like movers_feed.
select is((select count(*)::int from realtime.messages where event = 'movers'), 7, 'scan 1 sent seven movers messages');
select is((select count(*)::int from realtime.messages where topic = 'market:teaser'), 1, 'and one teaser message');
select is(
  (select array_agg(topic order by (payload ->> 'window')::int) from realtime.messages where event = 'movers'),
  array['market:movers:0', 'market:movers:5', 'market:movers:10', 'market:movers:15', 'market:movers:20',
        'market:movers:25', 'market:movers:30'],
  'one on each market:movers:<window> topic');
select is((select count(*)::int from realtime.messages
            where event = 'movers' and jsonb_array_length(payload -> 'entries') = 6), 7,
  'each carries the six movers of the scan');
select is(
  (select array_agg((e ->> 'pct')::numeric order by (m.payload ->> 'window')::int)
   from realtime.messages m, jsonb_array_elements(m.payload -> 'entries') e
   where m.event = 'movers' and e ->> 'symbol' = 'WIN/USDT'),
  array[1.0101, -60, -75, 150, -50, -20, 25]::numeric[],
  'each window''s message carries WIN''s percent of that window');
select is(
  (select e ->> 'symbol' from realtime.messages m, jsonb_array_elements(m.payload -> 'entries') e
   where m.topic = 'market:movers:15' limit 1),
  'WIN/USDT', 'the strongest mover of the window comes first');

-- movers_feed reads the new percents per window.
select pg_temp.login('enterprise');
select is(
  (select array_agg(f.pct order by f.window_used)
   from unnest(array[0, 5, 10, 15, 20, 25, 30]) w, public.movers_feed(w) f where f.symbol = 'WIN/USDT'),
  array[1.0101, -60, -75, 150, -50, -20, 25]::numeric[],
  'movers_feed(window) returns WIN''s percent of each window');
select is((select f.pct from public.movers_feed(15) f where f.symbol = 'TOL/USDT'), 25::numeric,
  'movers_feed falls back to pct where the window has no percent');
select is((select f.price_3hour_ago from public.movers_feed(30) f where f.symbol = 'GAP/USDT'), 40::numeric,
  'movers_feed carries price_3hour_ago');
select is((select count(*)::int from public.movers_feed(30)), 6, 'movers_feed lists the six movers');
select pg_temp.logout();
select pg_temp.login('basic');
select is((select f.pct from public.movers_feed(null) f where f.symbol = 'WIN/USDT'), 25::numeric,
  'a basic subscriber reads the 30-minute percent');
select pg_temp.logout();
select is((select count(*)::int from public.movers_teaser t join public.movers m using (id)
            where t.ts = pg_temp.t() and t.pct = coalesce(m.pct_30min, m.pct)), 3,
  'the landing teaser shows three of the scan''s movers with their 30-minute percent');

-- =============================================================================================
-- Scan 2 at T + 10 s: an existing instrument is updated in place
-- =============================================================================================
delete from realtime.messages;
create temp table before2 as
  select i.id as instrument_id, m.id as mover_id from public.instruments i join public.movers m on m.instrument_id = i.id
  where i.symbol = 'PEPE/WETH';
set local role service_role;
insert into scan values (2, public.ingest_scan(jsonb_build_array(
  pg_temp.quote('PEPE/WETH', 0.000013574, '2026-06-01T12:00:10Z', jsonb_build_object(
    'exchange', 'Uniswap V3 (ethereum)', 'exchangeType', 'dex', 'network', null, 'source', 'dex',
    'selection', 'dex', 'poolUrl', null))
), pg_temp.t('10 seconds')));
reset role;
select is((select result from scan where n = 2),
  '{"instruments": 1, "movers": 1, "stale": 0, "pruned": 1, "broadcasts": 7, "skipped": 0}'::jsonb,
  'scan 2 reports one instrument and mover, 7 broadcasts, and prunes the sample that aged past 200 minutes');
select is((select id from public.instruments where symbol = 'PEPE/WETH'), (select instrument_id from before2),
  'an upserted instrument keeps its id');
select is((pg_temp.mover('PEPE/WETH')).id, (select mover_id from before2), 'and its mover keeps its id');
select is((select count(*)::int from public.instruments where symbol = 'PEPE/WETH'), 1, 'no duplicate instrument');
select is((select pool_url from public.instruments where symbol = 'PEPE/WETH'),
  'https://www.geckoterminal.com/eth/pools/0xabc', 'a quote without pool link keeps the known link');
select is((select network from public.instruments where symbol = 'PEPE/WETH'), 'ethereum',
  'a quote without network keeps the known network');
select is((pg_temp.mover('PEPE/WETH')).pct_10sec, null::numeric,
  'the 10-second window is null when the previous sample is 40 s old (no two samples within 15 s)');
select is((pg_temp.mover('PEPE/WETH')).price, 0.000013574, 'the mover has the new price');
select is((pg_temp.mover('PEPE/WETH')).ts, pg_temp.t('10 seconds'), 'and the new scan''s time');
select is((pg_temp.mover('WIN/USDT')).ts, pg_temp.t(), 'movers not in the scan are left as they were');
select is(
  (select array_agg(distinct jsonb_array_length(payload -> 'entries')) from realtime.messages where event = 'movers'),
  array[6], 'scan 2 broadcasts every window''s current list: its mover and the five of scan 1');
select is(
  (select array_agg(distinct (e ->> 'price')::numeric) from realtime.messages m,
     jsonb_array_elements(m.payload -> 'entries') e where m.event = 'movers' and e ->> 'symbol' = 'PEPE/WETH'),
  array[0.000013574], 'with the updated mover''s new price');

-- Same instant twice: the stored sample is kept.
set local role service_role;
select is(public.ingest_scan(jsonb_build_array(pg_temp.quote('WIN/USDT', 500, '2026-06-01T12:00:00Z')), pg_temp.t())
            -> 'instruments', '1'::jsonb, 'a repeated quote is ingested');
reset role;
select is(
  (select h.price from public.price_history h join public.instruments i on i.id = h.instrument_id
   where i.symbol = 'WIN/USDT' and h.ts = pg_temp.t()),
  100::numeric, 'but a sample already stored for that instant is kept');
select is((pg_temp.mover('WIN/USDT')).price, 500::numeric, 'while the mover shows the latest price');

-- =============================================================================================
-- Edge cases
-- =============================================================================================
delete from realtime.messages;
set local role service_role;
select is(public.ingest_scan('[]', pg_temp.t('20 seconds')),
  '{"instruments": 0, "movers": 0, "stale": 0, "pruned": 0, "broadcasts": 0, "skipped": 0}'::jsonb,
  'an empty scan changes nothing and broadcasts nothing');
select is(public.ingest_scan('[1, "x", {}]', pg_temp.t('20 seconds')) -> 'skipped', '3'::jsonb,
  'a scan of only malformed quotes skips them all');
select throws_ok($$select public.ingest_scan('{"symbol": "A/B"}')$$, '22023',
  'quotes must be a JSON array of quotes', 'a non-array is refused');
select throws_ok($$select public.ingest_scan(null)$$, '22023', null, 'null is refused');
reset role;
-- Stale movers: a scan at T + 16 min quotes only WIN; the movers nobody quoted for 15 minutes go.
create temp table stale_before as select m.symbol from public.movers m where m.ts < pg_temp.t('1 minute');
set local role service_role;
insert into scan values (3, public.ingest_scan(jsonb_build_array(
  pg_temp.quote('WIN/USDT', 120, '2026-06-01T12:16:00Z')), pg_temp.t('16 minutes')));
reset role;
select is((select (result ->> 'stale')::int from scan where n = 3), (select count(*)::int - 1 from stale_before),
  'a scan removes the movers not quoted for 15 minutes and counts them (WIN, quoted again, stays)');
select is(
  (select array_agg(m.symbol order by m.symbol) from public.movers m where m.ts < now() - interval '1 day'),
  array['WIN/USDT'], 'of the movers of June only the one quoted at T + 16 min is left');
select is((select count(*)::int from public.instruments i join stale_before b using (symbol)),
  (select count(*)::int from stale_before), 'their instruments are kept');
select pg_temp.login('enterprise');
select is((select array_agg(f.symbol order by f.symbol) from public.movers_feed(30) f where f.ts < now() - interval '1 day'),
  array['WIN/USDT'], 'movers_feed no longer lists them');
select pg_temp.logout();
delete from realtime.messages;
set local role service_role;
select is(public.ingest_scan(jsonb_build_array(pg_temp.quote('LIVE/USDT', 2, null))) -> 'movers', '1'::jsonb,
  'scanned_at defaults to now()');
reset role;
select is((pg_temp.mover('LIVE/USDT')).ts, now(), 'the default scan time is now()');
select is((select count(*)::int from realtime.messages where event = 'movers'), 7,
  'the scan at now() broadcast once per window');
select ok(
  (select bool_and(i.symbol ~ '^[A-Z]+/[A-Z]+$') from public.instruments i),
  'every stored symbol came from a valid quote');


-- =============================================================================================
-- Schedule (guarded migration 20261121001000)
-- =============================================================================================
select has_function('private', 'schedule_scan', array['integer'], 'private.schedule_scan(integer) exists');
select has_function('private', 'invoke_scan', array[]::text[], 'private.invoke_scan() exists');
select ok(not has_function_privilege('anon', 'private.schedule_scan(integer)', 'execute')
          and not has_function_privilege('authenticated', 'private.schedule_scan(integer)', 'execute')
          and not has_function_privilege('anon', 'private.invoke_scan()', 'execute')
          and not has_function_privilege('authenticated', 'private.invoke_scan()', 'execute'),
  'neither anon nor authenticated executes the schedule functions');
select ok(has_function_privilege('service_role', 'private.schedule_scan(integer)', 'execute'),
  'service_role may (re)schedule the scan');
select ok((select bool_and(p.prosecdef and p.proconfig @> array['search_path=""']) from pg_proc p
           where p.oid in ('private.schedule_scan(integer)'::regprocedure, 'private.invoke_scan()'::regprocedure)),
  'both are security definer with an empty search_path');
select case when pg_temp.has_ext('pg_cron') and pg_temp.has_ext('pg_net')
  then is(pg_temp.scan_jobs(), 1, 'with pg_cron and pg_net the migration scheduled market-scan')
  else is(pg_temp.scan_jobs(), 0, 'without pg_cron and pg_net the migration scheduled nothing')
end;
select case when pg_temp.has_ext('pg_cron') and pg_temp.has_ext('pg_net')
  then lives_ok('select private.schedule_scan(10)', 'schedule_scan reschedules')
  else throws_ok('select private.schedule_scan(10)', '55000',
                 'Scheduling the scan needs the pg_cron and pg_net extensions',
                 'schedule_scan raises a clear error without pg_cron and pg_net')
end;
select case when pg_temp.has_ext('pg_cron') and pg_temp.has_ext('pg_net')
  then throws_ok('select private.schedule_scan(61)', '22023', null, 'an impossible interval is refused')
  when pg_temp.has_ext('pg_cron')
  then is(pg_temp.cron_commands('%invoke_scan%'), 0, 'pg_cron without pg_net: no job in cron.job calls the scan')
  else skip('pg_cron is not loaded into this database', 1)
end;
select is(private.invoke_scan(), null::bigint, 'without scan_url and scan_secret invoking the scan does nothing');
-- The job reads its URL and bearer from Vault (migration 20261125700000).
do $$
begin
  perform vault.create_secret('https://example.test/functions/v1/scan', 'scan_url');
  perform vault.create_secret('not-a-real-secret', 'scan_secret');
end;
$$;
select case when pg_temp.has_ext('pg_net')
  then isnt(private.invoke_scan(), null::bigint, 'with the settings and pg_net a request is queued')
  else is(private.invoke_scan(), null::bigint, 'with the settings but without pg_net nothing is sent, nothing fails')
end;

select * from finish();
rollback;
