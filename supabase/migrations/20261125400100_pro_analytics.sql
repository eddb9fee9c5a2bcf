-- Pro's analysis, enforced in the database (issue 27, decision 0035).
--
-- Historical comparisons, advanced analytics and the candles behind the additional indicators
-- are Pro and Enterprise features. Three RPCs serve them, each refusing everyone else the way
-- movers_feed does (PT403, which PostgREST answers as HTTP 403):
--   * no active plan, a lapsed subscription or a ban: 'Active subscription required';
--   * an active Basic plan: 'The Pro plan is required' with detail 'pro_required', so that a
--     client can put an upgrade prompt in the feature's place.
--
--   public.history_candles(instrument, resolution)   '5m' (last 24 h), '1h' (last 7 days) or
--       '4h' (last 30 days, from the hourly candles): the candles the indicators are drawn on.
--   public.history_insights(instrument)               one JSON object: the move of the last hour
--       against the symbol's 30 days of hourly moves (how often it moved this much, what followed
--       after 1 h, 4 h and 24 h, with sample sizes), its percentile, the 24-hour correlation with
--       BTC, the volatility regime and the largest drawdown of the last 24 hours.
--   public.history_compare(instruments, range)        two to four instruments' closes over 24 h,
--       7 d or 30 d, each as a percent change from its first close (normalised to the same start).

-- Raises unless the caller holds an active Pro or Enterprise plan.
create function private.require_pro_plan() returns void
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  caller public.profiles;
begin
  select * into caller from public.profiles p where p.id = (select auth.uid());
  if caller.id is null or caller.banned or not caller.subscription_active or caller.plan = 'none' then
    raise exception 'Active subscription required' using errcode = 'PT403',
      hint = 'Subscribe to a plan to see market data.';
  end if;
  if caller.plan not in ('pro', 'enterprise') then
    raise exception 'The Pro plan is required' using errcode = 'PT403', detail = 'pro_required',
      hint = 'Historical comparisons, advanced analytics and additional indicators come with Pro and Enterprise.';
  end if;
end;
$$;
-- Called only inside the definer-rights RPCs below (as their owner): no API role executes it.
revoke execute on function private.require_pro_plan() from public, anon, authenticated;

create function private.require_instrument(instrument bigint) returns void
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  if instrument is null or not exists (select 1 from public.instruments i where i.id = instrument) then
    raise exception 'No such instrument' using errcode = 'PT404';
  end if;
end;
$$;
revoke execute on function private.require_instrument(bigint) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Candles for the indicators
-- ---------------------------------------------------------------------------------------------
create function public.history_candles(instrument bigint, resolution text default '5m')
returns table (bucket timestamptz, open numeric, high numeric, low numeric, close numeric, volume numeric)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  perform private.require_pro_plan();
  if resolution is null or resolution not in ('5m', '1h', '4h') then
    raise exception 'Unknown candle resolution %', coalesce(resolution, 'null') using errcode = '22023',
      hint = 'Use 5m, 1h or 4h.';
  end if;
  perform private.require_instrument(instrument);
  if resolution = '5m' then
    return query
      select c.bucket, c.open, c.high, c.low, c.close, c.volume
      from public.candles_5m c
      where c.instrument_id = instrument and c.bucket >= now() - interval '24 hours'
      order by c.bucket;
  elsif resolution = '1h' then
    return query
      select c.bucket, c.open, c.high, c.low, c.close, c.volume
      from public.candles_1h c
      where c.instrument_id = instrument and c.bucket >= now() - interval '7 days'
      order by c.bucket;
  else
    return query
      select f.b, (array_agg(f.open order by f.bucket))[1], max(f.high), min(f.low),
             (array_agg(f.close order by f.bucket desc))[1], sum(f.volume)
      from (
        select c.*, to_timestamp(floor(extract(epoch from c.bucket) / 14400) * 14400) as b
        from public.candles_1h c
        where c.instrument_id = instrument and c.bucket >= now() - interval '30 days'
      ) f
      group by f.b
      order by f.b;
  end if;
end;
$$;
comment on function public.history_candles(bigint, text) is
  'One instrument''s candles at 5m (24 h), 1h (7 days) or 4h (30 days), oldest first; Pro and Enterprise only.';
