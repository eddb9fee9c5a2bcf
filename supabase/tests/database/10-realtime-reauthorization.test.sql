-- Revoked access stops streaming (migration 20261123100000, decision 0016): a change of what a
-- user may read is announced on the control topic system:authorization, which no client may
-- join; a ban ends the user's sessions.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(14);

delete from auth.users;
truncate public.groups cascade;

create temp table u (code text primary key, uid uuid);
insert into u values
  ('member', 'a1000000-0000-4000-8000-000000000001'),
  ('owner',  'a1000000-0000-4000-8000-000000000002'),
  ('admin',  'a1000000-0000-4000-8000-000000000003');
grant select on u to anon, authenticated;
insert into auth.users (id, email) select uid, code || '@reauth.test' from u;
update public.profiles set role = 'admin', plan = 'enterprise', subscription_active = true
where id = 'a1000000-0000-4000-8000-000000000003';
update public.profiles set plan = 'pro', subscription_active = true
where id = 'a1000000-0000-4000-8000-000000000001';
insert into public.groups (id, name, is_public, created_by) values
  ('b1000000-0000-4000-8000-000000000001', 'Reauth', true, 'a1000000-0000-4000-8000-000000000002');
insert into public.group_members (group_id, user_id) values
  ('b1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000001');
insert into auth.sessions (id, user_id) values
  ('c1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000001'),
  ('c1000000-0000-4000-8000-000000000002', 'a1000000-0000-4000-8000-000000000002');
delete from realtime.messages;

create function pg_temp.login(who text) returns void language plpgsql as $$
declare
  id uuid;
begin
  perform set_config('role', 'none', true);
  if who = 'anon' then
    perform tests.authenticate_as_anon();
    return;
  end if;
  select uid into strict id from pg_temp.u where code = who;
  perform tests.authenticate_as(id);
end;
$$;
create function pg_temp.logout() returns void language plpgsql as $$
begin
  perform tests.clear_authentication();
  perform set_config('realtime.topic', '', true);
end;
$$;
-- How many control messages name this user (and clears them).
create function pg_temp.announced(target uuid) returns bigint language plpgsql as $$
declare
  n bigint;
begin
  select count(*) into n from realtime.messages
  where topic = 'system:authorization' and event = 'authorization_changed'
    and payload ->> 'user_id' = target::text;
  delete from realtime.messages;
  return n;
end;
$$;
-- Realtime's read authorisation of a topic: 'read' or 'refused'.
create function pg_temp.can_read(who text, topic_name text) returns text language plpgsql as $$
declare
  probe_id uuid;
  res text;
begin
  begin
    insert into realtime.messages (topic, extension) values (topic_name, 'broadcast') returning id into probe_id;
    perform pg_temp.login(who);
    perform set_config('realtime.topic', topic_name, true);
    res := case when exists (select 1 from realtime.messages m where m.id = probe_id) then 'read' else 'refused' end;
    raise exception using errcode = 'TPROB', message = res;
  exception
    when sqlstate 'TPROB' then res := sqlerrm;
    when others then res := 'error ' || sqlstate;
  end;
  return res;
end;
$$;

-- Nobody joins the control topic.
select is(pg_temp.can_read('anon', 'system:authorization'), 'refused', 'anon cannot join system:authorization');
select is(pg_temp.can_read('member', 'system:authorization'), 'refused', 'a user cannot join system:authorization');
select is(pg_temp.can_read('admin', 'system:authorization'), 'refused', 'an admin cannot join system:authorization');

-- What announces a change.
update public.profiles set last_activity_at = now(), username = 'reauth_member'
where id = 'a1000000-0000-4000-8000-000000000001';
select is(pg_temp.announced('a1000000-0000-4000-8000-000000000001'), 0::bigint,
  'a change of preferences or activity announces nothing');
update public.profiles set plan = 'basic' where id = 'a1000000-0000-4000-8000-000000000001';
select is(pg_temp.announced('a1000000-0000-4000-8000-000000000001'), 1::bigint, 'a plan change is announced');
update public.profiles set subscription_active = false where id = 'a1000000-0000-4000-8000-000000000001';
select is(pg_temp.announced('a1000000-0000-4000-8000-000000000001'), 1::bigint, 'a subscription that ends is announced');
update public.profiles set role = 'admin' where id = 'a1000000-0000-4000-8000-000000000001';
update public.profiles set role = 'user' where id = 'a1000000-0000-4000-8000-000000000001';
select is(pg_temp.announced('a1000000-0000-4000-8000-000000000001'), 2::bigint, 'role changes are announced');

-- A member who leaves: announced for that member.
select pg_temp.login('member');
delete from public.group_members where user_id = 'a1000000-0000-4000-8000-000000000001';
select pg_temp.logout();
select is(pg_temp.announced('a1000000-0000-4000-8000-000000000001'), 1::bigint, 'a member leaving is announced');

-- A member removed by the group's admin.
insert into public.group_members (group_id, user_id) values
  ('b1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000001');
delete from realtime.messages;
select pg_temp.login('owner');
delete from public.group_members where user_id = 'a1000000-0000-4000-8000-000000000001';
select pg_temp.logout();
select is(pg_temp.announced('a1000000-0000-4000-8000-000000000001'), 1::bigint, 'a member removed by the group admin is announced');

-- A ban: announced, and every session of the banned user ends (others keep theirs).
select pg_temp.login('admin');
select lives_ok($$ select public.admin_ban_user('a1000000-0000-4000-8000-000000000001', 'Reauthorisation test') $$,
  'an admin bans the member');
select pg_temp.logout();
select is(pg_temp.announced('a1000000-0000-4000-8000-000000000001'), 1::bigint, 'a ban is announced');
select is((select count(*) from auth.sessions where user_id = 'a1000000-0000-4000-8000-000000000001'), 0::bigint,
  'a ban ends the banned user''s sessions');
select is((select count(*) from auth.sessions where user_id = 'a1000000-0000-4000-8000-000000000002'), 1::bigint,
  'other users keep their sessions');

-- Clients cannot call the announcement themselves.
select pg_temp.login('member');
select throws_ok($$ select private.notify_authorization_changed('a1000000-0000-4000-8000-000000000002') $$,
  '42501', null, 'a user cannot announce an authorisation change');
select pg_temp.logout();

select * from finish();
rollback;
