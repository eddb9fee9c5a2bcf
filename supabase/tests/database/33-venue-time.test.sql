-- Venue time and per-venue schedules (migration 20261125300000, decision 0033): source_health
-- keeps each venue's cadence, newest quote time and clock skew; the per-venue schedule is guarded
-- where pg_cron and pg_net are missing and refuses bad sources and cadences; ingest_scan refuses a
-- quote stamped more than 5 s after the ingest and keeps the venue's time in movers.quoted_at.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(12);
delete from public.source_health;

set local role service_role;
select is(public.record_source_health(
  '[{"source": "binance", "state": "ok", "quotes": 420, "cadenceSeconds": 2,
     "lastQuoteAt": "2026-06-01T11:59:59.5Z", "skewMs": -1200},
    {"source": "dex", "state": "ok", "quotes": 40, "cadenceSeconds": 15,
     "lastQuoteAt": "2026-06-01T12:00:30Z"}]',
  '2026-06-01 12:00:00+00'), 2, 'reports with cadence, newest quote and skew are stored');
select is(public.record_source_health(
  '[{"source": "binance", "state": "failing", "failure": "timeout", "message": "no answer", "cadenceSeconds": 2}]',
  '2026-06-01 12:00:02+00'), 1, 'a failing report');
reset role;

select results_eq(
  $$select cadence_seconds, last_quote_at, clock_skew_ms from public.source_health where source = 'binance'$$,
  $$values (2::numeric, '2026-06-01 11:59:59.5+00'::timestamptz, -1200)$$,
  'a failing venue keeps its cadence, its newest quote time and its last measured skew');
select is((select last_quote_at from public.source_health where source = 'dex'), null::timestamptz,
  'a newest quote stamped 30 s after the scan (beyond the 5 s bound) is not believed');

-- The per-venue schedule: argument checks, then the extensions guard (none here).
select throws_ok($$select private.schedule_source_scan('Bad Name', 2)$$, '22023', null,
  'an unknown source name is refused');
select throws_ok($$select private.schedule_source_scan('binance', 0)$$, '22023', null,
  'a cadence below 1 s is refused');
select throws_ok($$select private.schedule_source_scan('binance', 60)$$, '22023', null,
  'a cadence of a minute or more is not a seconds schedule');
select throws_ok($$select private.schedule_source_scan('binance', 2)$$, '55000', null,
  'without pg_cron and pg_net the schedule says what it needs');
select is(private.invoke_source_scan(array['binance']), null::bigint,
  'without scan_url, scan_secret and pg_net the call does nothing');
select is(has_function_privilege('authenticated', 'private.schedule_source_scan(text, integer)', 'execute'),
  false, 'users cannot schedule scans');

-- ingest_scan: the venue's time in quoted_at; a quote 6 s ahead of the ingest is refused.
set local role service_role;
select is(public.ingest_scan(
  '[{"venueKey": "Binance:VTIME/USDT", "symbol": "VTIME/USDT", "exchange": "Binance", "exchangeType": "cex",
     "source": "binance", "price": 2, "ts": "2026-06-01T11:59:58.5Z"},
    {"venueKey": "Binance:AHEAD/USDT", "symbol": "AHEAD/USDT", "exchange": "Binance", "exchangeType": "cex",
     "source": "binance", "price": 2, "ts": "2026-06-01T12:00:06Z"}]',
  '2026-06-01 12:00:00+00') ->> 'skipped', '1', 'the quote stamped 6 s after the ingest is skipped');
reset role;
select results_eq(
  $$select ts, quoted_at from public.movers where symbol = 'VTIME/USDT'$$,
  $$values ('2026-06-01 12:00:00+00'::timestamptz, '2026-06-01 11:59:58.5+00'::timestamptz)$$,
  'the mover keeps the ingest''s time in ts and the venue''s in quoted_at');

select * from finish();
rollback;
