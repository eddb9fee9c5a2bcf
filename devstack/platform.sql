-- Platform SQL that hosted Supabase (and `supabase start`) already provide, applied by the
-- local stack before the project's migrations, and only where missing, so the same
-- migrations run on PGlite, plain PostgreSQL 15 and Supabase. Never applied in production.

-- Roles used by PostgREST, Auth and Storage.
do $platform$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator noinherit nologin;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'supabase_realtime_admin') then
    create role supabase_realtime_admin nologin noinherit;
  end if;
end
$platform$;

grant anon, authenticated, service_role to authenticator;

-- The extensions schema, with the extensions seed files and migrations rely on.
create schema if not exists extensions;
grant usage on schema extensions to anon, authenticated, service_role;
do $platform$
begin
  if not exists (select 1 from pg_extension where extname = 'pgcrypto') then
    create extension pgcrypto with schema extensions;
  end if;
end
$platform$;

-- Default privileges as on Supabase: table access is then decided by RLS.
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;

grant usage on schema auth to anon, authenticated, service_role;
grant execute on all functions in schema auth to anon, authenticated, service_role;

-- Realtime: the messages table that Broadcast authorisation and Broadcast from Database use,
-- and the functions Supabase provides (realtime.topic, realtime.send, realtime.broadcast_changes).
-- Locally, realtime.send stores the message and notifies the stack's Realtime stand-in.
create schema if not exists realtime;
grant usage on schema realtime to anon, authenticated, service_role;

create table if not exists realtime.messages (
  id uuid not null default gen_random_uuid(),
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp without time zone not null default now(),
  inserted_at timestamp without time zone not null default now(),
  primary key (id, inserted_at)
);
alter table realtime.messages enable row level security;
grant select, insert on realtime.messages to anon, authenticated, service_role;
create index if not exists messages_inserted_at_idx on realtime.messages (inserted_at);

do $platform$
begin
  if to_regprocedure('realtime.topic()') is null then
    create function realtime.topic() returns text
      language sql stable
      as $fn$ select nullif(current_setting('realtime.topic', true), '')::text $fn$;
  end if;

  if to_regprocedure('realtime.send(jsonb,text,text,boolean)') is null then
    create function realtime.send(payload jsonb, event text, topic text, private boolean default true)
      returns void
      language plpgsql
      security definer
      set search_path = ''
      as $fn$
      declare
        message_id uuid;
      begin
        insert into realtime.messages (payload, event, topic, private, extension)
        values (payload, event, topic, private, 'broadcast')
        returning id into message_id;
        -- The local stand-in reads the row by id: NOTIFY payloads are limited to 8000 bytes.
        perform pg_notify('realtime:broadcast', message_id::text);
      exception when others then
        raise warning 'ErrorSendingBroadcastMessage: %', sqlerrm;
      end;
      $fn$;
  end if;

  if to_regprocedure('realtime.broadcast_changes(text,text,text,text,text,record,record,text)') is null then
    create function realtime.broadcast_changes(
      topic_name text, event_name text, operation text, table_name text, table_schema text,
      new record, old record, level text default 'ROW'
    ) returns void
      language plpgsql
      security definer
      set search_path = ''
      as $fn$
      declare
        row_data jsonb;
        memory_limit_bytes integer := 1024 * 1024;
      begin
        if level = 'STATEMENT' then
          raise exception 'function can only be triggered for each row, not for each statement';
        end if;
        if operation = 'INSERT' or operation = 'UPDATE' or operation = 'DELETE' then
          row_data := jsonb_build_object(
            'old_record', case when operation in ('UPDATE', 'DELETE') then to_jsonb(old) end,
            'record', case when operation in ('INSERT', 'UPDATE') then to_jsonb(new) end,
            'operation', operation,
            'table', table_name,
            'schema', table_schema
          );
          if octet_length(row_data::text) > memory_limit_bytes then
            raise warning 'Payload for % is too large to broadcast', topic_name;
            return;
          end if;
          perform realtime.send(row_data, event_name, topic_name);
        else
          raise exception 'Unexpected operation: %', operation;
        end if;
      end;
      $fn$;
  end if;
end
$platform$;

-- API roles may read the current topic but not send: broadcasts come from the database
-- (security definer triggers and functions) and the service role only.
grant execute on function realtime.topic() to anon, authenticated, service_role;
revoke execute on function realtime.send(jsonb, text, text, boolean),
  realtime.broadcast_changes(text, text, text, text, text, record, record, text)
  from public, anon, authenticated;
grant execute on function realtime.send(jsonb, text, text, boolean),
  realtime.broadcast_changes(text, text, text, text, text, record, record, text)
  to service_role;

-- Storage tables are reachable by the API roles and guarded by RLS, as on Supabase.
do $platform$
begin
  if to_regclass('storage.objects') is not null then
    grant usage on schema storage to anon, authenticated, service_role;
    grant all on all tables in schema storage to anon, authenticated, service_role;
    alter table storage.objects enable row level security;
    alter table storage.buckets enable row level security;
  end if;
end
$platform$;

-- auth.users' instance_id, which hosted GoTrue's login query pins to the nil UUID; seed.sql sets it.
alter table auth.users add column if not exists instance_id uuid;

-- Supabase Vault's interface (the supabase_vault extension on hosted projects): secrets by name,
-- vault.create_secret / vault.update_secret, and the vault.decrypted_secrets view. Hosted Vault
-- encrypts the column; this stand-in stores it as given, readable by the owner only, so that the
-- scheduled jobs' SQL (which reads vault.decrypted_secrets) is the same everywhere.
do $platform$
begin
  if to_regclass('vault.secrets') is null then
    create schema if not exists vault;
    revoke all on schema vault from public;
    create table vault.secrets (
      id uuid primary key default gen_random_uuid(),
      name text unique,
      description text not null default '',
      secret text not null,
      key_id uuid,
      nonce bytea,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create view vault.decrypted_secrets as
      select s.id, s.name, s.description, s.secret, s.secret as decrypted_secret,
             s.key_id, s.nonce, s.created_at, s.updated_at
      from vault.secrets s;
    create function vault.create_secret(new_secret text, new_name text default null,
                                        new_description text default '', new_key_id uuid default null)
      returns uuid language sql set search_path = ''
    as $fn$
      insert into vault.secrets (secret, name, description, key_id)
      values (new_secret, new_name, coalesce(new_description, ''), new_key_id)
      returning id;
    $fn$;
    create function vault.update_secret(secret_id uuid, new_secret text default null,
                                        new_name text default null, new_description text default null,
                                        new_key_id uuid default null)
      returns void language sql set search_path = ''
    as $fn$
      update vault.secrets
      set secret = coalesce(new_secret, secret), name = coalesce(new_name, name),
          description = coalesce(new_description, description),
          key_id = coalesce(new_key_id, key_id), updated_at = now()
      where id = secret_id;
    $fn$;
    revoke all on all tables in schema vault from public;
    revoke execute on all functions in schema vault from public;
    grant usage on schema vault to service_role;
    grant select, insert, update, delete on vault.secrets to service_role;
    grant select on vault.decrypted_secrets to service_role;
    grant execute on all functions in schema vault to service_role;
  end if;
end
$platform$;
