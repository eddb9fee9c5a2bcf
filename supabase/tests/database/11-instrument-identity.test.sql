-- Instrument identity (migration 20261123300000, decision 0017): an instrument is a venue key,
-- `<network>:<pool address>` for a DEX pool and `<exchange>:<symbol>` for a CEX market. Two pools
-- of one pair on one DEX, and same-symbol copycats, never share an instrument or a history, however
-- the venue orders them from scan to scan.
--
-- Scans run at T − 20 min, T − 10 min and T, T = 2026-06-01 12:00:00+00.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

truncate public.instruments cascade;
delete from realtime.messages;

create temp table result (name text primary key, value jsonb);
grant insert, select on result to service_role;

-- A GeckoTerminal pool quote as the DEX adapter sends it.
create function pg_temp.pool(network text, net_id text, address text, symbol text, exchange text, price numeric)
returns jsonb language sql immutable as $$
  select jsonb_build_object(
    'venueKey', network || ':' || case when address ~* '^0x' then lower(address) else address end,
    'symbol', symbol, 'exchange', exchange, 'exchangeType', 'dex', 'network', network, 'source', 'dex',
    'selection', 'dex', 'poolUrl', 'https://www.geckoterminal.com/' || net_id || '/pools/' || address,
    'price', price, 'volume24h', 1000000)
$$;

-- "WETH / USDC 0.05%" and "WETH / USDC 0.3%" on Uniswap V3 (Ethereum), and two "TRUMP / SOL" on Raydium.
create function pg_temp.weth_005(price numeric) returns jsonb language sql immutable as $$
  select pg_temp.pool('ethereum', 'eth', '0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640', 'WETH/USDC', 'Uniswap V3 (Ethereum)', price)
$$;
create function pg_temp.weth_03(price numeric) returns jsonb language sql immutable as $$
  select pg_temp.pool('ethereum', 'eth', '0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8', 'WETH/USDC', 'Uniswap V3 (Ethereum)', price)
$$;
create function pg_temp.trump_a(price numeric) returns jsonb language sql immutable as $$
  select pg_temp.pool('solana', 'solana', 'HKuJrP5tYQLbEUdjKwjgnHs2957QKjR2iWhJKTtMa1xs', 'TRUMP/SOL', 'Raydium (Solana)', price)
$$;
create function pg_temp.trump_b(price numeric) returns jsonb language sql immutable as $$
  select pg_temp.pool('solana', 'solana', '3FmTmvLqKtAsEGSGnqCkQj2b1Hn8r7bh4WQMLkx3dcqT', 'TRUMP/SOL', 'Raydium (Solana)', price)
$$;

select plan(25);

-- Three scans; the trending order flips every scan (what made the history alternate before).
set local role service_role;
insert into result values ('scan1', public.ingest_scan(
  jsonb_build_array(pg_temp.weth_005(3400), pg_temp.weth_03(3410), pg_temp.trump_a(0.0000123), pg_temp.trump_b(0.00412)),
  '2026-06-01 11:40:00+00'));
insert into result values ('scan2', public.ingest_scan(
  jsonb_build_array(pg_temp.trump_b(0.00413), pg_temp.trump_a(0.0000124), pg_temp.weth_03(3411), pg_temp.weth_005(3401)),
  '2026-06-01 11:50:00+00'));
insert into result values ('scan3', public.ingest_scan(
  jsonb_build_array(pg_temp.weth_005(3402), pg_temp.weth_03(3412), pg_temp.trump_a(0.0000125), pg_temp.trump_b(0.00414)),
  '2026-06-01 12:00:00+00'));
reset role;

select is((select value -> 'instruments' from result where name = 'scan1'), '4'::jsonb,
  'two pools of one pair and two copycats: four instruments accepted');
select is((select value -> 'skipped' from result where name = 'scan1'), '0'::jsonb,
  'none of them is taken for a duplicate');
select results_eq(
  $$select venue_key, symbol, exchange from public.instruments order by venue_key$$,
  $$values ('ethereum:0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640', 'WETH/USDC', 'Uniswap V3 (Ethereum)'),
           ('ethereum:0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8', 'WETH/USDC', 'Uniswap V3 (Ethereum)'),
           ('solana:3FmTmvLqKtAsEGSGnqCkQj2b1Hn8r7bh4WQMLkx3dcqT', 'TRUMP/SOL', 'Raydium (Solana)'),
           ('solana:HKuJrP5tYQLbEUdjKwjgnHs2957QKjR2iWhJKTtMa1xs', 'TRUMP/SOL', 'Raydium (Solana)')$$,
  'each pool is its own instrument under its network and pool address');
select results_eq(
  $$select h.price from public.price_history h join public.instruments i on i.id = h.instrument_id
    where i.venue_key = 'ethereum:0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640' order by h.ts$$,
  $$values (3400::numeric), (3401), (3402)$$,
  'the 0.05 % pool''s history holds its own prices only, whatever the order of the scans');
