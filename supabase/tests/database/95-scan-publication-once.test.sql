-- The kept lists and the broadcast once for the venue calls of one scan (issue 26, decision 0104).
-- A call of a grouped scan (scan_group) that reaches the publication while another call of its
-- scan is in flight records its changed rows as owed and does not publish; the call that
-- publishes next — the scan's last, a call of no group, or the scan function's empty ingest after
-- a failed call — merges them with its own. Here (one connection: no call is ever in flight
-- beside this one) the state a deferring call leaves is made by hand: its movers written, the kept
-- lists as they were before it, its rows owed, no broadcast. The concurrent case itself is the
-- stack test scan-venues-concurrent's (PostgreSQL).
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

truncate public.instruments cascade;
delete from private.movers_publication_owed;

-- 300 instruments, every other on Binance, the others on Coinbase; one asset each.
create function pg_temp.quotes(venue text, r int, at timestamptz) returns jsonb language sql as $$
  select jsonb_agg(jsonb_build_object(
    'venueKey', v.exchange || ':PUB' || g || '/USDT', 'symbol', 'PUB' || g || '/USDT', 'exchange', v.exchange,
    'exchangeType', 'cex', 'source', lower(v.exchange), 'selection', 'cex-major',
    'price', case when r = 0 then 1 else 0.6 + ((g * 7 + r * 13) % 100) / 100.0 end,
    'volume24h', 1000000, 'volume24hUsd', 1000000, 'ts', at))
  from generate_series(1, 300) g, lateral (select case when g % 2 = 0 then 'Binance' else 'Coinbase' end as exchange) v
  where venue is null or v.exchange = venue
$$;
create function pg_temp.t(s int) returns timestamptz language sql immutable as $$
  select timestamptz '2026-06-01 12:00:00+00' + make_interval(secs => s)
$$;

-- 'ok' when every kept list is what a full ranking gives (the first 100s, the broadcast's
-- entries), else the windows that differ. The lists are put back.
create function pg_temp.lists_full() returns text language plpgsql as $$
declare
  differs text;
begin
  create temp table if not exists stored (window_minutes integer, entries jsonb, ranked bigint[]);
  truncate stored;
  insert into stored select t.window_minutes, t.entries, t.ranked from private.movers_top t;
  perform private.refresh_movers_top();
  select string_agg(s.window_minutes::text, ', ' order by s.window_minutes) into differs
  from stored s join private.movers_top t using (window_minutes)
  where s.entries is distinct from t.entries;
  update private.movers_top t set entries = s.entries, ranked = s.ranked
  from stored s where s.window_minutes = t.window_minutes;
  return coalesce('windows ' || differs || ' differ from a full ranking', 'ok');
end;
$$;

-- A call of `venue` at `at` that left its publication to a later call: it runs, then the kept
-- lists are put back as they were before it, its changed rows are owed and its broadcast unsent.
create temp table before_call (window_minutes integer, entries jsonb, ranked bigint[]);
create function pg_temp.deferred_call(venue text, r int, at timestamptz, broadcast boolean default true)
returns void language plpgsql as $$
begin
  truncate before_call;
  insert into before_call select t.window_minutes, t.entries, t.ranked from private.movers_top t;
  perform public.ingest_scan(pg_temp.quotes(venue, r, at), at);
  update private.movers_top t set entries = b.entries, ranked = b.ranked
  from before_call b where b.window_minutes = t.window_minutes;
  insert into private.movers_publication_owed (changed, since, broadcast)
  select array_agg(m.id), case when broadcast then at end, broadcast
  from public.movers m where m.exchange = venue and m.quoted_at = at;
  delete from realtime.messages;
end;
$$;

create temp table result (name text primary key, value jsonb);

select plan(23);

select has_table('private', 'movers_publication_owed', 'what calls of a scan owe is kept in private');
select ok((select c.relrowsecurity from pg_class c where c.oid = 'private.movers_publication_owed'::regclass),
  'the owed publication has row-level security');
select table_privs_are('private', 'movers_publication_owed', 'anon', array[]::text[], 'anon has no access');
select table_privs_are('private', 'movers_publication_owed', 'authenticated', array[]::text[],
  'authenticated has no access');
