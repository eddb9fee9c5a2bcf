-- Ingest rescoring and re-ranking only what a scan changed (issue 26, decision 0053 amended,
-- migration 20261128156000): after scans that quote a few of 400 movers, the kept lists
-- (entries and the kept ranking) are those a full ranking of every mover gives, the rescore of
-- the touched assets leaves nothing a full rescore would change, the merge path is the one
-- taken (a kept ranking shorter than 300 is only ever a merge's), and an unquoted mover keeps
-- its row while a quoted one is re-ranked.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

truncate public.instruments cascade;

-- 400 instruments on three venues; every three share an asset (so confirmation counts), every
-- seventh is thin. Price of instrument g in round r.
create function pg_temp.price(g int, r int) returns numeric language sql immutable as $$
  select case when r = 0 then 1 else 0.6 + ((g * 7 + r * 13) % 100) / 100.0 end
$$;
create function pg_temp.quotes(gs int[], r int, at timestamptz) returns jsonb language sql as $$
  select jsonb_agg(jsonb_build_object(
    'venueKey', v.exchange || ':CHG' || (g / 3) || '/USDT',
    'symbol', 'CHG' || (g / 3) || '/USDT', 'exchange', v.exchange, 'exchangeType', 'cex',
    'source', 'binance', 'selection', 'cex-major', 'price', pg_temp.price(g, r),
    'volume24h', 1000000 + r * 1000, 'volume24hUsd', case when g % 7 = 0 then 100000 else 1000000 + r * 1000 end,
    'ts', at))
  from unnest(gs) g, lateral (select (array['Binance', 'Coinbase', 'Kraken'])[g % 3 + 1] as exchange) v
$$;
create function pg_temp.t(s int) returns timestamptz language sql immutable as $$
  select timestamptz '2026-06-01 12:00:00+00' + make_interval(secs => s)
$$;
create function pg_temp.scan(gs int[], r int, s int) returns jsonb language sql as $$
  select public.ingest_scan(pg_temp.quotes(gs, r, pg_temp.t(s)), pg_temp.t(s))
$$;
-- After a scan: 'ok', or what a full rescore and a full ranking would have changed.
create function pg_temp.same_as_full() returns text language plpgsql as $$
declare
  rescored integer;
  differs text;
begin
  rescored := private.movers_rescore();
  if rescored > 0 then
    return rescored || ' rows rescored by a full rescore';
  end if;
  create temp table if not exists merged (window_minutes integer, entries jsonb, ranked bigint[]);
  truncate merged;
  insert into merged select t.window_minutes, t.entries, t.ranked from private.movers_top t;
  perform private.refresh_movers_top();
  select string_agg(m.window_minutes::text, ', ') into differs
  from merged m join private.movers_top t using (window_minutes)
  where m.entries is distinct from t.entries
     or m.ranked is distinct from t.ranked[1:cardinality(m.ranked)];
  -- Put the merged lists back, so the next scan merges into them.
  update private.movers_top t set entries = m.entries, ranked = m.ranked
  from merged m where m.window_minutes = t.window_minutes;
  return coalesce('windows ' || differs || ' differ from a full ranking', 'ok');
end;
$$;

select plan(14);

select is((pg_temp.scan(array(select generate_series(1, 400)), 0, -1200) ->> 'instruments')::int, 400,
  'the window start of 400 instruments');
select is((pg_temp.scan(array(select generate_series(1, 400)), 1, 0) ->> 'movers')::int, 400,
  'a scan of all 400');
select is((select count(*)::int from private.movers_top where cardinality(ranked) = 300), 7,
  'a full ranking keeps the best 300 of each window');
select is(pg_temp.same_as_full(), 'ok', 'the full scan''s lists and scores');

-- Scans of five instruments each, their moves spread over the whole ranking.
select is((pg_temp.scan(array(select g from generate_series(1, 400) g where (g + 11 * k) % 80 = 0), k, 10 * k)
             ->> 'movers')::int, 5, format('scan %s quotes 5 instruments', k))
from generate_series(2, 4) k;
select is(pg_temp.same_as_full(), 'ok', 'after three scans of five: the same lists and scores as a full ranking');

-- The top mover of the 30-minute list falls back to its start (0 %); nothing else is quoted.
create temp table top30 as
  select m.id, m.instrument_id, m.ts, m.pct_30min from public.movers m
  where m.id = (select t.ranked[1] from private.movers_top t where t.window_minutes = 30);
create temp table second30 as
  select m.id, m.pct_30min, m.trust_score, m.ts from public.movers m
  where m.id = (select t.ranked[2] from private.movers_top t where t.window_minutes = 30);
select is((public.ingest_scan(
             (select jsonb_agg(q || jsonb_build_object('price', 1))
              from jsonb_array_elements(pg_temp.quotes(
                     array[(select g from generate_series(1, 400) g, top30 x, public.instruments i
                            where i.id = x.instrument_id
                              and i.venue_key = (array['Binance', 'Coinbase', 'Kraken'])[g % 3 + 1] || ':CHG' || (g / 3) || '/USDT')],
                     5, pg_temp.t(50))) q),
             pg_temp.t(50)) ->> 'movers')::int, 1, 'a scan of the 30-minute top mover alone');
select is((select t.ranked[1] from private.movers_top t where t.window_minutes = 30), (select id from second30),
  'the second mover leads the 30-minute list');
select ok((select coalesce(array_position(t.ranked, (select id from top30)), 301) > 1
           from private.movers_top t where t.window_minutes = 30),
  'the quoted mover was re-ranked (no longer first)');
select is((select (m.pct_30min, m.trust_score, m.ts)::text from public.movers m join second30 s using (id)),
          (select (s.pct_30min, s.trust_score, s.ts)::text from second30 s),
  'the unquoted leader kept its move, score and row');
select ok((select cardinality(t.ranked) < 300 from private.movers_top t where t.window_minutes = 30),
  'the kept ranking was merged (cut at its lowest unchanged row), not ranked again');
select is(pg_temp.same_as_full(), 'ok', 'after the top mover fell: the same lists and scores as a full ranking');

select * from finish();
rollback;
