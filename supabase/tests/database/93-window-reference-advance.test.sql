-- How a window's reference moves from scan to scan (issue 26, decision 0093): the reference of a
-- window W for a quote at t is the newest sample at or before t - W and not older than t - 1.5 W,
-- else the oldest sample after t - W and not after t - W/2, else none (the "—" of decision 0073).
-- Any way of finding it other than the history look-up (a kept reference advanced as samples
-- arrive, decision 0093's candidate) must give these results: a new instrument, a reference found
-- ahead of the window's edge, a reference that stays while the window's edge has not reached the
-- next sample, that advances one sample, a gap, a sample backfilled between the reference and the
-- edge, and a reference pruned away by another venue's scan.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

truncate public.instruments cascade;

create function pg_temp.t(s int) returns timestamptz language sql immutable as $$
  select timestamptz '2026-06-01 12:00:00+00' + make_interval(secs => s)
$$;
create function pg_temp.quote(sym text, price numeric, s int) returns jsonb language sql immutable as $$
  select jsonb_build_object('venueKey', 'Binance:' || sym, 'symbol', sym, 'exchange', 'Binance',
                            'exchangeType', 'cex', 'source', 'binance', 'price', price, 'volume24h', 1000000,
                            'volume24hUsd', 1000000, 'ts', pg_temp.t(s))
$$;
-- One scan of ADV/USDT at venue time s (the scan's time: s, or `at`), then its mover's row.
create function pg_temp.scan(price numeric, s int, at int default null) returns public.movers language sql as $$
  select public.ingest_scan(jsonb_build_array(pg_temp.quote('ADV/USDT', price, s)), pg_temp.t(coalesce(at, s)));
  select m.* from public.movers m where m.symbol = 'ADV/USDT';
$$;

select plan(12);

select ok((select m.pct_10sec is null and m.pct_5min is null and m.pct_3hour is null from pg_temp.scan(100, 0) m),
  'a new instrument: no window has a reference');
select is((select m.pct_5min from pg_temp.scan(110, 60) m), null::numeric,
  'one minute later: the 5-minute window has none (no sample before t - 150 s)');
select is((select m.pct_5min from pg_temp.scan(120, 240) m), 20.0000,
  'at 240 s: the oldest sample after t - 5 min (the first, at 0 s) is the reference, ahead of the edge');
select is((select m.pct_5min from pg_temp.scan(130, 310) m), 30.0000,
  'at 310 s: the sample at 0 s is now at or before the edge (10 s) and stays the reference');
select is((select m.pct_5min from pg_temp.scan(140, 365) m), 27.2727,
  'at 365 s: the edge (65 s) passed the sample at 60 s: the reference advances to it (110)');
select is((select m.pct_5min from pg_temp.scan(150, 520) m), 25.0000,
  'at 520 s: no sample in [70 s, 220 s] (a gap): the oldest after the edge (240 s, 120) is the reference');

-- A replayed past adds a sample at 200 s, between the reference of the next scan's probe and its edge.
set local role service_role;
select is((public.ingest_backfill(
             jsonb_build_object('instruments', jsonb_build_array(pg_temp.quote('ADV/USDT', 1, 0) - 'ts' - 'price'),
                                'stamps', jsonb_build_array(pg_temp.t(200)), 'prices', '[[90]]'::jsonb),
             pg_temp.t(520)) ->> 'samples')::int, 1, 'a backfilled sample at 200 s');
reset role;
select is((select m.pct_5min from pg_temp.scan(160, 530) m), 77.7778,
  'at 530 s: the backfilled sample (200 s, 90) is the newest at or before the edge (230 s): the reference');

select is((select m.price_3hour_ago from pg_temp.scan(200, 11200) m), 140::numeric,
  'at 11,200 s: the 3-hour reference is the sample at 365 s (140)');
-- Another venue's scan at 12,400 s prunes every sample older than 200 minutes (before 400 s).
select is((public.ingest_scan(jsonb_build_array(pg_temp.quote('OTHER/USDT', 1, 12400) || '{"venueKey": "Kraken:OTHER/USDT", "exchange": "Kraken"}'),
                              pg_temp.t(12400)) ->> 'pruned')::int > 0, true,
  'another venue''s scan prunes the samples before 400 s');
select is((select m.price_3hour_ago from pg_temp.scan(210, 11300, 12400) m), 150::numeric,
  'at 11,300 s: the sample at 365 s is gone: the oldest after the edge (520 s, 150) is the reference');
select is((select (m.pct_10sec, m.pct_5min)::text from pg_temp.scan(220, 11310, 12400) m), '(4.7619,)',
  'at 11,310 s: the sample 10 s before (210) is the 10-second reference; the 5-minute window has none');

select * from finish();
rollback;