select results_eq(
  $$select h.price from public.price_history h join public.instruments i on i.id = h.instrument_id
    where i.venue_key = 'ethereum:0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8' order by h.ts$$,
  $$values (3410::numeric), (3411), (3412)$$,
  'the 0.3 % pool''s history holds its own prices only');
select results_eq(
  $$select h.price from public.price_history h join public.instruments i on i.id = h.instrument_id
    where i.venue_key = 'solana:HKuJrP5tYQLbEUdjKwjgnHs2957QKjR2iWhJKTtMa1xs' order by h.ts$$,
  $$values (0.0000123::numeric), (0.0000124), (0.0000125)$$,
  'a copycat''s history is its own, orders of magnitude apart from the other');
select is(
  (select count(*)::int from (select h.instrument_id from public.price_history h group by h.instrument_id
                              having max(h.price) / min(h.price) > 1.1) x),
  0, 'no history jumps between two pools'' prices');
select results_eq(
  $$select m.symbol, m.pool_url, m.pct_10min from public.movers m order by m.pool_url$$,
  $$values ('WETH/USDC', 'https://www.geckoterminal.com/eth/pools/0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640', round(100 * 1 / 3401.0, 4)),
           ('WETH/USDC', 'https://www.geckoterminal.com/eth/pools/0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8', round(100 * 1 / 3411.0, 4)),
           ('TRUMP/SOL', 'https://www.geckoterminal.com/solana/pools/3FmTmvLqKtAsEGSGnqCkQj2b1Hn8r7bh4WQMLkx3dcqT', round(100 * 0.00001 / 0.00413, 4)),
           ('TRUMP/SOL', 'https://www.geckoterminal.com/solana/pools/HKuJrP5tYQLbEUdjKwjgnHs2957QKjR2iWhJKTtMa1xs', round(100 * 0.0000001 / 0.0000124, 4))$$,
  'two movers per pair, each linking to its own pool, with its own (small) 10-minute change');

-- The same pool quoted twice in one scan: one kept.
set local role service_role;
insert into result values ('twice', public.ingest_scan(
  jsonb_build_array(pg_temp.weth_005(3403), pg_temp.weth_005(3404)), '2026-06-01 12:00:10+00'));
reset role;
select is((select value from result where name = 'twice') - 'pruned' - 'broadcasts' - 'movers' - 'stale',
  '{"instruments": 1, "skipped": 1}'::jsonb, 'one quote per venue key and scan; the other is skipped');

-- A renamed pool (the venue changed the DEX's or the pair's name) keeps its instrument and history.
set local role service_role;
insert into result values ('renamed', public.ingest_scan(
  jsonb_build_array(jsonb_set(jsonb_set(pg_temp.weth_03(3413), '{symbol}', '"WETH/USDC.e"'),
                              '{exchange}', '"Uniswap v3 (Ethereum)"')),
  '2026-06-01 12:00:20+00'));
reset role;
select results_eq(
  $$select i.symbol, i.exchange, (select count(*)::int from public.price_history h where h.instrument_id = i.id)
    from public.instruments i where i.venue_key = 'ethereum:0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8'$$,
  $$values ('WETH/USDC.e', 'Uniswap v3 (Ethereum)', 4)$$,
  'a renamed pool keeps its instrument and history; its names follow the venue');
select is((select count(*)::int from public.instruments), 4, 'a rename adds no instrument');

-- Quotes without a venueKey (older callers) are identified by the same rule.
set local role service_role;
insert into result values ('keyless', public.ingest_scan(
  jsonb_build_array(
    pg_temp.weth_005(3405) - 'venueKey',
    -- the pool link with an upper-case address: still that pool
    jsonb_set(pg_temp.weth_03(3414) - 'venueKey', '{poolUrl}',
              '"https://www.geckoterminal.com/eth/pools/0x8AD599C3A0FF1DE082011EFDDC58F1908EB6E6D8"'),
    jsonb_build_object('symbol', 'KEY/USDT', 'exchange', 'Binance', 'exchangeType', 'cex', 'price', 2),
    jsonb_build_object('symbol', 'NOLINK/WETH', 'exchange', 'Uniswap V2 (Ethereum)', 'exchangeType', 'dex',
                       'network', 'ethereum', 'price', 2)),
  '2026-06-01 12:00:30+00'));
reset role;
select is((select value -> 'instruments' from result where name = 'keyless'), '4'::jsonb,
  'quotes without a venue key are accepted');
select is((select count(*)::int from public.instruments), 6,
  'a keyless quote of a known pool (by its link''s address, case aside) reaches that pool');
select results_eq(
  $$select venue_key from public.instruments where symbol in ('KEY/USDT', 'NOLINK/WETH') order by symbol$$,
  $$values ('Binance:KEY/USDT'), ('Uniswap V2 (Ethereum):NOLINK/WETH')$$,
  'a CEX market, or a pool without a link, is keyed by exchange and symbol');

