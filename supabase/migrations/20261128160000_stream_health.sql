-- Stream health (issue 25, decision 0061): the streaming reader beside the project (decisions
-- 0034, 0054) records its own state, one row per venue stream: connected or dropped, since when,
-- how many reconnects, and when the venue last said something (a quote or a heartbeat). The
-- reader writes it once a second through public.record_stream_health (service role); anyone may
-- read it, like public.source_health: the dashboard's Sources line shows it, /api/health lists it,
-- and the scan reads it to poll a venue slowly while its stream is live.

create table public.stream_health (
  source text primary key check (source ~ '^[a-z][a-z0-9_-]{0,39}$'),
  -- connected: the socket is open and the venue spoke within the reader's silence limit (5 s);
  -- dropped: the socket closed or fell silent, the reader is reconnecting and polling carries the venue.
  state text not null check (state in ('connected', 'dropped')),
  connected_since timestamptz,
  dropped_at timestamptz,
  -- Connections opened after the first one since the reader started.
  reconnects integer not null default 0 check (reconnects >= 0),
  -- The reader's clock when the venue last sent a quote or a heartbeat.
  last_message_at timestamptz,
  -- Quotes handed to ingest_scan in the last second's batch.
  quotes integer not null default 0 check (quotes >= 0),
  -- The database's clock at the report: a reader that stopped reporting is a reader that stopped.
  reported_at timestamptz not null default now(),
  check ((state = 'connected') = (connected_since is not null)),
  check ((state = 'dropped') = (dropped_at is not null))
);
alter table public.stream_health enable row level security;
comment on table public.stream_health is
  'Each venue stream''s state as its reader last reported it (connected or dropped, reconnects, last message); decision 0061.';

revoke insert, update, delete on public.stream_health from anon, authenticated;
grant select on public.stream_health to anon, authenticated;
create policy "stream health: visitors read" on public.stream_health
  for select to anon using (true);
create policy "stream health: users read" on public.stream_health
  for select to authenticated using (true);

-- report: { source, state, connectedSince, droppedAt, reconnects, lastMessageAt, quotes }. One
-- report a second per stream; a malformed report is refused with 22023, never stored half.
create function public.record_stream_health(report jsonb)
returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  r record;
begin
  if report is null or jsonb_typeof(report) <> 'object' then
    raise exception 'report must be a JSON object' using errcode = '22023';
  end if;
  select * into r from jsonb_to_record(report) as x (source text, state text, "connectedSince" timestamptz,
    "droppedAt" timestamptz, reconnects integer, "lastMessageAt" timestamptz, quotes integer);
  if r.source is null or r.source !~ '^[a-z][a-z0-9_-]{0,39}$' then
    raise exception 'source must be a source name' using errcode = '22023';
  end if;
  if r.state is null or r.state not in ('connected', 'dropped') then
    raise exception 'state must be connected or dropped' using errcode = '22023';
  end if;
  insert into public.stream_health as h (source, state, connected_since, dropped_at, reconnects,
                                         last_message_at, quotes, reported_at)
  values (r.source, r.state,
          case when r.state = 'connected' then coalesce(r."connectedSince", now()) end,
          case when r.state = 'dropped' then coalesce(r."droppedAt", now()) end,
          greatest(coalesce(r.reconnects, 0), 0),
          r."lastMessageAt",
          greatest(coalesce(r.quotes, 0), 0),
          now())
  on conflict (source) do update
    set state = excluded.state, connected_since = excluded.connected_since,
        dropped_at = excluded.dropped_at, reconnects = excluded.reconnects,
        last_message_at = coalesce(excluded.last_message_at, h.last_message_at),
        quotes = excluded.quotes, reported_at = excluded.reported_at;
end;
$$;
revoke execute on function public.record_stream_health(jsonb) from public, anon, authenticated;
grant execute on function public.record_stream_health(jsonb) to service_role;
comment on function public.record_stream_health(jsonb) is
  'A streaming reader''s state once a second: connected or dropped, reconnects, last message; service role only (decision 0061).';
