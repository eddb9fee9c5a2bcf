-- The kept lists' merge, exactly (issue 25, decision 0094). After a scan that changes a few of
-- 400 movers, each window's merged kept ranking is a full ranking's first rows down to and
-- including the cut (the lowest row of the window's kept ranking that the scan did not change):
-- no row below the cut, the cut row itself kept, the full ranking's order; the entries are the
-- full ranking's (migration 20261201020000 builds them anew). Both for a scan whose rows move
-- within the lists and for one whose kept rows fall out of them. (Test 53 compares the merged
-- ranking with a prefix of the full one; this one also pins where the prefix ends.)
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

truncate public.instruments cascade;

create function pg_temp.price(g int, r int) returns numeric language sql immutable as $$
  select case when r = 0 then 1 else 0.6 + ((g * 7 + r * 13) % 100) / 100.0 end
$$;
create function pg_temp.quotes(gs int[], r int, at timestamptz, fixed numeric default null) returns jsonb
language sql as $$
  select jsonb_agg(jsonb_build_object(
    'venueKey', v.exchange || ':CUT' || (g / 3) || '/USDT',
    'symbol', 'CUT' || (g / 3) || '/USDT', 'exchange', v.exchange, 'exchangeType', 'cex',
    'source', 'binance', 'selection', 'cex-major', 'price', coalesce(fixed, pg_temp.price(g, r)),
    'volume24h', 1000000 + r * 1000, 'volume24hUsd', case when g % 7 = 0 then 100000 else 1000000 + r * 1000 end,
    'ts', at))
  from unnest(gs) g, lateral (select (array['Binance', 'Coinbase', 'Kraken'])[g % 3 + 1] as exchange) v
$$;
create function pg_temp.t(s int) returns timestamptz language sql immutable as $$
  select timestamptz '2026-06-01 12:00:00+00' + make_interval(secs => s)
$$;

-- The kept rankings before a scan, and the ids that scan wrote (mover rows of its instruments).
create temp table before_scan (window_minutes integer, ranked bigint[]);
create function pg_temp.keep() returns void language sql as $$
  truncate before_scan;
  insert into before_scan select t.window_minutes, t.ranked from private.movers_top t;
$$;
-- After a scan of the given instruments: for each window, 'ok' when the merged ranking is the full
-- ranking down to and including the cut, else what differs. The merged lists are put back.
create function pg_temp.cut_exact(instruments bigint[]) returns text language plpgsql as $$
declare
  differs text;
begin
  create temp table if not exists merged (window_minutes integer, entries jsonb, ranked bigint[]);
  truncate merged;
  insert into merged select t.window_minutes, t.entries, t.ranked from private.movers_top t;
  perform private.refresh_movers_top();
  with changed as (
    select m.id from public.movers m where m.instrument_id = any (instruments)
  ),
  cuts as (
    -- The lowest row of the window's kept ranking before the scan that the scan did not change.
    select b.window_minutes,
           (select r.id from unnest(b.ranked) with ordinality r (id, o)
            where r.id not in (select c.id from changed c) order by r.o desc limit 1) as cut
    from before_scan b
  )
  select string_agg(m.window_minutes::text, ', ' order by m.window_minutes) into differs
  from merged m
  join private.movers_top t using (window_minutes)
  join cuts c using (window_minutes)
  where m.entries is distinct from t.entries
     or m.ranked is distinct from t.ranked[1:array_position(t.ranked, c.cut)]
     or m.ranked[cardinality(m.ranked)] is distinct from c.cut;
  update private.movers_top t set entries = m.entries, ranked = m.ranked
  from merged m where m.window_minutes = t.window_minutes;
  return coalesce('windows ' || differs || ' are not the full ranking down to the cut', 'ok');
end;
$$;

select plan(7);

select is((public.ingest_scan(pg_temp.quotes(array(select generate_series(1, 400)), 0, pg_temp.t(-1200)),
                              pg_temp.t(-1200)) ->> 'instruments')::int, 400, 'the window start of 400 instruments');
select is((public.ingest_scan(pg_temp.quotes(array(select generate_series(1, 400)), 1, pg_temp.t(0)),
                              pg_temp.t(0)) ->> 'movers')::int, 400, 'a scan of all 400 (a full ranking)');

-- Twenty instruments spread over the ranking move again (some rise into the lists, some fall).
select pg_temp.keep();
select is((public.ingest_scan(pg_temp.quotes(array(select g from generate_series(1, 400) g where g % 20 = 3), 2,
                                             pg_temp.t(10)), pg_temp.t(10)) ->> 'movers')::int, 20,
  'a scan of twenty');
select is(pg_temp.cut_exact(array(select i.id from public.instruments i
                                  where i.venue_key in (select (array['Binance', 'Coinbase', 'Kraken'])[g % 3 + 1]
                                                                 || ':CUT' || (g / 3) || '/USDT'
                                                        from generate_series(1, 400) g where g % 20 = 3))), 'ok',
  'after the scan of twenty: each window is the full ranking down to and including its cut');

-- Twenty rows of the kept rankings (every fifteenth of the 30-minute list) fall back to their
-- start (0 %): they leave the lists, so each window's unchanged kept rows end above position 300
-- and the merged lists are cut there.
create temp table falling as
  select m.instrument_id, i.venue_key, i.symbol, i.exchange
  from private.movers_top t, unnest(t.ranked) with ordinality r (id, o), public.movers m, public.instruments i
  where t.window_minutes = 30 and r.o % 15 = 0 and m.id = r.id and i.id = m.instrument_id;
select pg_temp.keep();
select is((public.ingest_scan(
             (select jsonb_agg(jsonb_build_object('venueKey', f.venue_key, 'symbol', f.symbol, 'exchange', f.exchange,
                                                  'exchangeType', 'cex', 'source', 'binance', 'price', 1,
                                                  'volume24h', 1000000, 'volume24hUsd', 1000000, 'ts', pg_temp.t(20)))
              from falling f), pg_temp.t(20)) ->> 'movers')::int, 20,
  'a scan of twenty kept rows whose moves end');
select ok((select count(*) >= 3 from private.movers_top t where cardinality(t.ranked) < 300),
  'the kept rankings were merged and cut (shorter than 300: only a merge cuts)');
select is(pg_temp.cut_exact(array(select f.instrument_id from falling f)), 'ok',
  'after the scan of twenty falling rows: each window is the full ranking down to and including its cut');

select * from finish();
rollback;
