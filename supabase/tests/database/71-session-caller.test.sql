-- session_caller() (decision 0071): /api/sse's connect and its 60-s re-check read the caller in
-- one request. Its answer is the caller's profile while the token's session lives, and null once
-- the session is gone (signed out, or ended by a ban), as Auth's /user answered.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(10);

insert into auth.users (id, email) values ('a7100000-0000-4000-8000-000000000001', 'caller@session.test');
update public.profiles set plan = 'pro', subscription_active = true, selected_window_minutes = 15
where id = 'a7100000-0000-4000-8000-000000000001';
insert into auth.sessions (id, user_id) values
  ('c7100000-0000-4000-8000-000000000001', 'a7100000-0000-4000-8000-000000000001');

-- The user's token, with this session id claim (null: a token without one).
create function pg_temp.as_caller(session_id text) returns void language plpgsql as $$
begin
  perform set_config('role', 'authenticated', true);
  perform set_config('request.jwt.claim.sub', 'a7100000-0000-4000-8000-000000000001', true);
  perform set_config('request.jwt.claims', json_build_object(
    'sub', 'a7100000-0000-4000-8000-000000000001', 'role', 'authenticated',
    'session_id', session_id)::text, true);
end;
$$;

select pg_temp.as_caller('c7100000-0000-4000-8000-000000000001');
select is(public.session_caller(), jsonb_build_object(
  'id', 'a7100000-0000-4000-8000-000000000001', 'plan', 'pro', 'subscription_active', true,
  'banned', false, 'selected_window_minutes', 15), 'a live session reads the caller''s profile');
select is(public.movers_stream_open(30) -> 'caller', public.session_caller(),
  'the connect''s movers_stream_open answers the same caller');

select pg_temp.as_caller('not-a-session');
select is(public.session_caller(), null, 'a malformed session id is no session');

select pg_temp.as_caller(null);
select is(public.session_caller() ->> 'plan', 'pro',
  'a token without a session id claim is checked by its subject alone');

select tests.clear_authentication();
update public.profiles set banned = true, banned_reason = 'spam in the chat' where id = 'a7100000-0000-4000-8000-000000000001';
select pg_temp.as_caller('c7100000-0000-4000-8000-000000000001');
select is(public.session_caller(), null, 'a ban ends the session, so the re-check ends the stream');
select is(public.movers_stream_open(30), '{"caller": null}'::jsonb,
  'and the connect refuses the ended session the same way');
select pg_temp.as_caller(null);
select is((public.session_caller() ->> 'banned')::boolean, true,
  'a token without a session id claim still shows the ban (403 banned)');

select tests.clear_authentication();
update public.profiles set banned = false, banned_reason = null
where id = 'a7100000-0000-4000-8000-000000000001';
insert into auth.sessions (id, user_id) values
  ('c7100000-0000-4000-8000-000000000002', 'a7100000-0000-4000-8000-000000000001');
select pg_temp.as_caller('c7100000-0000-4000-8000-000000000002');
select is(public.session_caller() ->> 'plan', 'pro', 'a new sign-in is a caller again');
select tests.clear_authentication();
delete from auth.sessions where id = 'c7100000-0000-4000-8000-000000000002';
select pg_temp.as_caller('c7100000-0000-4000-8000-000000000002');
select is(public.session_caller(), null, 'a signed-out session is no caller');

select tests.authenticate_as('a7100000-0000-4000-8000-000000000009');
select is(public.session_caller(), null, 'a subject without a profile is no caller');

select * from finish();
rollback;
