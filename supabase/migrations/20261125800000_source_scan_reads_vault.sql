-- The per-venue scan schedules (20261125300000_venue_time) read their URL and bearer from Vault,
-- like the scan's and the delivery worker's (20261125700000_schedules_read_vault), which moved
-- those values out of private.app_settings. Guarded as before: without the secrets or pg_net the
-- call returns null and nothing is sent.
create or replace function private.invoke_source_scan(sources text[]) returns bigint
  language plpgsql security definer
  set search_path = ''
as $$
declare
  url text := private.vault_secret('scan_url');
  secret text := private.vault_secret('scan_secret');
  request_id bigint;
begin
  if coalesce(url, '') = '' or coalesce(secret, '') = ''
     or not exists (select 1 from pg_catalog.pg_extension where extname = 'pg_net') then
    return null;
  end if;
  -- Dynamic, so that this function compiles where the net schema does not exist.
  execute 'select net.http_post(url := $1, body := $2, headers := $3, timeout_milliseconds := $4)'
    into request_id
    using url, jsonb_build_object('sources', to_jsonb(sources)),
          jsonb_build_object('Authorization', 'Bearer ' || secret, 'Content-Type', 'application/json'), 30000;
  return request_id;
end;
$$;
revoke execute on function private.invoke_source_scan(text[]) from public, anon, authenticated;
