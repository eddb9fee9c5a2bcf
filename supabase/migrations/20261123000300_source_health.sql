-- Source health (issue 13, decision 0019): each market source's state after every scan — live,
-- backing off (until when), or failing (with what) — and when it last delivered quotes. The scan
-- function records it through public.record_source_health (service role); anyone may read it:
-- the dashboard shows it to subscribers and /api/health lists it (nothing in it is private).

create table public.source_health (
  source text primary key check (source ~ '^[a-z][a-z0-9_-]{0,39}$'),
  state text not null check (state in ('ok', 'backoff', 'failing')),
  -- Quotes delivered by the last scan.
  quotes integer not null default 0 check (quotes >= 0),
  -- Why the last scan failed: network, timeout, http, parse, empty, config or other (the SPA
  -- words it; a kind the table does not know is stored as other).
  failure text check (failure in ('network', 'timeout', 'http', 'parse', 'empty', 'config', 'other')),
  http_status integer check (http_status between 100 and 599),
  -- The adapter's own words, for operators (English, at most 300 characters).
  message text check (char_length(message) <= 300),
  backoff_until timestamptz,
  last_attempt_at timestamptz not null,
  last_success_at timestamptz,
  check ((state = 'failing') = (failure is not null)),
  check ((state = 'backoff') = (backoff_until is not null))
);
alter table public.source_health enable row level security;
comment on table public.source_health is
  'Each market source''s state after the latest scan (live, backing off, failing) and its last success.';

revoke insert, update, delete on public.source_health from anon, authenticated;
grant select on public.source_health to anon, authenticated;
create policy "source health: visitors read" on public.source_health
  for select to anon using (true);
create policy "source health: users read" on public.source_health
  for select to authenticated using (true);

-- reports: [{ source, state, quotes, failure, httpStatus, message, backoffUntil }], one per source
-- the scan read. A source that delivered quotes moves last_success_at to scanned_at.
create function public.record_source_health(reports jsonb, scanned_at timestamptz default now())
returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  written integer;
begin
  if reports is null or jsonb_typeof(reports) <> 'array' then
    raise exception 'reports must be a JSON array' using errcode = '22023';
  end if;
  scanned_at := coalesce(scanned_at, now());
  insert into public.source_health as h (source, state, quotes, failure, http_status, message, backoff_until,
                                         last_attempt_at, last_success_at)
  select r.source, r.state, coalesce(r.quotes, 0),
         case when r.state = 'failing' then
           case when r.failure in ('network', 'timeout', 'http', 'parse', 'empty', 'config') then r.failure
                else 'other' end
         end,
         case when r.state = 'failing' and r."httpStatus" between 100 and 599 then r."httpStatus" end,
         left(r.message, 300),
         case when r.state = 'backoff' then coalesce(r."backoffUntil", scanned_at) end,
         scanned_at,
         case when r.state = 'ok' and coalesce(r.quotes, 0) > 0 then scanned_at end
  from jsonb_to_recordset(reports) as r (source text, state text, quotes integer, failure text,
                                         "httpStatus" integer, message text, "backoffUntil" timestamptz)
  where r.source ~ '^[a-z][a-z0-9_-]{0,39}$'
    and r.state in ('ok', 'backoff', 'failing')
  on conflict (source) do update
    set state = excluded.state, quotes = excluded.quotes, failure = excluded.failure,
        http_status = excluded.http_status, message = excluded.message,
        backoff_until = excluded.backoff_until, last_attempt_at = excluded.last_attempt_at,
        last_success_at = coalesce(excluded.last_success_at, h.last_success_at);
  get diagnostics written = row_count;
  return written;
end;
$$;
revoke execute on function public.record_source_health(jsonb, timestamptz) from public, anon, authenticated;
grant execute on function public.record_source_health(jsonb, timestamptz) to service_role;
comment on function public.record_source_health(jsonb, timestamptz) is
  'The scan''s per-source outcome: state, quotes, failure, back-off; service role only (decision 0019).';
