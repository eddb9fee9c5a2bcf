-- Avatars (migration 20261123100100, decision 0016): only the user's own stored object can be
-- their avatar, set by the avatar function (service role); nobody but the owner lists a folder.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(13);

delete from auth.users;
insert into auth.users (id, email) values
  ('a1100000-0000-4000-8000-000000000001', 'owner@avatars.test'),
  ('a1100000-0000-4000-8000-000000000002', 'other@avatars.test'),
  ('a1100000-0000-4000-8000-000000000003', 'banned@avatars.test'),
  ('a1100000-0000-4000-8000-000000000004', 'admin@avatars.test');
update public.profiles set banned = true, banned_reason = 'Avatar fixture ban'
where id = 'a1100000-0000-4000-8000-000000000003';
update public.profiles set role = 'admin' where id = 'a1100000-0000-4000-8000-000000000004';
insert into storage.objects (bucket_id, name) values
  ('avatars', 'a1100000-0000-4000-8000-000000000001/avatar-1-0123456789abcdef0123456789abcdef.png'),
  ('avatars', 'a1100000-0000-4000-8000-000000000002/avatar-1-fedcba9876543210fedcba9876543210.png');

create function pg_temp.act(who uuid) returns void language plpgsql as $$
begin
  perform tests.authenticate_as(who);
end;
$$;
create function pg_temp.act_service() returns void language plpgsql as $$
begin
  perform tests.authenticate_as_service_role();
end;
$$;

-- Users, banned users and admins cannot write avatar_url themselves.
select pg_temp.act('a1100000-0000-4000-8000-000000000001');
select throws_ok($$ update public.profiles set avatar_url = 'javascript:alert(1)' where id = 'a1100000-0000-4000-8000-000000000001' $$,
  '42501', null, 'the owner cannot write a script URL as avatar');
select throws_ok($$ update public.profiles set avatar_url = 'http://h/storage/v1/object/public/avatars/a1100000-0000-4000-8000-000000000001/avatar-1-0123456789abcdef0123456789abcdef.png' where id = 'a1100000-0000-4000-8000-000000000001' $$,
  '42501', null, 'the owner cannot even set their own object directly: only the avatar function does');
reset role;
select pg_temp.act('a1100000-0000-4000-8000-000000000003');
select throws_ok($$ update public.profiles set avatar_url = null where id = 'a1100000-0000-4000-8000-000000000003' $$,
  '42501', null, 'a banned user cannot write avatar_url');
reset role;
select pg_temp.act('a1100000-0000-4000-8000-000000000004');
select throws_ok($$ update public.profiles set avatar_url = 'https://evil.example/x.png' where id = 'a1100000-0000-4000-8000-000000000004' $$,
  '42501', null, 'an admin cannot write avatar_url');
reset role;

-- Whoever writes it (the service role here), it must be the owner's own stored object.
select pg_temp.act_service();
select throws_ok($$ update public.profiles set avatar_url = 'javascript:alert(1)' where id = 'a1100000-0000-4000-8000-000000000001' $$,
  '23514', null, 'a script URL is refused for every writer');
select throws_ok($$ update public.profiles set avatar_url = 'http://h/storage/v1/object/public/avatars/a1100000-0000-4000-8000-000000000002/avatar-1-fedcba9876543210fedcba9876543210.png' where id = 'a1100000-0000-4000-8000-000000000001' $$,
  '23514', null, 'another user''s avatar object is refused');
select throws_ok($$ update public.profiles set avatar_url = 'http://h/storage/v1/object/public/avatars/a1100000-0000-4000-8000-000000000001/avatar-2-00000000000000000000000000000000.png' where id = 'a1100000-0000-4000-8000-000000000001' $$,
  '23514', null, 'a URL of an object that does not exist is refused');
select lives_ok($$ update public.profiles set avatar_url = 'http://h/storage/v1/object/public/avatars/a1100000-0000-4000-8000-000000000001/avatar-1-0123456789abcdef0123456789abcdef.png' where id = 'a1100000-0000-4000-8000-000000000001' $$,
  'the owner''s own stored object becomes their avatar');
select lives_ok($$ update public.profiles set avatar_url = null where id = 'a1100000-0000-4000-8000-000000000001' $$,
  'the avatar can be cleared');
reset role;

-- Listing: anon sees nothing, users only their own folder.
set local role anon;
select is((select count(*)::int from storage.objects where bucket_id = 'avatars'), 0, 'anon lists no avatars');
reset role;
select pg_temp.act('a1100000-0000-4000-8000-000000000001');
select is((select array_agg(name)::text from storage.objects where bucket_id = 'avatars'),
  '{a1100000-0000-4000-8000-000000000001/avatar-1-0123456789abcdef0123456789abcdef.png}',
  'a user lists only their own folder');
reset role;
select pg_temp.act('a1100000-0000-4000-8000-000000000004');
select is((select count(*)::int from storage.objects where bucket_id = 'avatars'), 0, 'an admin lists no one''s avatars');
reset role;
select pg_temp.act('a1100000-0000-4000-8000-000000000002');
delete from storage.objects where name like 'a1100000-0000-4000-8000-000000000001/%';
reset role;
select is((select count(*)::int from storage.objects where name like 'a1100000-0000-4000-8000-000000000001/%'), 1,
  'another user cannot delete someone''s avatar');

select * from finish();
rollback;
