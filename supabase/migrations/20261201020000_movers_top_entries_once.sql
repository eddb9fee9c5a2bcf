-- The kept lists' entries: each listed row turned into JSON once (issue 25, decision 0094).
--
-- Every scan ends with refresh_movers_top, in the shared section that the venues' batches take
-- one at a time (decision 0085). Its last statement builds each window's entries, the first 100
-- rows of its kept ranking as JSON, with to_jsonb of a 25-field record per row and window: 700
-- records a scan, though the windows list many of the same rows. In the cadence load's Binance
-- batch that part took 11.5 of the ranking statement's 31.6 ms (auto_explain, load 3). Each
-- listed row is now turned into JSON once, without the window's percent and window; each window
-- adds those two fields to the rows it lists. A jsonb object is stored with its keys in one
-- canonical order, so the entries are the same values (and the same text) as before; the rank
-- that orders them is the same expression.
create or replace function private.refresh_movers_top(changed bigint[]) returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  windows constant integer[] := array[0, 5, 10, 15, 20, 25, 30];
  depth constant integer := 300;
  total bigint;
  unchanged bigint;
  merge boolean := false;
  -- Per window (in the order of windows): the lowest unchanged row of its kept ranking, where the
  -- merged ranking is cut; null where those rows are every unchanged row.
  cut_after bigint[] := array_fill(null::bigint, array[7]);
  candidates bigint[];
  -- Per window: how many rows of its kept ranking the change left as they were.
  kept_counts bigint[];
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('private.refresh_movers_top'));
  if changed is not null then
    -- Each changed id once (decision 0068): a row a scan wrote and the rescore wrote again counts
    -- once in the "most rows changed" test.
    changed := array(select distinct c.id from unnest(changed) c (id) where c.id is not null);
    select count(*) into total from public.movers;
    -- Ranking the kept rows and the changed ones pays only when most rows did not change.
    if cardinality(changed) * 2 < total then
      -- Per window: how many rows of its kept ranking are left unchanged, and the lowest of them.
      select count(*) = cardinality(windows), array_agg(s.kept order by s.ord), array_agg(s.lowest order by s.ord)
        into merge, kept_counts, cut_after
      from (
        select wi.ord, count(m.id) as kept,
               (array_agg(m.id order by r.o desc) filter (where m.id is not null))[1] as lowest
        from unnest(windows) with ordinality wi (w, ord)
        join private.movers_top t on t.window_minutes = wi.w and t.ranked is not null
        left join lateral unnest(t.ranked) with ordinality r (id, o) on true
        left join public.movers m on m.id = r.id and m.id not in (select c.id from unnest(changed) c (id))
        group by wi.ord
      ) s;
      -- Every row but the changed ones is unchanged, give or take changed ids no longer in the
      -- table: a window that keeps fewer rows than that cannot hold every unchanged row, so the
      -- exact count (a read of the changed rows) is taken only when some window might.
      if merge then
        if (select bool_or(k >= total - cardinality(changed)) from unnest(kept_counts) k) then
          select total - count(*) into unchanged
          from public.movers m where m.id in (select c.id from unnest(changed) c (id));
        end if;
        merge := (select bool_and(k >= 100 or coalesce(k >= unchanged, false)) from unnest(kept_counts) k);
      end if;
      if merge then
        for i in 1 .. cardinality(windows) loop
          if coalesce(kept_counts[i] >= unchanged, false) then
            cut_after[i] := null;
          end if;
        end loop;
        select coalesce(array_agg(distinct x.id), '{}') into candidates
        from (
          select r.id from private.movers_top t cross join lateral unnest(t.ranked) r (id)
          where t.window_minutes = any (windows)
          union all
          select c.id from unnest(changed) c (id)
        ) x;
      else
        cut_after := array_fill(null::bigint, array[7]);
      end if;
    end if;
  end if;

  with keys as materialized (
    select k.id, k.ts,
           abs(coalesce(k.pct_10sec, k.pct)) * k.f as r0,
           abs(coalesce(k.pct_5min, k.pct)) * k.f as r5,
           abs(coalesce(k.pct_10min, k.pct)) * k.f as r10,
           abs(coalesce(k.pct_15min, k.pct)) * k.f as r15,
           abs(coalesce(k.pct_20min, k.pct)) * k.f as r20,
           abs(coalesce(k.pct_25min, k.pct)) * k.f as r25,
           abs(coalesce(k.pct_30min, k.pct)) * k.f as r30
    from (
      select m.id, m.ts, m.pct, m.pct_10sec, m.pct_5min, m.pct_10min, m.pct_15min, m.pct_20min, m.pct_25min,
             m.pct_30min, coalesce((array[1, 0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125]::numeric[])
                           [cardinality(m.flags) + case when m.thin then 1 else 0 end + 1],
                         power(0.5, cardinality(m.flags) + case when m.thin then 1 else 0 end)) as f
      from public.movers m
      where not merge or m.id in (select c.id from unnest(candidates) c (id))
    ) k
  ),
  -- Materialized (decision 0073): each window's ranking is sorted once; inlined, the sort ran once
  -- for every reference to the ranking.
  ranked as materialized (
    select w.w, w.cut,
           array(select k.id from keys k
                 order by case w.w when 0 then k.r0 when 5 then k.r5 when 10 then k.r10 when 15 then k.r15
                                   when 20 then k.r20 when 25 then k.r25 else k.r30 end desc,
                          k.ts desc, k.id desc
                 limit depth) as ids
    from unnest(windows, cut_after) as w (w, cut)
  ),
  tops as materialized (
    select r.w,
           case when r.cut is null then r.ids
                else r.ids[1:coalesce(array_position(r.ids, r.cut), depth)] end as ids
    from ranked r
  ),
  -- Each row of the lists' first 100s is turned into JSON once (decision 0094), not once for
  -- every window that lists it: its fields but the window's percent, which each window adds.
  listed as materialized (
    select b.id, b.ts, to_jsonb(b) as base, m.pct, m.pct_10sec, m.pct_5min, m.pct_10min, m.pct_15min,
           m.pct_20min, m.pct_25min, m.pct_30min,
           coalesce((array[1, 0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125]::numeric[])
                      [cardinality(m.flags) + case when m.thin then 1 else 0 end + 1],
                    power(0.5, cardinality(m.flags) + case when m.thin then 1 else 0 end)) as f
    from public.movers m
    cross join lateral (
      select m.id, m.instrument_id, m.symbol, m.exchange, m.exchange_type, m.network, m.source, m.pool_url, m.price,
             m.price_3hour_ago, m.pct_3hour, m.volume_24h, m.ts, coalesce(m.quoted_at, m.ts) as quoted_at,
             m.volume_24h_usd, m.liquidity_usd, m.spread_pct, m.thin, m.confirmed_on, m.flags, m.trust_score,
             coalesce(m.asset, upper(split_part(m.symbol, '/', 1))) as asset, m.pool_name
    ) b
    where m.id in (select i.id from tops tp cross join lateral unnest(tp.ids[1:100]) i (id))
  ),
  -- A window's entries: its first 100 rows with the window's percent, in rank order.
  entries as (
    select tp.w,
           jsonb_agg(l.base || jsonb_build_object('pct', p.pct, 'window_used', tp.w)
                     order by abs(p.pct) * l.f desc, l.ts desc, l.id desc) as entries
    from tops tp
    cross join lateral unnest(tp.ids[1:100]) i (id)
    join listed l on l.id = i.id
    cross join lateral (
      select coalesce(case tp.w
               when 0 then l.pct_10sec when 5 then l.pct_5min when 10 then l.pct_10min
               when 15 then l.pct_15min when 20 then l.pct_20min when 25 then l.pct_25min
               else l.pct_30min end, l.pct) as pct
    ) p
    group by tp.w
  )
  insert into private.movers_top as t (window_minutes, entries, refreshed_at, ranked)
  select tp.w, coalesce(e.entries, '[]'::jsonb), now(), tp.ids
  from tops tp
  left join entries e on e.w = tp.w
  on conflict (window_minutes) do update
    set entries = excluded.entries, refreshed_at = excluded.refreshed_at, ranked = excluded.ranked;
end;
$$;
