-- Each strategy's track record (issue 13, decision 0018): what the recorded signal outcomes say,
-- per strategy and horizon, over the last 24 hours, 7 days or 30 days, for subscribers.
--
-- public.signal_track_record(period) → one row per strategy and horizon (hours, rounded) with
--   signals        outcomes recorded in the period (by the time the outcome was recorded);
--   hits           outcomes that proved the signal right (bullish: rose, bearish: fell,
--                  neutral: moved less than 0.5 %; record_signal_outcomes' rule);
--   hit_rate       hits / signals, 0–1;
--   directional    bullish and bearish outcomes, the ones a trader acts on;
--   avg_return, median_return
--                  the return, in percent, of following each directional signal to the horizon:
--                  the price change for a bullish signal, its negative for a bearish one
--                  (null without directional outcomes).
-- Readable under the same plan rules as the outcomes themselves: an active paid plan, else
-- 'Active subscription required' (PT403), as movers_feed answers. Invoker's rights: the rows
-- come through the outcomes' row-level security.

create index strategy_signal_outcomes_created_idx on public.strategy_signal_outcomes (created_at desc);

create function public.signal_track_record(period text default '7d')
returns table (
  strategy public.strategy, horizon_hours integer, signals integer, hits integer, hit_rate numeric,
  directional integer, avg_return numeric, median_return numeric
)
  language plpgsql stable security invoker
  set search_path = ''
as $$
declare
  span interval;
begin
  span := case period when '24h' then interval '24 hours' when '7d' then interval '7 days'
                      when '30d' then interval '30 days' end;
  if span is null then
    raise exception 'period must be 24h, 7d or 30d' using errcode = '22023';
  end if;
  if not (select private.has_active_plan()) then
    raise exception 'Active subscription required' using errcode = 'PT403',
      hint = 'Subscribe to a plan to see market data.';
  end if;
  return query
    with o as (
      select x.strategy,
             greatest(1, round(x.hours_elapsed))::integer as horizon,
             x.was_correct,
             case x.signal when 'bullish' then x.pct_change when 'bearish' then -x.pct_change end as ret
      from public.strategy_signal_outcomes x
      where x.created_at > now() - span
    )
    select o.strategy, o.horizon, count(*)::integer, count(*) filter (where o.was_correct)::integer,
           round(count(*) filter (where o.was_correct)::numeric / count(*), 4),
           count(o.ret)::integer,
           round(avg(o.ret), 4),
           round((percentile_cont(0.5) within group (order by o.ret))::numeric, 4)
    from o
    group by o.strategy, o.horizon
    order by o.strategy, o.horizon;
end;
$$;
revoke execute on function public.signal_track_record(text) from public, anon;
grant execute on function public.signal_track_record(text) to authenticated, service_role;
comment on function public.signal_track_record(text) is
  'Hit rate and returns of the recorded signal outcomes per strategy and horizon over 24h, 7d or 30d; subscribers only.';
