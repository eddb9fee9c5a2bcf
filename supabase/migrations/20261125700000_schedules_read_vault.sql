-- The scan's and the delivery worker's schedules read their URL and bearer secret from Supabase
-- Vault (vault.decrypted_secrets), as Supabase's "Scheduling Edge Functions" guide does with
-- pg_cron + pg_net, instead of plain rows in private.app_settings. `npm run deploy` stores them:
--   select vault.create_secret('https://<ref>.supabase.co/functions/v1/scan', 'scan_url');
--   select vault.create_secret('https://<ref>.supabase.co/functions/v1/deliver-alerts', 'delivery_url');
--   select vault.create_secret('<the SCAN_SECRET function secret>', 'scan_secret');
-- The local stack provides the same vault interface (devstack/platform.sql). Values an older
-- deployment kept in private.app_settings move into Vault here and leave that table.
-- Guarded as before: without pg_net the functions return null and nothing is sent.

do $$
declare
  setting record;
begin
  for setting in
    select s.key, s.value from private.app_settings s
    where s.key in ('scan_url', 'scan_secret', 'delivery_url') and coalesce(s.value, '') <> ''
  loop
    if not exists (select 1 from vault.decrypted_secrets d where d.name = setting.key) then
      perform vault.create_secret(setting.value, setting.key);
    end if;
  end loop;
  delete from private.app_settings s where s.key in ('scan_url', 'scan_secret', 'delivery_url');
end;
$$;

-- One named secret from Vault, or null.
create function private.vault_secret(secret_name text) returns text
  language sql stable security definer
  set search_path = ''
as $$
  select d.decrypted_secret from vault.decrypted_secrets d where d.name = secret_name
  order by d.created_at desc limit 1;
$$;
revoke execute on function private.vault_secret(text) from public, anon, authenticated;

-- POSTs `{}` to the function at the Vault secret `url_name` with the bearer `scan_secret`;
-- null when either secret is missing or pg_net is not installed.
create function private.invoke_function(url_name text) returns bigint
  language plpgsql security definer
  set search_path = ''
as $$
declare
  url text := private.vault_secret(url_name);
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
    using url, '{}'::jsonb,
          jsonb_build_object('Authorization', 'Bearer ' || secret, 'Content-Type', 'application/json'), 30000;
  return request_id;
end;
$$;
revoke execute on function private.invoke_function(text) from public, anon, authenticated;

create or replace function private.invoke_scan() returns bigint
  language sql security definer
  set search_path = ''
as $$
  select private.invoke_function('scan_url');
$$;

create or replace function private.invoke_delivery() returns bigint
  language sql security definer
  set search_path = ''
as $$
  select private.invoke_function('delivery_url');
$$;
revoke execute on function private.invoke_scan(), private.invoke_delivery() from public, anon, authenticated;
