-- Sparklines for the movers list (issue 28): one light query for every row instead of one
-- request per row.
--
-- public.movers_sparklines(window) returns, for each instrument of the caller's movers of that
-- window (exactly the rows movers_feed(window) returns, so the same plan rules apply: an active,
-- unbanned subscriber whose plan offers the window; PT403 otherwise), the last 30 minutes of its
-- price as the last sample of each minute, oldest first: at most 31 points for each of at most
-- 100 instruments, one row per instrument (arrays), well under the Data API's row cap. Minute
-- samples are coarser than the 10-second scans, so the enterprise-only 10-second list cannot be
-- rebuilt from them (decision 0016's concern), and the analysis already serves 5-minute candles.

create function public.movers_sparklines(window_minutes integer default null)
returns table (instrument_id bigint, times timestamptz[], prices numeric[])
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  return query
    with movers as (
      -- Raises PT403 for callers without a plan offering the window.
      select distinct f.instrument_id from public.movers_feed(window_minutes) f
    ),
    samples as (
      select h.instrument_id, h.ts, h.price,
             row_number() over (
               partition by h.instrument_id, date_trunc('minute', h.ts) order by h.ts desc
             ) as last_rank
      from public.price_history h
      join movers m on m.instrument_id = h.instrument_id
      where h.ts >= now() - interval '30 minutes'
    )
    select s.instrument_id, array_agg(s.ts order by s.ts), array_agg(s.price order by s.ts)
    from samples s
    where s.last_rank = 1
    group by s.instrument_id;
end;
$$;
comment on function public.movers_sparklines(integer) is
  'The last 30 minutes (last sample per minute, oldest first) of each instrument in the caller''s movers of a window; same plan rules as movers_feed.';

revoke execute on function public.movers_sparklines(integer) from public, anon;
grant execute on function public.movers_sparklines(integer) to authenticated, service_role;