-- Round 2: the bound on a deferral (the concurrent cases are scan-venues-concurrent's).
select col_not_null('private', 'movers_publication_owed', 'first_owed_at', 'the owed row says when it was first left');
select col_not_null('private', 'movers_publication_owed', 'calls', 'and by how many calls');

select is((public.ingest_scan(pg_temp.quotes(null, 0, pg_temp.t(-1200)), pg_temp.t(-1200)) ->> 'instruments')::int,
  300, 'the window start of 300 instruments');
select is((public.ingest_scan(pg_temp.quotes(null, 1, pg_temp.t(0)), pg_temp.t(0)) ->> 'movers')::int, 300,
  'a scan of all 300');

-- Binance's call left its publication to Coinbase's (the scan's last call, here of no group).
select pg_temp.deferred_call('Binance', 2, pg_temp.t(10));
select isnt(pg_temp.lists_full(), 'ok', 'the kept lists lack the deferred call''s rows (the test''s precondition)');
insert into result values ('coinbase', public.ingest_scan(pg_temp.quotes('Coinbase', 2, pg_temp.t(10)), pg_temp.t(10)));
select is((select (value ->> 'broadcasts')::int from result where name = 'coinbase'), 7,
  'the publishing call broadcasts every window once');
select is(pg_temp.lists_full(), 'ok', 'its kept lists hold both calls'' rows: a full ranking''s');
select ok(exists (select 1 from private.movers_top t, jsonb_array_elements(t.entries) e
                  where e ->> 'exchange' = 'Binance' and (e ->> 'quoted_at')::timestamptz = pg_temp.t(10)),
  'the deferred call''s rows are listed');
select is((select count(*)::int from realtime.messages m
           where m.topic like 'market:movers:%'
             and m.payload -> 'entries' = (select t.entries from private.movers_top t
                                           where 'market:movers:' || t.window_minutes = m.topic)), 7,
  'each window''s one broadcast carries its kept list');
select is((select count(*)::int from private.movers_publication_owed), 0, 'nothing is owed after it');
select ok(not (select value ? 'deferred' from result where name = 'coinbase'),
  'a call of no group answers as before (no deferred key)');

-- A call of a grouped scan with no other call of its scan in flight publishes itself.
delete from realtime.messages;
insert into result values ('alone', public.ingest_scan(pg_temp.quotes('Binance', 3, pg_temp.t(20)), pg_temp.t(20),
                                                       'a3c1e3f0-5b7d-4c59-9e8f-0d6b2b1c4a11'));
select is((select value -> 'deferred' from result where name = 'alone'), 'false'::jsonb,
  'the last call of its scan does not defer');
select is((select (value ->> 'broadcasts')::int from result where name = 'alone'), 7, 'and broadcasts');
select is(pg_temp.lists_full(), 'ok', 'its kept lists are a full ranking''s');

-- A call of the scan failed: the scan function's empty ingest (no group) publishes what is owed.
select pg_temp.deferred_call('Coinbase', 4, pg_temp.t(30));
insert into result values ('fallback', public.ingest_scan('[]'::jsonb, pg_temp.t(30)));
select is((select (value ->> 'broadcasts')::int from result where name = 'fallback'), 7,
  'an empty ingest broadcasts the owed rows');
select is(pg_temp.lists_full(), 'ok', 'and merges them into the kept lists');
select is((select count(*)::int from private.movers_publication_owed), 0, 'nothing is owed after it');

-- Owed rows that wrote no mover (a call that only removed stale rows, say): the lists are
-- merged, no broadcast is owed.
select pg_temp.deferred_call('Binance', 5, pg_temp.t(40), false);
insert into result values ('quiet', public.ingest_scan('[]'::jsonb, pg_temp.t(40)));
select is(pg_temp.lists_full(), 'ok', 'owed rows without a broadcast are still merged');
select is((select (value ->> 'broadcasts')::int from result where name = 'quiet'), 0, 'and nothing is broadcast');

select * from finish();
rollback;
