-- Who is acting, for every pgTAP file: the one place that knows how PostgREST presents a request
-- to Postgres (the role, and the JWT's claims as `request.jwt.claims` plus the legacy
-- `request.jwt.claim.sub`). Runs first (files run in name order, in one database, with
-- `npm run test:db` as with `supabase test db`) and is not rolled back, so the later files call
-- these functions. Each switch is transaction-local, like the files' own transactions.
create schema if not exists tests;
grant usage on schema tests to anon, authenticated, service_role;

-- A signed-in user (the `authenticated` role) with this user id as the JWT's subject.
create or replace function tests.authenticate_as(user_id uuid) returns void
language plpgsql as $$
begin
  perform set_config('role', 'authenticated', true);
  perform set_config('request.jwt.claim.sub', user_id::text, true);
  perform set_config('request.jwt.claims',
    json_build_object('sub', user_id, 'role', 'authenticated')::text, true);
end;
$$;

-- A visitor with the publishable (anon) key: no subject.
create or replace function tests.authenticate_as_anon() returns void
language plpgsql as $$
begin
  perform set_config('role', 'anon', true);
  perform set_config('request.jwt.claim.sub', '', true);
  perform set_config('request.jwt.claims', '{"role":"anon"}', true);
end;
$$;

-- The secret (service_role) key, as edge functions use it.
create or replace function tests.authenticate_as_service_role() returns void
language plpgsql as $$
begin
  perform set_config('role', 'service_role', true);
  perform set_config('request.jwt.claim.sub', '', true);
  perform set_config('request.jwt.claims', '{"role":"service_role"}', true);
end;
$$;

-- Back to the test's own superuser session, with no JWT.
create or replace function tests.clear_authentication() returns void
language plpgsql as $$
begin
  perform set_config('role', 'none', true);
  perform set_config('request.jwt.claim.sub', '', true);
  perform set_config('request.jwt.claims', '', true);
end;
$$;

-- How a write was refused by a per-user write limit, as PostgREST answers it:
-- `<sqlstate> <code> <status> retry-after=1..<window_s> <hint>` when the Retry-After header is
-- between 1 and the window and the details repeat it; else what came back instead ('ok' when
-- the statement ran, `<sqlstate> <message>` for an error that is not a PostgREST one).
create or replace function tests.write_refusal(stmt text, window_s integer) returns text
language plpgsql as $$
declare
  msg text;
  det text;
  st text;
  wait text;
begin
  execute stmt;
  return 'ok';
exception when others then
  get stacked diagnostics st = returned_sqlstate, msg = message_text, det = pg_exception_detail;
  if st <> 'PGRST' then
    return st || ' ' || msg;
  end if;
  wait := det::json -> 'headers' ->> 'Retry-After';
  return st || ' ' || (msg::json ->> 'code') || ' ' || (det::json ->> 'status') || ' '
    || case when wait::int between 1 and window_s and msg::json ->> 'details' = 'retry-after=' || wait
            then 'retry-after=1..' || window_s else 'retry-after=' || coalesce(wait, 'none') end
    || ' ' || coalesce(msg::json ->> 'hint', 'no hint');
end;
$$;

grant execute on all functions in schema tests to anon, authenticated, service_role;

begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
select plan(5);
select set_config('test.user', 'a0000000-0000-4000-8000-0000000000a1', true);
select tests.authenticate_as(current_setting('test.user')::uuid);
select is(
  (select auth.uid()),
  current_setting('test.user')::uuid,
  'authenticate_as: auth.uid() is the user'
);
select is(current_user::text, 'authenticated', 'authenticate_as: the authenticated role');
select tests.authenticate_as_anon();
select is((select auth.uid()), null, 'authenticate_as_anon: no user');
select tests.authenticate_as_service_role();
select is(
  current_user::text || ' ' || (current_setting('request.jwt.claims')::jsonb ->> 'role'),
  'service_role service_role',
  'authenticate_as_service_role: the service role, in the role and the claims'
);
select tests.clear_authentication();
select is(current_user::text, 'postgres', 'clear_authentication: back to the test session');
select * from finish();
rollback;
