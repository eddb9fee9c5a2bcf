-- The reader's own clock (issues 24 and 28): an IANA time zone per profile, used by the SPA to show
-- times, by quiet hours and daily caps of market alerts, and by alert and ticket messages.
-- Null means "not chosen yet": the SPA uses the browser's zone and saves it on the first settings save;
-- messages fall back to UTC.

-- True when `zone` is a time zone name this server knows (pg_timezone_names, the IANA database).
create function private.is_time_zone(zone text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (select 1 from pg_catalog.pg_timezone_names where name = zone)
$$;
revoke execute on function private.is_time_zone(text) from public, anon, authenticated;

-- A check constraint may not query a catalog view, so a trigger validates the zone.
create function private.profiles_check_time_zone()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.time_zone is not null and not private.is_time_zone(new.time_zone) then
    raise exception 'Unknown time zone: %', new.time_zone
      using errcode = '22023', hint = 'Use an IANA zone name such as Europe/Berlin.';
  end if;
  return new;
end;
$$;

alter table public.profiles
  add column time_zone text,
  add constraint profiles_time_zone_length check (time_zone is null or char_length(time_zone) between 1 and 64);
comment on column public.profiles.time_zone is 'IANA time zone of the reader (null: browser zone in the SPA, UTC in messages).';

create trigger profiles_check_time_zone
  before insert or update of time_zone on public.profiles
  for each row execute function private.profiles_check_time_zone();

grant update (time_zone) on public.profiles to authenticated;
