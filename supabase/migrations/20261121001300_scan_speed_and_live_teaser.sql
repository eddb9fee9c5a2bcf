-- Scan ingest at 10k instruments, the movers feed under load, stale movers and the live landing
-- strip (decision 0010, "Second pass").
--
-- 1. Writes: movers are updated in place by every scan. Without an index on a column the scan
--    changes, and with free room on each page, those updates are HOT (no index entry per row per
--    scan): movers_ts_idx goes, and movers pages are half filled. price_history loses its foreign
--    key: only ingest_scan writes it (service role), with ids it has just read from instruments in
--    the same transaction, and the per-row check cost ~30 ms per 10k samples. Statement triggers
--    on instruments keep the old ON DELETE CASCADE (and TRUNCATE ... CASCADE).
-- 2. Reads: each window's top 100 (what the scan broadcasts and movers_feed returns) is kept in
--    private.movers_top, refreshed after every statement that changes movers (once per scan), so
--    a dashboard load reads 100 stored entries instead of ranking every mover.
-- 3. Stale movers: a mover not quoted for 15 minutes (a delisted pair, a pool that left the
--    trending list, a venue that stays down) is removed by the next scan.
-- 4. The landing strip: movers_teaser shows the three strongest current gainers, and every scan
--    sends them on the topic market:teaser, which anyone may receive (not send).

-- ---------------------------------------------------------------------------------------------
-- 1. Writes
-- ---------------------------------------------------------------------------------------------
drop index public.movers_ts_idx;
alter table public.movers set (fillfactor = 50);

alter table public.price_history drop constraint price_history_instrument_id_fkey;

create function private.delete_instrument_history() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  delete from public.price_history h using gone g where h.instrument_id = g.id;
  return null;
end;
$$;
revoke execute on function private.delete_instrument_history() from public, anon, authenticated;
create trigger instruments_delete_history after delete on public.instruments
  referencing old table as gone
  for each statement execute function private.delete_instrument_history();

create function private.truncate_instrument_history() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  truncate public.price_history;
  return null;
end;
$$;
revoke execute on function private.truncate_instrument_history() from public, anon, authenticated;
create trigger instruments_truncate_history after truncate on public.instruments
  for each statement execute function private.truncate_instrument_history();

-- ---------------------------------------------------------------------------------------------
-- 2. Each window's top 100, kept
-- ---------------------------------------------------------------------------------------------
create table private.movers_top (
  window_minutes integer primary key check (window_minutes in (0, 5, 10, 15, 20, 25, 30)),
  -- movers_feed rows as JSON objects, strongest first (the broadcast's 'entries').
  entries jsonb not null default '[]' check (jsonb_typeof(entries) = 'array'),
  refreshed_at timestamptz not null default now()
);
alter table private.movers_top enable row level security;
comment on table private.movers_top is
  'Each window''s top 100 movers as movers_feed returns them; refreshed after every change of public.movers.';

-- Ranks every window (absolute change of the window, then recency, then id) and stores the first
-- 100 of each. Refreshes are serialised, so each one ranks the movers as they are once the
-- previous refresh has committed.
create function private.refresh_movers_top() returns void
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('private.refresh_movers_top'));
  insert into private.movers_top as t (window_minutes, entries, refreshed_at)
  select w.w,
         coalesce((
           select jsonb_agg(to_jsonb(e) order by abs(e.pct) desc, e.ts desc, e.id desc)
           from (
             select m.id, m.instrument_id, m.symbol, m.exchange, m.exchange_type, m.network, m.source,
                    m.pool_url, m.price, m.price_3hour_ago,
                    coalesce(case w.w
                      when 0 then m.pct_10sec when 5 then m.pct_5min when 10 then m.pct_10min
                      when 15 then m.pct_15min when 20 then m.pct_20min when 25 then m.pct_25min
                      else m.pct_30min end, m.pct) as pct,
                    w.w as window_used, m.pct_3hour, m.volume_24h, m.ts
             from public.movers m
             -- Ranking ids alone (narrow rows) is twice as fast as ranking whole rows.
             where m.id in (
               select k.id from public.movers k
               order by abs(coalesce(case w.w
                          when 0 then k.pct_10sec when 5 then k.pct_5min when 10 then k.pct_10min
                          when 15 then k.pct_15min when 20 then k.pct_20min when 25 then k.pct_25min
                          else k.pct_30min end, k.pct)) desc, k.ts desc, k.id desc
               limit 100)
           ) e
         ), '[]'::jsonb),
         now()
  from unnest(array[0, 5, 10, 15, 20, 25, 30]) as w (w)
  on conflict (window_minutes) do update set entries = excluded.entries, refreshed_at = excluded.refreshed_at;
