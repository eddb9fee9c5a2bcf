-- The scan's statements are planned for the batch they carry (issue 26, decision 0076, migration
-- 20261129020000): ingest_scan runs with plan_cache_mode = force_custom_plan, so a session's
-- sixth and later scans are not planned generically (unnest of the batch's arrays estimated at
-- 10 rows); and the setting is the call's only (the caller's session keeps its own).
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(3);

select ok(
  (select 'plan_cache_mode=force_custom_plan' = any (p.proconfig) from pg_proc p
   where p.oid = 'public.ingest_scan(jsonb, timestamptz)'::regprocedure),
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

select * from finish();
rollback;
