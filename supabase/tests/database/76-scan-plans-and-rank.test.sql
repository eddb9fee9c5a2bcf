-- The scan's statements are planned for the batch they carry (issue 26, decision 0076, migration
-- 20261129020000): ingest_scan runs with plan_cache_mode = force_custom_plan, so a session's
-- sixth and later scans are not planned generically (unnest of the batch's arrays estimated at
-- 10 rows); and the setting is the call's only (the caller's session keeps its own). And the kept
-- lists' rank factor (migration 20261129021000): read from exact constants, it ranks as
-- |pct| × power(0.5, flags + thin) does, ties and all.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(5);

select ok(
  (select 'plan_cache_mode=force_custom_plan' = any (p.proconfig) from pg_proc p
   where p.oid = 'public.ingest_scan(jsonb, timestamptz, uuid)'::regprocedure),
  'ingest_scan plans every statement for the batch it carries (force_custom_plan)'
);

-- Seven scans in one session (past the five after which a cached plan may turn generic) give
-- the same movers as the first one would: each scan quotes the same pair at a new price.
truncate public.instruments cascade;
do $$
begin
  for s in 0..6 loop
    perform public.ingest_scan(jsonb_build_array(jsonb_build_object(
              'venueKey', 'PlanTest:PLN/USDT', 'symbol', 'PLN/USDT', 'exchange', 'PlanTest', 'exchangeType', 'cex',
              'source', 'binance', 'price', 1 + s / 100.0, 'volume24h', 1000000, 'volume24hUsd', 1000000,
              'ts', timestamptz '2026-06-01 12:00:00+00' + make_interval(secs => 10 * s))),
            timestamptz '2026-06-01 12:00:00+00' + make_interval(secs => 10 * s));
  end loop;
end $$;

select results_eq(
  $$ select price, pct_10sec from public.movers where symbol = 'PLN/USDT' $$,
  $$ values (1.06::numeric, round(100 * (1.06 - 1.05) / 1.05, 4)) $$,
  'the seventh scan of a session stores its price and its 10-second move'
);

select is(current_setting('plan_cache_mode'), 'auto', 'the caller''s session keeps its own plan_cache_mode');

-- Movers with 0 to 6 flags and thin marks, their ranks equal in pairs (64 × 0.5^6 = 1 × 0.5^0,
-- 2 × 0.5^1 = 1.0000 × …): the kept ranking and the entries follow |pct| × power(0.5, n), then ts,
-- then id, as decision 0046 ranks them.
truncate public.instruments cascade;
insert into public.instruments (id, venue_key, symbol, exchange, exchange_type, source) overriding system value
select 7600 + g, 'RankTest:R' || g, 'R' || g || '/USDT', 'RankTest', 'cex', 'binance' from generate_series(1, 9) g;
insert into public.movers (instrument_id, symbol, exchange, exchange_type, price, pct, pct_30min, ts, thin, flags)
values
  (7601, 'R1/USDT', 'RankTest', 'cex', 1, 1, 1, timestamptz '2026-06-01 12:00:00+00', false, '{}'),
  (7602, 'R2/USDT', 'RankTest', 'cex', 1, 2, -2, timestamptz '2026-06-01 12:00:00+00', true, '{}'),
  (7603, 'R3/USDT', 'RankTest', 'cex', 1, 4, 4, timestamptz '2026-06-01 12:00:01+00', true, '{young_pool}'),
  (7604, 'R4/USDT', 'RankTest', 'cex', 1, 8, 8, timestamptz '2026-06-01 12:00:00+00', false, '{young_pool,pulled_pool,wash_volume}'),
  (7605, 'R5/USDT', 'RankTest', 'cex', 1, 16, -16.0001, timestamptz '2026-06-01 12:00:00+00', true, '{young_pool,pulled_pool,wash_volume}'),
  (7606, 'R6/USDT', 'RankTest', 'cex', 1, 32, 32, timestamptz '2026-06-01 12:00:00+00', false, '{no_volume_rise,young_pool,pulled_pool,dex_cex_gap,wash_volume}'),
  (7607, 'R7/USDT', 'RankTest', 'cex', 1, 64, 64, timestamptz '2026-06-01 12:00:00+00', true, '{no_volume_rise,young_pool,pulled_pool,dex_cex_gap,wash_volume}'),
  (7608, 'R8/USDT', 'RankTest', 'cex', 1, 0.9999, 0.9999, timestamptz '2026-06-01 12:00:00+00', false, '{}'),
  (7609, 'R9/USDT', 'RankTest', 'cex', 1, 127.99, 127.99, timestamptz '2026-06-01 12:00:00+00', true, '{no_volume_rise,young_pool,pulled_pool,dex_cex_gap,wash_volume}');
select private.refresh_movers_top(null);

select is(
  (select t.ranked from private.movers_top t where t.window_minutes = 30),
  array(select m.id from public.movers m
        order by abs(coalesce(m.pct_30min, m.pct)) * power(0.5, cardinality(m.flags) + case when m.thin then 1 else 0 end) desc,
                 m.ts desc, m.id desc),
  'the kept ranking orders by |pct| × 0.5^(flags + thin), then ts, then id'
);
select is(
  (select array(select (e ->> 'id')::bigint from jsonb_array_elements(t.entries) e) from private.movers_top t where t.window_minutes = 30),
  (select t.ranked from private.movers_top t where t.window_minutes = 30),
  'the entries follow the same order'
);

select * from finish();
rollback;
