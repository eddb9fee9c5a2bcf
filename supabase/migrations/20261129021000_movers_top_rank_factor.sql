-- The kept lists' rank factor without numeric power() (issue 26, decision 0076).
--
-- A row's rank in a window is |pct| × 0.5^(flags + thin) (decision 0046). refresh_movers_top
-- computed 0.5^n with numeric power() for every candidate row, once in the ranking and once in
-- the entries: power() on numeric is a general exponentiation (logarithms at extended precision),
-- and it was most of the ranking statement's cost (a full ranking of the 10,003 bench movers,
-- alternating runs at load 10: 116–315 ms with power(), 88–277 ms with the factors below, same
-- lists). 0.5^n for the n a row can have (five flags and the thin mark: 0 to 6) is now read from a
-- table of constants of n exact decimals, equal in value to power()'s result, so every product,
-- every comparison and the kept lists are the same; an n beyond the table (a flag listed twice)
-- falls back to power(). Written inline (a helper SQL function with its own search_path would
-- not be inlined: a function call per row).
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
  )
  insert into private.movers_top as t (window_minutes, entries, refreshed_at, ranked)
  select tp.w,
         coalesce((
           select jsonb_agg(to_jsonb(e) - 'rank' order by e.rank desc, e.ts desc, e.id desc)
           from (
             select m.id, m.instrument_id, m.symbol, m.exchange, m.exchange_type, m.network, m.source,
                    m.pool_url, m.price, m.price_3hour_ago,
                    coalesce(case tp.w
                      when 0 then m.pct_10sec when 5 then m.pct_5min when 10 then m.pct_10min
                      when 15 then m.pct_15min when 20 then m.pct_20min when 25 then m.pct_25min
                      else m.pct_30min end, m.pct) as pct,
                    tp.w as window_used, m.pct_3hour, m.volume_24h, m.ts,
                    coalesce(m.quoted_at, m.ts) as quoted_at,
                    m.volume_24h_usd, m.liquidity_usd, m.spread_pct, m.thin, m.confirmed_on, m.flags,
                    m.trust_score, coalesce(m.asset, upper(split_part(m.symbol, '/', 1))) as asset, m.pool_name,
                    abs(coalesce(case tp.w
                      when 0 then m.pct_10sec when 5 then m.pct_5min when 10 then m.pct_10min
                      when 15 then m.pct_15min when 20 then m.pct_20min when 25 then m.pct_25min
                      else m.pct_30min end, m.pct))
                      * coalesce((array[1, 0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125]::numeric[])
                                [cardinality(m.flags) + case when m.thin then 1 else 0 end + 1],
                              power(0.5, cardinality(m.flags) + case when m.thin then 1 else 0 end)) as rank
             from public.movers m
             where m.id = any (tp.ids[1:100])
           ) e
         ), '[]'::jsonb),
         now(),
         tp.ids
  from tops tp
  on conflict (window_minutes) do update
    set entries = excluded.entries, refreshed_at = excluded.refreshed_at, ranked = excluded.ranked;
end;
$$;
