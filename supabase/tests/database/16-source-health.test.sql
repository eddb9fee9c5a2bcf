-- Source health (migration 20261123000300): record_source_health keeps each source's latest state
-- and its last success; anyone reads it, only the service role writes it.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(12);
delete from public.source_health;

select is(has_function_privilege('anon', 'public.record_source_health(jsonb, timestamptz)', 'execute'), false,
  'visitors cannot record source health');
select is(has_function_privilege('authenticated', 'public.record_source_health(jsonb, timestamptz)', 'execute'),
  false, 'users cannot record source health');

set local role service_role;
select is(public.record_source_health(
  '[{"source": "binance", "state": "ok", "quotes": 420},
    {"source": "dex", "state": "backoff", "quotes": 0, "backoffUntil": "2026-06-01T12:02:00Z"},
    {"source": "coinbase", "state": "failing", "failure": "http", "httpStatus": 503, "message": "HTTP 503"},
    {"source": "Bad Name", "state": "ok"}, {"source": "kraken", "state": "sleeping"}]',
  '2026-06-01 12:00:00+00'), 3, 'three valid reports are stored, two malformed ones skipped');
select is(public.record_source_health(
  '[{"source": "binance", "state": "failing", "failure": "timeout", "message": "no answer within 8000 ms"},
    {"source": "dex", "state": "ok", "quotes": 12}, {"source": "coinbase", "state": "ok", "quotes": 0}]',
  '2026-06-01 12:00:10+00'), 3, 'the next scan updates them');
reset role;

select results_eq(
  $$select state, failure, http_status, last_attempt_at, last_success_at from public.source_health where source = 'binance'$$,
  $$values ('failing'::text, 'timeout'::text, null::integer, '2026-06-01 12:00:10+00'::timestamptz,
            '2026-06-01 12:00:00+00'::timestamptz)$$,
  'a failing source keeps the time of its last success');
select results_eq(
  $$select state, quotes, backoff_until, last_success_at from public.source_health where source = 'dex'$$,
  $$values ('ok'::text, 12, null::timestamptz, '2026-06-01 12:00:10+00'::timestamptz)$$,
  'a source back from its back-off is live again');
select results_eq(
  $$select state, failure, last_success_at from public.source_health where source = 'coinbase'$$,
  $$values ('ok'::text, null::text, null::timestamptz)$$,
  'a scan with no quotes is not a success');

set local role service_role;
select throws_ok($$select public.record_source_health('{}')$$, '22023', null, 'reports must be an array');
reset role;

-- Readers.
set local role anon;
select is((select count(*)::int from public.source_health), 3, 'visitors read every source');
select throws_ok($$insert into public.source_health (source, state, last_attempt_at) values ('x', 'ok', now())$$,
  '42501', null, 'visitors cannot write');
set local role authenticated;
select is((select count(*)::int from public.source_health), 3, 'users read every source');
select throws_ok($$update public.source_health set state = 'ok'$$, '42501', null, 'users cannot write');
reset role;

select * from finish();
rollback;