revoke execute on function public.history_candles(bigint, text) from public, anon;
grant execute on function public.history_candles(bigint, text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Comparisons and analytics
-- ---------------------------------------------------------------------------------------------
create function public.history_insights(instrument bigint)
returns jsonb
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  inst public.instruments;
  latest public.candles_5m;
  hour_ago numeric;
  move numeric;
  btc bigint;
  comparison jsonb;
  percentile numeric;
  moves_count integer;
  correlation numeric;
  corr_pairs integer;
  vol_24h numeric;
  vol_30d numeric;
  vol_24h_n integer;
  vol_30d_n integer;
  regime text;
  drawdown numeric;
  dd_peak timestamptz;
  dd_trough timestamptz;
begin
  perform private.require_pro_plan();
  perform private.require_instrument(instrument);
  select * into inst from public.instruments i where i.id = instrument;

  -- The current move: the last 5-minute close against the close an hour before (within 10 min).
  select * into latest from public.candles_5m c
  where c.instrument_id = instrument and c.bucket >= now() - interval '1 hour'
  order by c.bucket desc limit 1;
  if latest.bucket is not null then
    select c.close into hour_ago from public.candles_5m c
    where c.instrument_id = instrument
      and c.bucket between latest.bucket - interval '70 minutes' and latest.bucket - interval '60 minutes'
    order by c.bucket desc limit 1;
  end if;
  if hour_ago > 0 then
    move := (latest.close / hour_ago - 1) * 100;
  end if;

  -- 30 days of hourly moves (close against the previous hour's close) and what followed each.
  with h as (
    select c.bucket, c.close,
           (select p.close from public.candles_1h p
            where p.instrument_id = instrument and p.bucket = c.bucket - interval '1 hour') as prev
    from public.candles_1h c
    where c.instrument_id = instrument and c.bucket >= now() - interval '30 days'
  ), m as (
    select h.bucket, h.close, (h.close / h.prev - 1) * 100 as pct
    from h where h.prev > 0
  ), alike as (
    select m.bucket, m.close,
           (select (f.close / m.close - 1) * 100 from public.candles_1h f
            where f.instrument_id = instrument and f.bucket = m.bucket + interval '1 hour') as after_1h,
           (select (f.close / m.close - 1) * 100 from public.candles_1h f
            where f.instrument_id = instrument and f.bucket = m.bucket + interval '4 hours') as after_4h,
           (select (f.close / m.close - 1) * 100 from public.candles_1h f
            where f.instrument_id = instrument and f.bucket = m.bucket + interval '24 hours') as after_24h
    from m
    where move is not null and m.close > 0
      and sign(m.pct) = sign(move) and abs(m.pct) >= abs(move)
  )
  select (select count(*) from m)::integer,
         case when move is not null and (select count(*) from m) > 0 then
           round(100.0 * (select count(*) from m where abs(m.pct) < abs(move)) / (select count(*) from m), 1)
         end,
         jsonb_build_object(
           'occurrences', (select count(*) from alike),
           'after_1h', jsonb_build_object('avg_pct', (select round(avg(s.after_1h), 4) from alike s),
                                          'samples', (select count(s.after_1h) from alike s)),
           'after_4h', jsonb_build_object('avg_pct', (select round(avg(s.after_4h), 4) from alike s),
                                          'samples', (select count(s.after_4h) from alike s)),
           'after_24h', jsonb_build_object('avg_pct', (select round(avg(s.after_24h), 4) from alike s),
                                           'samples', (select count(s.after_24h) from alike s)))
    into moves_count, percentile, comparison;

  -- Correlation with BTC: 5-minute returns of the last 24 hours, paired by bucket.
  select i.id into btc from public.instruments i
  where upper(i.symbol) in ('BTC/USDT', 'BTC/USD', 'BTC/USDC', 'XBT/USD')
  order by (i.exchange = inst.exchange) desc, (upper(i.symbol) = 'BTC/USDT') desc, i.id
  limit 1;
  if btc is not null then
    with r as (
      select c.instrument_id, c.bucket,
             c.close / nullif(lag(c.close) over (partition by c.instrument_id order by c.bucket), 0) - 1 as ret,
             c.bucket - lag(c.bucket) over (partition by c.instrument_id order by c.bucket) as gap
      from public.candles_5m c
      where c.instrument_id in (instrument, btc) and c.bucket >= now() - interval '24 hours'
    )
    select corr(a.ret, b.ret), count(*)::integer into correlation, corr_pairs
    from r a join r b on b.bucket = a.bucket and b.instrument_id = btc
    where a.instrument_id = instrument and a.gap = interval '5 minutes' and b.gap = interval '5 minutes'
      and a.ret is not null and b.ret is not null;
    if corr_pairs < 12 then
      correlation := null;
    end if;
  end if;

  -- Volatility regime: the spread of hourly returns of the last 24 hours against the last 30 days.
  with r as (
    select c.bucket, (c.close / nullif(p.close, 0) - 1) as ret
    from public.candles_1h c
    join public.candles_1h p on p.instrument_id = c.instrument_id and p.bucket = c.bucket - interval '1 hour'
    where c.instrument_id = instrument and c.bucket >= now() - interval '30 days'
  )
  select stddev_pop(r.ret) filter (where r.bucket >= now() - interval '24 hours'),
         count(r.ret) filter (where r.bucket >= now() - interval '24 hours'),
         stddev_pop(r.ret), count(r.ret)
    into vol_24h, vol_24h_n, vol_30d, vol_30d_n
  from r;
  if vol_24h_n >= 12 and vol_30d_n >= 48 then
    regime := case
      when vol_30d = 0 then case when vol_24h = 0 then 'calm' else 'wild' end
      when vol_24h < 0.67 * vol_30d then 'calm'
      when vol_24h > 1.5 * vol_30d then 'wild'
      else 'normal'
    end;
  end if;

  -- Largest drawdown of the last 24 hours: the deepest fall of a 5-minute close below the highest
  -- close before it.
  select round(((d.close / d.peak) - 1) * 100, 4), d.bucket
    into drawdown, dd_trough
  from (
    select c.bucket, c.close,
           max(c.close) over (order by c.bucket rows between unbounded preceding and current row) as peak
    from public.candles_5m c
    where c.instrument_id = instrument and c.bucket >= now() - interval '24 hours'
  ) d
  where d.peak > 0
  order by (d.close / d.peak) asc, d.bucket asc
  limit 1;
  if dd_trough is not null then
    select c.bucket into dd_peak from public.candles_5m c
    where c.instrument_id = instrument and c.bucket >= now() - interval '24 hours' and c.bucket <= dd_trough
    order by c.close desc, c.bucket asc limit 1;
  end if;

  return jsonb_build_object(
    'instrument_id', instrument,
    'symbol', inst.symbol,
    'as_of', latest.bucket,
    'move_1h_pct', round(move, 4),
    'comparison', comparison || jsonb_build_object('hours', moves_count),
    'percentile', percentile,
    'btc_correlation', case when correlation is null then null else round(correlation::numeric, 4) end,
    'btc_correlation_pairs', coalesce(corr_pairs, 0),
    'btc_instrument_id', btc,
    'volatility', jsonb_build_object(
      'regime', regime,
      'stddev_24h_pct', round(vol_24h * 100, 4), 'stddev_30d_pct', round(vol_30d * 100, 4),
      'samples_24h', coalesce(vol_24h_n, 0), 'samples_30d', coalesce(vol_30d_n, 0)),
    'drawdown', jsonb_build_object('pct', coalesce(drawdown, 0), 'peak_at', dd_peak, 'trough_at', dd_trough)
  );
end;
$$;
comment on function public.history_insights(bigint) is
  'Historical comparison and advanced analytics of one instrument (decision 0035); Pro and Enterprise only.';
revoke execute on function public.history_insights(bigint) from public, anon;
grant execute on function public.history_insights(bigint) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Several symbols normalised to the same start
-- ---------------------------------------------------------------------------------------------
create function public.history_compare(instruments bigint[], range text default '24h')
returns table (instrument_id bigint, symbol text, exchange text, points jsonb)
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  n integer;
begin
  perform private.require_pro_plan();
  if range is null or range not in ('24h', '7d', '30d') then
    raise exception 'Unknown range %', coalesce(range, 'null') using errcode = '22023', hint = 'Use 24h, 7d or 30d.';
  end if;
  select count(distinct x) into n from unnest(instruments) x where x is not null;
  if n < 2 or n > 4 or n <> coalesce(cardinality(instruments), 0) then
    raise exception 'Compare two to four different symbols' using errcode = '22023';
  end if;
  if (select count(*) from public.instruments i where i.id = any (instruments)) <> n then
    raise exception 'No such instrument' using errcode = 'PT404';
  end if;
  return query
    with c as (
      -- 24 h: 5-minute closes; 7 d: hourly closes; 30 d: 4-hour closes.
      select f.instrument_id, f.bucket, f.close from public.candles_5m f
      where range = '24h' and f.instrument_id = any (instruments) and f.bucket >= now() - interval '24 hours'
      union all
      select f.instrument_id, f.bucket, f.close from public.candles_1h f
      where range = '7d' and f.instrument_id = any (instruments) and f.bucket >= now() - interval '7 days'
      union all
      select g.instrument_id, g.b, (array_agg(g.close order by g.bucket desc))[1]
      from (select f.instrument_id, f.bucket, f.close,
                   to_timestamp(floor(extract(epoch from f.bucket) / 14400) * 14400) as b
            from public.candles_1h f
            where range = '30d' and f.instrument_id = any (instruments) and f.bucket >= now() - interval '30 days') g
      group by g.instrument_id, g.b
    ), firsts as (
      select distinct on (c.instrument_id) c.instrument_id, c.close as first_close
      from c where c.close > 0 order by c.instrument_id, c.bucket
    )
    select i.id, i.symbol, i.exchange,
           coalesce((select jsonb_agg(jsonb_build_array(
                               (extract(epoch from c.bucket) * 1000)::bigint,
                               round((c.close / f.first_close - 1) * 100, 4))
                             order by c.bucket)
                     from c join firsts f on f.instrument_id = c.instrument_id
                     where c.instrument_id = i.id), '[]'::jsonb)
    from public.instruments i
    where i.id = any (instruments)
    order by array_position(instruments, i.id);
end;
$$;
comment on function public.history_compare(bigint[], text) is
  'Two to four instruments as percent change from their first close over 24h, 7d or 30d; Pro and Enterprise only.';
revoke execute on function public.history_compare(bigint[], text) from public, anon;
grant execute on function public.history_compare(bigint[], text) to authenticated, service_role;
