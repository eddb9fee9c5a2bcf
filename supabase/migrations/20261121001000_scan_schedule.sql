-- The scan's schedule on a hosted project: pg_cron calls private.invoke_scan() every few seconds,
-- which POSTs to the `scan` edge function with pg_net. Guarded: where pg_cron or pg_net is not
-- available (PGlite, a plain PostgreSQL, a project that has not enabled them) this migration only
-- creates the functions; the local stack's cron runner invokes the scan there instead.
--
-- Settings (private.app_settings, set with SQL as the postgres role; see decision 0010):
--   scan_url               the function's URL, https://<project-ref>.supabase.co/functions/v1/scan
--   scan_secret            the bearer token the scan function accepts
--   scan_interval_seconds  written by private.schedule_scan(); 10 unless changed
-- Without scan_url or scan_secret the job runs and does nothing.

-- One call of the scan function, or null when it is not configured (or pg_net is missing).
create function private.invoke_scan() returns bigint
  language plpgsql security definer
  set search_path = ''
as $$
declare
  url text;
  secret text;
  request_id bigint;
begin
  select max(s.value) filter (where s.key = 'scan_url'), max(s.value) filter (where s.key = 'scan_secret')
    into url, secret
  from private.app_settings s
  where s.key in ('scan_url', 'scan_secret');
  if coalesce(url, '') = '' or coalesce(secret, '') = ''
     or not exists (select 1 from pg_catalog.pg_extension where extname = 'pg_net') then
    return null;
  end if;
  -- Dynamic, so that this function compiles where the net schema does not exist.
  execute 'select net.http_post(url := $1, body := $2, headers := $3, timeout_milliseconds := $4)'
    into request_id
    using url, '{}'::jsonb,
          jsonb_build_object('Authorization', 'Bearer ' || secret, 'Content-Type', 'application/json'), 30000;
  return request_id;
end;
$$;

-- (Re)schedules the job 'market-scan' every `seconds` (default: the stored scan_interval_seconds,
-- else 10): 1 to 59 seconds (pg_cron 1.5 or newer), or whole minutes that divide an hour. Returns
-- the pg_cron job id. Raises 55000 when pg_cron or pg_net is not installed.
create function private.schedule_scan(seconds integer default null) returns bigint
  language plpgsql security definer
  set search_path = ''
as $$
declare
  secs integer;
  cron_version text;
  spec text;
  job bigint;
begin
  if not exists (select 1 from pg_catalog.pg_extension where extname = 'pg_cron')
     or not exists (select 1 from pg_catalog.pg_extension where extname = 'pg_net') then
    raise exception 'Scheduling the scan needs the pg_cron and pg_net extensions'
      using errcode = '55000',
            hint = 'Enable pg_cron and pg_net (Dashboard, Database, Extensions), then run select private.schedule_scan(). The local stack invokes the scan itself.';
  end if;
  secs := coalesce(seconds,
                   (select s.value::integer from private.app_settings s
                    where s.key = 'scan_interval_seconds' and s.value ~ '^[0-9]{1,5}$'),
                   10);
  if secs between 1 and 59 then
    select e.extversion into cron_version from pg_catalog.pg_extension e where e.extname = 'pg_cron';
    if string_to_array(split_part(cron_version, '-', 1), '.')::integer[] < array[1, 5] then
      raise exception 'pg_cron % cannot run a job every % seconds', cron_version, secs
        using errcode = '0A000', hint = 'pg_cron 1.5 or newer schedules in seconds; use 60 (every minute) here.';
    end if;
    spec := secs || ' seconds';
  elsif secs between 60 and 3600 and secs % 60 = 0 and 60 % (secs / 60) = 0 then
    spec := case when secs = 60 then '* * * * *' else '*/' || (secs / 60) || ' * * * *' end;
  else
    raise exception 'A scan interval of % seconds cannot be scheduled', secs
      using errcode = '22023', hint = '1 to 59 seconds, or whole minutes that divide an hour (60, 120, 300, ...).';
  end if;

  insert into private.app_settings (key, value) values ('scan_interval_seconds', secs::text)
  on conflict (key) do update set value = excluded.value, updated_at = now();
  execute 'select cron.unschedule(j.jobid) from cron.job j where j.jobname = $1' using 'market-scan';
  execute 'select cron.schedule($1, $2, $3)' into job using 'market-scan', spec, 'select private.invoke_scan()';
  return job;
end;
$$;

revoke execute on function private.invoke_scan(), private.schedule_scan(integer) from public, anon, authenticated;
grant execute on function private.schedule_scan(integer) to service_role;

-- Where both extensions can be installed (hosted Supabase), install them and schedule every 10
-- seconds. Any failure (no shared_preload_libraries entry, no privilege, an old pg_cron) leaves
-- the database unscheduled with a notice instead of failing the migration.
do $$
begin
  if exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_cron')
     and exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_net') then
    begin
      create extension if not exists pg_cron with schema pg_catalog;
      create extension if not exists pg_net with schema extensions;
      perform private.schedule_scan(10);
    exception when others then
      raise notice 'The scan is not scheduled: % (%)', sqlerrm, sqlstate;
    end;
  end if;
end;
$$;