end;
$$;

-- After any change of movers. ingest_scan defers it (app.movers_top_deferred) and refreshes once.
create function private.movers_changed() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if coalesce(current_setting('app.movers_top_deferred', true), '') <> 'on' then
    perform private.refresh_movers_top();
  end if;
  return null;
end;
$$;
revoke execute on function private.refresh_movers_top(), private.movers_changed() from public, anon, authenticated;
create trigger movers_refresh_top after insert or update or delete or truncate on public.movers
  for each statement execute function private.movers_changed();

select private.refresh_movers_top();

-- The feed reads the kept list; rules and errors are those of 20261121001100.
create or replace function public.movers_feed(window_minutes integer default null)
returns table (
  id bigint, instrument_id bigint, symbol text, exchange text, exchange_type public.exchange_type,
  network text, source text, pool_url text, price numeric, price_3hour_ago numeric,
  pct numeric, window_used integer, pct_3hour numeric, volume_24h numeric, ts timestamptz
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
    select x.id, x.instrument_id, x.symbol, x.exchange, x.exchange_type, x.network, x.source, x.pool_url,
           x.price, x.price_3hour_ago, x.pct, x.window_used, x.pct_3hour, x.volume_24h, x.ts
    from private.movers_top t,
         rows from (jsonb_to_recordset(t.entries) as (
           id bigint, instrument_id bigint, symbol text, exchange text, exchange_type public.exchange_type,
           network text, source text, pool_url text, price numeric, price_3hour_ago numeric, pct numeric,
           window_used integer, pct_3hour numeric, volume_24h numeric, ts timestamptz
         )) with ordinality as x (id, instrument_id, symbol, exchange, exchange_type, network, source, pool_url,
                                  price, price_3hour_ago, pct, window_used, pct_3hour, volume_24h, ts, ord)
    where t.window_minutes = w
    order by x.ord;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 4. The landing strip: the three strongest gainers (30-minute change, else the generic percent)
--    among the current movers (stale ones are gone), then the newest, for anyone.
-- ---------------------------------------------------------------------------------------------
create or replace view public.movers_teaser
  with (security_invoker = false)
as
  select m.id, m.symbol, m.exchange, coalesce(m.pct_30min, m.pct) as pct, m.price, m.ts
  from public.movers m
  order by coalesce(m.pct_30min, m.pct) desc, m.ts desc, m.id desc
  limit 3;
comment on view public.movers_teaser is
  'Deliberately definer-rights: exposes the three strongest current gainers to anonymous visitors.';

-- market:teaser carries the teaser; anyone may receive it. One select policy per role: anon gets
-- this one; authenticated gets the teaser branch in its policy below.
create policy "realtime: anyone receives the landing teaser" on realtime.messages
  for select to anon
  using ((select realtime.topic()) = 'market:teaser' and extension = 'broadcast');

drop policy "realtime: members, ticket parties and subscribers receive their topics" on realtime.messages;
create policy "realtime: members, ticket parties and subscribers receive their topics" on realtime.messages
  for select to authenticated
  using (
    case
      -- group:<uuid>: active members of the group, broadcast and presence.
      when (select realtime.topic()) ~ '^group:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then
        extension in ('broadcast', 'presence')
        and (select private.is_active_user())
        and (select private.is_group_member(
          case when realtime.topic() ~ '^group:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
            then substr(realtime.topic(), 7)::uuid end))
      -- ticket:<uuid>: the ticket's owner while not banned, and admins, broadcast only.
      when (select realtime.topic()) ~ '^ticket:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then
        extension = 'broadcast'
        and (
          (select private.is_admin())
          or (
            (select private.is_active_user())
            and (select private.owns_ticket(
              case when realtime.topic() ~ '^ticket:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
                then substr(realtime.topic(), 8)::uuid end))
          )
        )
      -- market:movers:<minutes>: active subscribers, for the windows of their plan, broadcast only.
      when (select realtime.topic()) like 'market:movers:%' then
        extension = 'broadcast'
        and (select private.has_active_plan())
        and (select realtime.topic() = any (
          select 'market:movers:' || w::text from unnest(public.allowed_windows(private.current_plan())) as w))
      -- market:teaser: the landing strip, for everyone, broadcast only.
      when (select realtime.topic()) = 'market:teaser' then
        extension = 'broadcast'
      else false
    end
  );

-- A scan's broadcast: when a mover changed since `since`, each window's kept top 100 on
-- market:movers:<window> (the same list movers_feed returns, so a client's live list and a
-- refetch agree, also for the venues and networks this scan did not read), and the teaser on
-- market:teaser. Returns the number of messages sent on market:movers:*.
create or replace function private.broadcast_movers(since timestamptz) returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  top record;
  sent integer := 0;
begin
  if not exists (select 1 from public.movers m where m.ts >= since) then
    return 0;
  end if;
  for top in select t.window_minutes, t.entries from private.movers_top t order by t.window_minutes loop
    if jsonb_array_length(top.entries) > 0 then
      perform realtime.send(
        jsonb_build_object('window', top.window_minutes, 'scanned_at', now(), 'entries', top.entries),
        'movers', 'market:movers:' || top.window_minutes, true
      );
      sent := sent + 1;
    end if;
  end loop;
  perform realtime.send(
    jsonb_build_object('scanned_at', now(), 'entries',
      coalesce((select jsonb_agg(to_jsonb(t)) from public.movers_teaser t), '[]'::jsonb)),
    'teaser', 'market:teaser', true
  );
  return sent;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 3. + 1. The scan. Window rule, validation and result are those of 20261121000900; what changed:
--   - instruments are written only when new or changed, and read once, in id order, with every
--     column the movers need (no join and no sort when the movers are written);
--   - movers not quoted for 15 minutes are removed;
--   - the kept top 100 is refreshed once, after the movers are written.
-- ---------------------------------------------------------------------------------------------
create or replace function public.ingest_scan(quotes jsonb, scanned_at timestamptz default now())
returns jsonb
  language plpgsql security definer
  set search_path = ''
  -- The window query's estimated cost crosses jit_above_cost; compiling it costs more than it saves.
  set jit = off
as $$
declare
  retention constant interval := interval '200 minutes';
  stale_after constant interval := interval '15 minutes';
  -- The batch as parallel arrays (one element per accepted quote): arrays of scalars unnest
  -- fast; an array of composites does not.
  symbols text[];
  exchanges text[];
  types public.exchange_type[];
  networks text[];
  sources text[];
  pool_urls text[];
  ids bigint[];
  prices numeric[];
  volumes numeric[];
  stamps timestamptz[];
  valid_stamps jsonb;
  received integer;
  accepted integer;
  upserted integer;
  removed integer;
  pruned integer;
  sent integer := 0;
begin
  if quotes is null or jsonb_typeof(quotes) <> 'array' then
    raise exception 'quotes must be a JSON array of quotes' using errcode = '22023';
  end if;
  scanned_at := coalesce(scanned_at, now());
  received := jsonb_array_length(quotes);

  -- Scans run one at a time: an overlapping scan waits instead of racing for the same rows.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('public.ingest_scan'));

  -- 1. Validate. A quote that would violate a constraint is skipped (and counted), not fatal.
  --    Every cast sits behind the test that makes it safe (CASE keeps the order).
  --    Each distinct `ts` text is checked once (a scan's quotes share a few stamps): ISO 8601 date
  --    and time, then a day that exists in its month. valid_stamps maps the texts that pass to
  --    themselves and the others to null.
  select coalesce(jsonb_object_agg(s.t,
           case when s.t ~ '^[1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,9})?)?([Zz]|[+-](0[0-9]|1[0-4])(:?[0-5][0-9])?)?$'
             then case when substr(s.t, 9, 2)::int <= extract(day from
                              make_date(substr(s.t, 1, 4)::int, substr(s.t, 6, 2)::int, 1) + interval '1 month - 1 day')
                    then s.t end
           end), '{}'::jsonb)
    into valid_stamps
  from (select distinct e.value ->> 'ts' as t from jsonb_array_elements(quotes) e
        where jsonb_typeof(e.value -> 'ts') = 'string') s;

  with raw as (
    select e.value as q, e.ordinality as ord
    from jsonb_array_elements(quotes) with ordinality e
    where jsonb_typeof(e.value) = 'object'
  ),
  -- Materialized, so each quote is parsed once (inlined, the parse would be repeated per use).
  fields as materialized (
    select r.ord,
           case when jsonb_typeof(r.q -> 'symbol') = 'string' then r.q ->> 'symbol' end as symbol,
           case when jsonb_typeof(r.q -> 'exchange') = 'string' then r.q ->> 'exchange' end as exchange,
           case when r.q ->> 'exchangeType' in ('cex', 'dex') and jsonb_typeof(r.q -> 'exchangeType') = 'string'
             then (r.q ->> 'exchangeType')::public.exchange_type end as exchange_type,
           coalesce(jsonb_typeof(r.q -> 'network'), 'null') as network_type, r.q ->> 'network' as network,
           coalesce(jsonb_typeof(r.q -> 'source'), 'null') as source_type, r.q ->> 'source' as source,
           coalesce(jsonb_typeof(r.q -> 'poolUrl'), 'null') as pool_url_type, r.q ->> 'poolUrl' as pool_url,
           case when jsonb_typeof(r.q -> 'price') = 'number' then (r.q ->> 'price')::numeric end as price,
           coalesce(jsonb_typeof(r.q -> 'volume24h'), 'null') as volume_type,
           case when jsonb_typeof(r.q -> 'volume24h') = 'number' then (r.q ->> 'volume24h')::numeric end as volume_24h,
           coalesce(jsonb_typeof(r.q -> 'ts'), 'null') as ts_type,
           -- Null unless the text passed the check above.
           case when jsonb_typeof(r.q -> 'ts') = 'string' then (valid_stamps ->> (r.q ->> 'ts'))::timestamptz end as ts
    from raw r
  ),
  valid as (
    select f.ord, f.symbol, f.exchange, f.exchange_type,
           case when f.network_type = 'string' then f.network end as network,
           case when f.source_type = 'string' then f.source else 'simulated' end as source,
           case when f.pool_url_type = 'string' then f.pool_url end as pool_url,
           f.price, f.volume_24h,
           case when f.ts_type = 'null' then scanned_at else f.ts end as ts
    from fields f
    where char_length(f.symbol) between 1 and 64
      and char_length(f.exchange) between 1 and 120
      and f.exchange_type is not null
      and (f.network_type = 'null' or (f.network_type = 'string' and char_length(f.network) between 1 and 64))
      and (f.source_type = 'null' or (f.source_type = 'string' and char_length(f.source) between 1 and 40))
      and (f.pool_url_type = 'null'
           or (f.pool_url_type = 'string' and f.pool_url ~ '^https://[^[:space:]]+$' and char_length(f.pool_url) <= 2048))
      and f.price > 0
      and (f.volume_type = 'null' or f.volume_24h >= 0)
      and (f.ts_type = 'null' or f.ts is not null)
  ),
  -- One quote per instrument: the latest (then the last in the array); the others are skipped.
  one as (
    select distinct on (v.symbol, v.exchange) v.*
    from valid v
    where v.ts > scanned_at - retention and v.ts <= scanned_at + interval '1 minute'
    order by v.symbol, v.exchange, v.ts desc, v.ord desc
  )
  select coalesce(array_agg(o.symbol), '{}'), array_agg(o.exchange), array_agg(o.exchange_type),
         array_agg(o.network), array_agg(o.source), array_agg(o.pool_url), array_agg(o.price),
         array_agg(o.volume_24h), array_agg(o.ts)
    into symbols, exchanges, types, networks, sources, pool_urls, prices, volumes, stamps
  from one o;
  accepted := cardinality(symbols);

  -- 2. Instruments: new ones are inserted; known ones are updated only when something changed
  --    (a network or pool link the quote does not know is kept); unchanged ones are not touched.
  --    In key order, so concurrent writers cannot deadlock.
  insert into public.instruments as i (symbol, exchange, exchange_type, network, source, pool_url)
  select b.symbol, b.exchange, b.exchange_type, b.network, b.source, b.pool_url
  from unnest(symbols, exchanges, types, networks, sources, pool_urls)
         as b (symbol, exchange, exchange_type, network, source, pool_url)
  left join public.instruments k on k.symbol = b.symbol and k.exchange = b.exchange
  where k.id is null
     or (k.exchange_type, k.network, k.source, k.pool_url)
        is distinct from (b.exchange_type, coalesce(b.network, k.network), b.source, coalesce(b.pool_url, k.pool_url))
  order by b.symbol, b.exchange
  on conflict (symbol, exchange) do update
    set exchange_type = excluded.exchange_type,
        network = coalesce(excluded.network, i.network),
        source = excluded.source,
        pool_url = coalesce(excluded.pool_url, i.pool_url)
    where (i.exchange_type, i.network, i.source, i.pool_url)
          is distinct from (excluded.exchange_type, coalesce(excluded.network, i.network), excluded.source,
                            coalesce(excluded.pool_url, i.pool_url));

  -- From here on the batch is keyed by instrument id, in id order, with the instrument's stored
  -- attributes. (One aggregate pass keeps the arrays aligned.)
  select coalesce(array_agg(s.id), '{}'), array_agg(s.symbol), array_agg(s.exchange), array_agg(s.exchange_type),
         array_agg(s.network), array_agg(s.source), array_agg(s.pool_url), array_agg(s.price),
         array_agg(s.volume_24h), array_agg(s.ts)
    into ids, symbols, exchanges, types, networks, sources, pool_urls, prices, volumes, stamps
  from (
    select i.id, i.symbol, i.exchange, i.exchange_type, i.network, i.source, i.pool_url, b.price, b.volume_24h, b.ts
    from unnest(symbols, exchanges, prices, volumes, stamps) as b (symbol, exchange, price, volume_24h, ts)
    join public.instruments i on i.symbol = b.symbol and i.exchange = b.exchange
    order by i.id
  ) s;

  -- 3. History: one sample per quote (a sample already stored for that instant is kept).
  insert into public.price_history (instrument_id, ts, price, volume_24h)
  select b.instrument_id, b.ts, b.price, b.volume_24h
  from unnest(ids, stamps, prices, volumes) as b (instrument_id, ts, price, volume_24h)
  on conflict (instrument_id, ts) do nothing;

  -- 4. Windows and movers; the kept top 100 is refreshed once, below.
  perform pg_catalog.set_config('app.movers_top_deferred', 'on', true);
  -- refs is materialized: each window's probes run once per instrument, however often pcts
  -- refers to the reference.
  with refs as materialized (
    select b.*,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '10 seconds' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '10 seconds' and h.ts <= b.ts - interval '5 seconds' order by h.ts limit 1)
      ) as r_10sec,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '5 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '5 minutes' and h.ts <= b.ts - interval '150 seconds' order by h.ts limit 1)
      ) as r_5min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '10 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '10 minutes' and h.ts <= b.ts - interval '5 minutes' order by h.ts limit 1)
      ) as r_10min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '15 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '15 minutes' and h.ts <= b.ts - interval '450 seconds' order by h.ts limit 1)
      ) as r_15min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '20 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '20 minutes' and h.ts <= b.ts - interval '10 minutes' order by h.ts limit 1)
      ) as r_20min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '25 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '25 minutes' and h.ts <= b.ts - interval '750 seconds' order by h.ts limit 1)
      ) as r_25min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '30 minutes' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '30 minutes' and h.ts <= b.ts - interval '15 minutes' order by h.ts limit 1)
      ) as r_30min,
      coalesce(
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts <= b.ts - interval '3 hours' order by h.ts desc limit 1),
        (select h.price from public.price_history h where h.instrument_id = b.instrument_id
           and h.ts > b.ts - interval '3 hours' and h.ts <= b.ts - interval '90 minutes' order by h.ts limit 1)
      ) as r_3hour
    from unnest(ids, symbols, exchanges, types, networks, sources, pool_urls, stamps, prices, volumes)
           as b (instrument_id, symbol, exchange, exchange_type, network, source, pool_url, ts, price, volume_24h)
  ),
  pcts as (
    select r.*,
           round(100 * (r.price - r.r_10sec) / nullif(r.r_10sec, 0), 4) as p_10sec,
           round(100 * (r.price - r.r_5min) / nullif(r.r_5min, 0), 4) as p_5min,
           round(100 * (r.price - r.r_10min) / nullif(r.r_10min, 0), 4) as p_10min,
           round(100 * (r.price - r.r_15min) / nullif(r.r_15min, 0), 4) as p_15min,
           round(100 * (r.price - r.r_20min) / nullif(r.r_20min, 0), 4) as p_20min,
           round(100 * (r.price - r.r_25min) / nullif(r.r_25min, 0), 4) as p_25min,
           round(100 * (r.price - r.r_30min) / nullif(r.r_30min, 0), 4) as p_30min,
           round(100 * (r.price - r.r_3hour) / nullif(r.r_3hour, 0), 4) as p_3hour
    from refs r
  ),
  -- Known movers are updated in place (a join, cheaper than a speculative insert per row), in
  -- instrument id order; new ones are inserted.
  updated as (
    update public.movers m
      set symbol = p.symbol, exchange = p.exchange, exchange_type = p.exchange_type, network = p.network,
          source = p.source, pool_url = p.pool_url, price = p.price, price_3hour_ago = p.r_3hour,
          pct = coalesce(p.p_30min, p.p_25min, p.p_20min, p.p_15min, p.p_10min, p.p_5min, p.p_10sec, 0),
          pct_10sec = p.p_10sec, pct_5min = p.p_5min, pct_10min = p.p_10min, pct_15min = p.p_15min,
          pct_20min = p.p_20min, pct_25min = p.p_25min, pct_30min = p.p_30min, pct_3hour = p.p_3hour,
          volume_24h = p.volume_24h, ts = scanned_at
    from pcts p
    where m.instrument_id = p.instrument_id
    returning m.instrument_id
  ),
  inserted as (
    insert into public.movers (instrument_id, symbol, exchange, exchange_type, network, source, pool_url, price,
                               price_3hour_ago, pct, pct_10sec, pct_5min, pct_10min, pct_15min, pct_20min,
                               pct_25min, pct_30min, pct_3hour, volume_24h, ts)
    select p.instrument_id, p.symbol, p.exchange, p.exchange_type, p.network, p.source, p.pool_url, p.price,
           p.r_3hour, coalesce(p.p_30min, p.p_25min, p.p_20min, p.p_15min, p.p_10min, p.p_5min, p.p_10sec, 0),
           p.p_10sec, p.p_5min, p.p_10min, p.p_15min, p.p_20min, p.p_25min, p.p_30min, p.p_3hour, p.volume_24h,
           scanned_at
    from pcts p
    where not exists (select 1 from public.movers k where k.instrument_id = p.instrument_id)
    order by p.instrument_id
    on conflict (instrument_id) do nothing
    returning instrument_id
  )
  select (select count(*) from updated) + (select count(*) from inserted) into upserted;

  -- Stale movers: not quoted for 15 minutes.
  delete from public.movers m where m.ts < scanned_at - stale_after;
  get diagnostics removed = row_count;

  perform pg_catalog.set_config('app.movers_top_deferred', '', true);
  if upserted > 0 or removed > 0 then
    perform private.refresh_movers_top();
  end if;

  -- 5. Retention: a range delete on price_history_ts_idx.
  delete from public.price_history h where h.ts < scanned_at - retention;
  get diagnostics pruned = row_count;

  -- 6. One broadcast per scan: a message per window (market:movers:<window>) and the teaser.
  if upserted > 0 then
    sent := private.broadcast_movers(scanned_at);
  end if;

  return jsonb_build_object(
    'instruments', accepted,
    'movers', upserted,
    'stale', removed,
    'pruned', pruned,
    'broadcasts', sent,
    'skipped', received - accepted
  );
end;
$$;