-- Venue keys that break the rules are skipped.
set local role service_role;
insert into result values ('badkeys', public.ingest_scan(
  jsonb_build_array(
    jsonb_set(pg_temp.weth_005(1), '{venueKey}', '42'),
    jsonb_set(pg_temp.weth_005(1), '{venueKey}', '""'),
    jsonb_set(pg_temp.weth_005(1), '{venueKey}', to_jsonb(repeat('k', 201)))),
  '2026-06-01 12:00:40+00'));
reset role;
select is((select value -> 'skipped' from result where name = 'badkeys'), '3'::jsonb,
  'a venue key that is not a string of 1 to 200 characters is skipped');

-- The backfill identifies instruments the same way.
set local role service_role;
insert into result values ('backfill', public.ingest_backfill(jsonb_build_object(
  'instruments', jsonb_build_array(
    pg_temp.pool('base', 'base', '0xd0b53d9277642d899df5c87a3966a349a798f224', 'WETH/USDC', 'Uniswap V3 (Base)', 1) - 'price' - 'volume24h',
    pg_temp.pool('base', 'base', '0x6c561b446416e1a00e8e93e221854d6ea4171372', 'WETH/USDC', 'Uniswap V3 (Base)', 1) - 'price' - 'volume24h',
    -- a known pool: its history is filled, no instrument is added
    pg_temp.weth_005(1) - 'price' - 'volume24h'),
  'stamps', jsonb_build_array('2026-06-01T11:00:00Z', '2026-06-01T11:01:00Z'),
  'prices', jsonb_build_array(jsonb_build_array(3390, 3391), jsonb_build_array(3395, 3396), jsonb_build_array(3380, 3381))),
  '2026-06-01 12:00:00+00'));
reset role;
select is((select value from result where name = 'backfill'),
  '{"instruments": 2, "samples": 6, "skippedInstruments": 0}'::jsonb,
  'two pools of one pair on one DEX are two instruments in the backfill too');
select results_eq(
  $$select i.venue_key, array_agg(h.price order by h.ts) from public.instruments i
    join public.price_history h on h.instrument_id = i.id
    where i.network = 'base' group by i.venue_key order by i.venue_key$$,
  $$values ('base:0x6c561b446416e1a00e8e93e221854d6ea4171372', array[3395, 3396]::numeric[]),
           ('base:0xd0b53d9277642d899df5c87a3966a349a798f224', array[3390, 3391]::numeric[])$$,
  'each backfilled pool has its own history');
select results_eq(
  $$select h.price from public.price_history h join public.instruments i on i.id = h.instrument_id
    where i.venue_key = 'ethereum:0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640' and h.ts < '2026-06-01 11:30:00+00'
    order by h.ts$$,
  $$values (3380::numeric), (3381)$$,
  'a backfilled pool the scans know is filled under its instrument');

-- The column's rules.
select col_not_null('public', 'instruments', 'venue_key', 'every instrument has a venue key');
select col_is_unique('public', 'instruments', array['venue_key'], 'venue keys are unique');
select is(
  (select count(*)::int from pg_constraint c where c.conrelid = 'public.instruments'::regclass and c.contype = 'u'
     and c.conkey = array[(select attnum from pg_attribute where attrelid = 'public.instruments'::regclass and attname = 'symbol'),
                          (select attnum from pg_attribute where attrelid = 'public.instruments'::regclass and attname = 'exchange')]::int2[]),
  0, 'symbol and exchange are no longer unique (two pools share them)');
insert into public.instruments (symbol, exchange, exchange_type, network, pool_url) values
  ('SEED/WETH', 'Uniswap V3 (Ethereum)', 'dex', 'ethereum',
   'https://www.geckoterminal.com/eth/pools/0xABCDEF0123456789ABCDEF0123456789ABCDEF01');
select is((select venue_key from public.instruments where symbol = 'SEED/WETH'),
  'ethereum:0xabcdef0123456789abcdef0123456789abcdef01', 'an insert without a key gets the rule''s key');
select throws_ok(
  $$insert into public.instruments (symbol, exchange, exchange_type, network, pool_url) values
    ('OTHER/NAME', 'Elsewhere', 'dex', 'ethereum',
     'https://www.geckoterminal.com/eth/pools/0xabcdef0123456789abcdef0123456789abcdef01')$$,
  '23505', null, 'a second instrument for one pool is refused');
select throws_ok(
  $$insert into public.instruments (venue_key, symbol, exchange) values ('', 'E/USD', 'Empty')$$,
  '23514', null, 'an empty venue key is refused');
select is(has_function_privilege('authenticated',
  'private.instrument_venue_key(public.exchange_type, text, text, text, text)', 'execute'), false,
  'users cannot call the key rule directly');

select * from finish();
rollback;
