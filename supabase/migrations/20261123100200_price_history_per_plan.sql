-- Price history per instrument, at the analysis' resolution (issue 12, decision 0016).
--
-- A basic subscriber could page through price_history over the Data API and rebuild the
-- enterprise-only 10-second movers list exactly. The table is no longer readable by API roles
-- (as public.movers): public.price_history_for(instrument) serves one instrument's last
-- 3 hours, downsampled to 5-minute buckets, the resolution of the analysis' candles. Of each
-- bucket (aligned to the epoch, as the candles are) only the samples that make its candle are
-- returned: the first (open), the highest (high), the lowest (low) and the last (close), each
-- with its own time and 24-hour volume, oldest first; at most 4 per bucket, 144 rows for 3
-- hours, well under the Data API's 1,000-row cap. 5-minute candles computed from these rows
-- are exactly the candles of the full history. The rule is the same for every plan: no plan's
-- screens need more, and 10-second samples, which only the 10-second window needs, are not
-- served. The scan's signals step reads the full table with the service role.

revoke select on public.price_history from anon, authenticated;
drop policy "price history: subscribers read" on public.price_history;

create function public.price_history_for(instrument bigint)
returns table (ts timestamptz, price numeric, volume_24h numeric)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  if not (select private.has_active_plan()) then
    raise exception 'Active subscription required' using errcode = 'PT403',
      hint = 'Subscribe to a plan to see market data.';
  end if;
  return query
    select s.ts, s.price, s.volume_24h
    from (
      select b.ts, b.price, b.volume_24h,
             row_number() over (partition by b.bucket order by b.ts asc) as first_rank,
             row_number() over (partition by b.bucket order by b.ts desc) as last_rank,
             row_number() over (partition by b.bucket order by b.price desc, b.ts asc) as high_rank,
             row_number() over (partition by b.bucket order by b.price asc, b.ts asc) as low_rank
      from (
        select h.ts, h.price, h.volume_24h, floor(extract(epoch from h.ts) / 300) as bucket
        from public.price_history h
        where h.instrument_id = instrument and h.ts >= now() - interval '3 hours'
      ) b
    ) s
    where s.first_rank = 1 or s.last_rank = 1 or s.high_rank = 1 or s.low_rank = 1
    order by s.ts asc;
end;
$$;
comment on function public.price_history_for(bigint) is
  'One instrument''s last 3 hours as the open/high/low/close samples of each 5-minute bucket, oldest first; active subscribers only.';

revoke execute on function public.price_history_for(bigint) from public, anon;
grant execute on function public.price_history_for(bigint) to authenticated, service_role;
