-- A venue's "confirmed through" time (issue 25, decision 0079).
--
-- Binance's `!miniTicker@arr` names only the symbols that changed in its second, so an unchanged
-- symbol's stored quote time ages although every event of the stream confirms it is unchanged.
-- The stream reader now reports, beside its state:
-- - confirmed_through: the venue time of the newest stream event whose quotes (and every earlier
--   event's) are stored: through then, the venue published nothing for the venue's other symbols.
--   It advances only after the ingest of those quotes returned, and only from events, so a venue
--   or reader that stalls stops it;
-- - confirmed_since: when that unbroken run began (the connection's opening; moved to the time of
--   a failed ingest, whose quotes were lost).
-- A row's quote is confirmed through the venue's confirmed_through when (1) a full poll of the
-- venue (source_health.last_success_at: every symbol's price, which is what the venue's polling
-- reads) ran after the run began, so the stream has seen every change since that poll, and (2)
-- the row was written by that poll or after it (movers.ts >= the poll's scan time): an instrument
-- the venue no longer lists drops out at the next poll. Otherwise the row's own quote time holds.
-- movers_feed returns it as confirmed_at beside quoted_at; the dashboard applies the same rule
-- with the venue's times it reads for the Sources line (web: venue-confirmation.ts).

alter table public.stream_health
  add column confirmed_since timestamptz,
  add column confirmed_through timestamptz;
comment on column public.stream_health.confirmed_through is
  'Venue time of the newest stream event whose quotes are stored (all earlier ones too): the venue''s symbols not in the stream are confirmed unchanged through then (decision 0079).';
comment on column public.stream_health.confirmed_since is
  'When the reader''s unbroken run of stored events began (the connection opened, or an ingest failed); the confirmation holds only for a full poll after it (decision 0079).';

-- report: { source, state, connectedSince, droppedAt, reconnects, lastMessageAt, quotes,
-- confirmedSince, confirmedThrough }. The two new fields are optional (a reader from before this
-- change leaves them as they were). A confirmation more than 5 s ahead of the database's clock is
-- not stored (as ingest_scan refuses such quotes); within one run it never moves back.
create or replace function public.record_stream_health(report jsonb)
returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  r record;
  through timestamptz;
begin
  if report is null or jsonb_typeof(report) <> 'object' then
    raise exception 'report must be a JSON object' using errcode = '22023';
  end if;
  select * into r from jsonb_to_record(report) as x (source text, state text, "connectedSince" timestamptz,
    "droppedAt" timestamptz, reconnects integer, "lastMessageAt" timestamptz, quotes integer,
    "confirmedSince" timestamptz, "confirmedThrough" timestamptz);
  if r.source is null or r.source !~ '^[a-z][a-z0-9_-]{0,39}$' then
    raise exception 'source must be a source name' using errcode = '22023';
  end if;
  if r.state is null or r.state not in ('connected', 'dropped') then
    raise exception 'state must be connected or dropped' using errcode = '22023';
  end if;
  if r."confirmedThrough" is not null and r."confirmedSince" is null then
    raise exception 'confirmedThrough needs confirmedSince' using errcode = '22023';
  end if;
  through := case when r."confirmedThrough" <= now() + interval '5 seconds' then r."confirmedThrough" end;
  insert into public.stream_health as h (source, state, connected_since, dropped_at, reconnects,
                                         last_message_at, quotes, reported_at, confirmed_since,
                                         confirmed_through)
  values (r.source, r.state,
          case when r.state = 'connected' then coalesce(r."connectedSince", now()) end,
          case when r.state = 'dropped' then coalesce(r."droppedAt", now()) end,
          greatest(coalesce(r.reconnects, 0), 0),
          r."lastMessageAt",
          greatest(coalesce(r.quotes, 0), 0),
          now(),
          r."confirmedSince",
          through)
  on conflict (source) do update
    set state = excluded.state, connected_since = excluded.connected_since,
        dropped_at = excluded.dropped_at, reconnects = excluded.reconnects,
        last_message_at = coalesce(excluded.last_message_at, h.last_message_at),
        quotes = excluded.quotes, reported_at = excluded.reported_at,
        -- A report without the fields (an older reader) keeps what is stored; a new run replaces
        -- the confirmation (a reconnect's first report may carry none yet); within a run the
        -- time only moves forward.
        confirmed_since = coalesce(excluded.confirmed_since, h.confirmed_since),
        confirmed_through = case
          when excluded.confirmed_since is null then h.confirmed_through
          when excluded.confirmed_since is distinct from h.confirmed_since then excluded.confirmed_through
          else greatest(excluded.confirmed_through, h.confirmed_through) end;
end;
$$;
revoke execute on function public.record_stream_health(jsonb) from public, anon, authenticated;
grant execute on function public.record_stream_health(jsonb) to service_role;
comment on function public.record_stream_health(jsonb) is
  'A streaming reader''s state once a second: connected or dropped, reconnects, last message, and through when its events confirm the venue''s unchanged symbols; service role only (decisions 0061, 0079).';

-- movers_feed: confirmed_at beside quoted_at. quoted_at stays the quote's own venue time (when the
-- venue last published this price); confirmed_at is the time through which the venue confirmed
-- it (quoted_at, or the venue's confirmed_through under the rule above). The data age and the
-- stale mark count from confirmed_at.
drop function public.movers_feed(integer);
create function public.movers_feed(window_minutes integer default null)
returns table (
  id bigint, instrument_id bigint, symbol text, exchange text, exchange_type public.exchange_type,
  network text, source text, pool_url text, price numeric, price_3hour_ago numeric,
  pct numeric, window_used integer, pct_3hour numeric, volume_24h numeric, ts timestamptz,
  quoted_at timestamptz, volume_24h_usd numeric, liquidity_usd numeric, spread_pct numeric, thin boolean,
  confirmed_on text[], flags text[], trust_score integer, asset text, pool_name text,
  confirmed_at timestamptz
)
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  caller public.profiles;
  w integer;
begin
  select * into caller from public.profiles p where p.id = (select auth.uid());
  if caller.id is null or caller.banned or not caller.subscription_active or caller.plan = 'none' then
    raise exception 'Active subscription required' using errcode = 'PT403',
      hint = 'Subscribe to a plan to see market data.';
  end if;
  w := coalesce(window_minutes, caller.selected_window_minutes);
  if not (w = any (public.allowed_windows(caller.plan))) then
    raise exception 'The % plan does not offer a % minute window', caller.plan, w using errcode = 'PT403';
  end if;
  return query
    with venues as materialized (
      -- Per venue with a stream: its confirmation, when a full poll ran after the run began.
      select s.source, s.confirmed_through, h.last_success_at as polled_at
      from public.stream_health s
      join public.source_health h on h.source = s.source
      where s.confirmed_through is not null and h.last_success_at is not null
        and s.confirmed_since <= h.last_success_at
    )
    select x.id, x.instrument_id, x.symbol, x.exchange, x.exchange_type, x.network, x.source, x.pool_url,
           x.price, x.price_3hour_ago, x.pct, x.window_used, x.pct_3hour, x.volume_24h, x.ts,
           coalesce(x.quoted_at, x.ts), x.volume_24h_usd, x.liquidity_usd, x.spread_pct,
           coalesce(x.thin, false), coalesce(x.confirmed_on, '{}'), coalesce(x.flags, '{}'),
           coalesce(x.trust_score, 0), coalesce(x.asset, upper(split_part(x.symbol, '/', 1))), x.pool_name,
           case when x.ts >= v.polled_at then greatest(coalesce(x.quoted_at, x.ts), v.confirmed_through)
                else coalesce(x.quoted_at, x.ts) end
    from private.movers_top t,
         rows from (jsonb_to_recordset(t.entries) as (
           id bigint, instrument_id bigint, symbol text, exchange text, exchange_type public.exchange_type,
           network text, source text, pool_url text, price numeric, price_3hour_ago numeric, pct numeric,
           window_used integer, pct_3hour numeric, volume_24h numeric, ts timestamptz, quoted_at timestamptz,
           volume_24h_usd numeric, liquidity_usd numeric, spread_pct numeric, thin boolean, confirmed_on text[],
           flags text[], trust_score integer, asset text, pool_name text
         )) with ordinality as x (id, instrument_id, symbol, exchange, exchange_type, network, source, pool_url,
                                  price, price_3hour_ago, pct, window_used, pct_3hour, volume_24h, ts,
                                  quoted_at, volume_24h_usd, liquidity_usd, spread_pct, thin, confirmed_on,
                                  flags, trust_score, asset, pool_name, ord)
    left join venues v on v.source = x.source
    where t.window_minutes = w
    order by x.ord;
end;
$$;
revoke execute on function public.movers_feed(integer) from public, anon;
grant execute on function public.movers_feed(integer) to authenticated, service_role;
comment on function public.movers_feed(integer) is
  'The window''s top 100 movers for an active subscriber (flagged and thin moves ranked lower), each with its venue quote time, the time through which its venue confirmed it (decision 0079) and trust fields (decision 0046).';
