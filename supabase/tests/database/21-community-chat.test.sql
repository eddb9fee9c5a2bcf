-- Community chat (migration 20261124100000, decision 0021): group admins' moderation, the paged
-- history and profile RPCs, reports and blocks, presence on group topics and the private
-- chat-gifs bucket, as anon, member, non-member, blocked sender, banned user, group admin and
-- site admin.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(49);

delete from auth.users;
delete from public.groups;
-- 1 group admin (creator), 2 member, 3 non-member, 4 banned member, 5 site admin (not a member)
insert into auth.users (id, email) values
  ('a2100000-0000-4000-8000-000000000001', 'owner@chat.test'),
  ('a2100000-0000-4000-8000-000000000002', 'member@chat.test'),
  ('a2100000-0000-4000-8000-000000000003', 'outsider@chat.test'),
  ('a2100000-0000-4000-8000-000000000004', 'banned@chat.test'),
  ('a2100000-0000-4000-8000-000000000005', 'siteadmin@chat.test');
update public.profiles set username = 'owner_one', plan = 'pro', subscription_active = true
where id = 'a2100000-0000-4000-8000-000000000001';
update public.profiles set plan = 'enterprise', subscription_active = false
where id = 'a2100000-0000-4000-8000-000000000002';
update public.profiles set role = 'admin' where id = 'a2100000-0000-4000-8000-000000000005';

insert into public.groups (id, name, is_public, created_by) values
  ('b2100000-0000-4000-8000-000000000001', 'Public chat', true, 'a2100000-0000-4000-8000-000000000001'),
  ('b2100000-0000-4000-8000-000000000002', 'Private chat', false, 'a2100000-0000-4000-8000-000000000001');
insert into public.group_members (group_id, user_id) values
  ('b2100000-0000-4000-8000-000000000001', 'a2100000-0000-4000-8000-000000000002'),
  ('b2100000-0000-4000-8000-000000000001', 'a2100000-0000-4000-8000-000000000004');
update public.profiles set banned = true, banned_reason = 'Chat fixture ban'
where id = 'a2100000-0000-4000-8000-000000000004';

-- Five messages with the same timestamp and two later ones: pages must order by (created_at, id).
insert into public.messages (id, group_id, sender_id, content, created_at) values
  ('c2100000-0000-4000-8000-000000000001', 'b2100000-0000-4000-8000-000000000001', 'a2100000-0000-4000-8000-000000000001', 'm1', '2026-01-01 10:00'),
  ('c2100000-0000-4000-8000-000000000002', 'b2100000-0000-4000-8000-000000000001', 'a2100000-0000-4000-8000-000000000002', 'm2', '2026-01-01 10:00'),
  ('c2100000-0000-4000-8000-000000000003', 'b2100000-0000-4000-8000-000000000001', 'a2100000-0000-4000-8000-000000000001', 'm3', '2026-01-01 10:00'),
  ('c2100000-0000-4000-8000-000000000004', 'b2100000-0000-4000-8000-000000000001', 'a2100000-0000-4000-8000-000000000002', 'm4', '2026-01-01 10:00'),
  ('c2100000-0000-4000-8000-000000000005', 'b2100000-0000-4000-8000-000000000001', 'a2100000-0000-4000-8000-000000000001', 'm5', '2026-01-01 10:00'),
  ('c2100000-0000-4000-8000-000000000006', 'b2100000-0000-4000-8000-000000000001', 'a2100000-0000-4000-8000-000000000002', 'm6', '2026-01-01 10:01'),
  ('c2100000-0000-4000-8000-000000000007', 'b2100000-0000-4000-8000-000000000001', 'a2100000-0000-4000-8000-000000000001', 'm7', '2026-01-01 10:02');

insert into storage.objects (bucket_id, name, owner) values
  ('chat-gifs', 'b2100000-0000-4000-8000-000000000001/a2100000-0000-4000-8000-000000000002/e2100000-0000-4000-8000-000000000001.gif',
   'a2100000-0000-4000-8000-000000000002');

create function pg_temp.act(who uuid) returns void language plpgsql as $$
begin
  perform tests.authenticate_as(who);
end;
$$;
create function pg_temp.topic(t text) returns void language plpgsql as $$
begin
  perform set_config('realtime.topic', t, true);
end;
$$;

-- The bucket ----------------------------------------------------------------------------------
select is((select row(public, file_size_limit, allowed_mime_types)::text from storage.buckets where id = 'chat-gifs'),
  '(f,2097152,{image/gif})', 'chat-gifs is private, 2 MiB, GIF only');

-- History pages -------------------------------------------------------------------------------
select pg_temp.act('a2100000-0000-4000-8000-000000000002');
select is((select array_agg(content) from public.group_messages('b2100000-0000-4000-8000-000000000001', p_limit => 3)),
  '{m7,m6,m5}', 'the first page is the newest messages, newest first');
select is((select array_agg(content) from public.group_messages('b2100000-0000-4000-8000-000000000001',
    '2026-01-01 10:00', 'c2100000-0000-4000-8000-000000000005', p_limit => 3)),
  '{m4,m3,m2}', 'the next page continues after the cursor among equal timestamps, by id');
select is((select array_agg(content) from public.group_messages('b2100000-0000-4000-8000-000000000001',
    '2026-01-01 10:00', 'c2100000-0000-4000-8000-000000000002', p_limit => 3)),
  '{m1}', 'the last page holds the rest, no duplicate');
select is((select array_agg(content) from public.group_messages('b2100000-0000-4000-8000-000000000001',
    p_after_created_at => '2026-01-01 10:00', p_after_id => 'c2100000-0000-4000-8000-000000000004')),
  '{m5,m6,m7}', 'catching up after a reconnect returns what is newer, oldest first');
select is((select row(sender_name, sender_plan)::text from public.group_messages('b2100000-0000-4000-8000-000000000001')
    where id = 'c2100000-0000-4000-8000-000000000007'),
  '(owner_one,pro)', 'a sender shows by username and active plan');
select is((select row(sender_name, sender_plan)::text from public.group_messages('b2100000-0000-4000-8000-000000000001')
    where id = 'c2100000-0000-4000-8000-000000000006'),
  '(member,none)', 'a sender without username shows by the e-mail''s local part, an inactive plan as none');
select is((select count(*)::int from public.group_messages('b2100000-0000-4000-8000-000000000001')
    where sender_name like '%@%'), 0, 'no e-mail address is returned');
select throws_ok($$ select * from public.group_messages('b2100000-0000-4000-8000-000000000001', p_limit => 0) $$,
  '22023', null, 'a page size of 0 is refused');
select throws_ok($$ select * from public.group_messages('b2100000-0000-4000-8000-000000000001', '2026-01-01', null) $$,
  '22023', null, 'a cursor without its id is refused');
reset role;

select pg_temp.act('a2100000-0000-4000-8000-000000000003');
select throws_ok($$ select * from public.group_messages('b2100000-0000-4000-8000-000000000001') $$,
  'PT403', 'You are not a member of this group', 'a non-member reads no history');
select throws_ok($$ select * from public.group_member_profiles('b2100000-0000-4000-8000-000000000001') $$,
  'PT403', 'You are not a member of this group', 'a non-member sees no member list');
reset role;
select pg_temp.act('a2100000-0000-4000-8000-000000000004');
select throws_ok($$ select * from public.group_messages('b2100000-0000-4000-8000-000000000001') $$,
  'PT403', null, 'a banned member reads no history');
select throws_ok($$ select * from public.list_groups() $$, 'PT403', null, 'a banned user lists no groups');
reset role;
set local role anon;
select throws_ok($$ select * from public.group_messages('b2100000-0000-4000-8000-000000000001') $$,
  '42501', null, 'anon cannot call group_messages');
select throws_ok($$ select * from public.list_groups() $$, '42501', null, 'anon cannot call list_groups');
reset role;

-- Groups list ---------------------------------------------------------------------------------
select pg_temp.act('a2100000-0000-4000-8000-000000000003');
select is((select array_agg(name || ':' || member_count || ':' || coalesce(my_role::text, '-') || ':' || (invite_code is null)) from public.list_groups()),
  '{"Public chat:3:-:true"}', 'a non-member lists the public group only, with its count and without its invite code');
reset role;
select pg_temp.act('a2100000-0000-4000-8000-000000000001');
select is((select array_agg(name || ':' || my_role || ':' || (invite_code is not null) order by name) from public.list_groups()),
  '{"Private chat:admin:true","Public chat:admin:true"}', 'the creator is admin of both and sees their invite codes');
select is((select array_agg(name || ':' || role order by role, name) from public.group_member_profiles('b2100000-0000-4000-8000-000000000001')),
  '{owner_one:admin,banned:member,member:member}', 'members are listed admins first with their public names');
reset role;

-- Invite link ---------------------------------------------------------------------------------
select pg_temp.act('a2100000-0000-4000-8000-000000000003');
select throws_ok($$ insert into public.group_members (group_id, user_id) values ('b2100000-0000-4000-8000-000000000002', auth.uid()) $$,
  '42501', null, 'a private group cannot be joined directly');
reset role;
select set_config('test.invite', (select invite_code::text from public.groups where id = 'b2100000-0000-4000-8000-000000000002'), true);
select pg_temp.act('a2100000-0000-4000-8000-000000000003');
select is(public.join_group_by_invite(current_setting('test.invite')::uuid), 'b2100000-0000-4000-8000-000000000002'::uuid,
  'the invite code joins the private group');
select is((select count(*)::int from public.list_groups() where name = 'Private chat' and my_role = 'member'), 1,
  'the private group is now among the user''s groups');
reset role;

-- Moderation ----------------------------------------------------------------------------------
select pg_temp.act('a2100000-0000-4000-8000-000000000002');
with d as (delete from public.messages where id = 'c2100000-0000-4000-8000-000000000001' returning 1)
select is(count(*)::int, 0, 'a member cannot delete another member''s message') from d;
with d as (delete from public.messages where id = 'c2100000-0000-4000-8000-000000000002' returning 1)
select is(count(*)::int, 1, 'a member deletes their own message') from d;
reset role;
select pg_temp.act('a2100000-0000-4000-8000-000000000001');
with d as (delete from public.messages where id = 'c2100000-0000-4000-8000-000000000004' returning 1)
select is(count(*)::int, 1, 'the group admin deletes a member''s message') from d;
with d as (update public.messages set content = 'hijack' where id = 'c2100000-0000-4000-8000-000000000006' returning 1)
select is(count(*)::int, 0, 'the group admin cannot edit a member''s message') from d;
with d as (delete from public.group_members where group_id = 'b2100000-0000-4000-8000-000000000001' and user_id = 'a2100000-0000-4000-8000-000000000004' returning 1)
select is(count(*)::int, 1, 'the group admin removes a member') from d;
reset role;
select pg_temp.act('a2100000-0000-4000-8000-000000000005');
with d as (delete from public.messages where id = 'c2100000-0000-4000-8000-000000000006' returning 1)
select is(count(*)::int, 0, 'a site admin who is not a member deletes nothing') from d;
reset role;

-- Blocks and reports --------------------------------------------------------------------------
select pg_temp.act('a2100000-0000-4000-8000-000000000002');
insert into public.user_blocks (blocked_id) values ('a2100000-0000-4000-8000-000000000001');
select is((select count(*)::int from public.group_messages('b2100000-0000-4000-8000-000000000001')
  where sender_id = 'a2100000-0000-4000-8000-000000000001'), 0, 'the blocked sender''s messages are gone from the blocker''s pages');
select is((select array_agg(name) from public.blocked_users()), '{owner_one}', 'the blocker lists the block by name');
delete from public.user_blocks where blocked_id = 'a2100000-0000-4000-8000-000000000001';
select is((select count(*)::int from public.group_messages('b2100000-0000-4000-8000-000000000001')
  where sender_id = 'a2100000-0000-4000-8000-000000000001'), 4, 'after lifting the block they are back');
select lives_ok($$ insert into public.user_reports (reported_id, reason, description) values ('a2100000-0000-4000-8000-000000000001', 'spam', 'Posts links') $$,
  'a member reports a user');
select throws_ok($$ insert into public.user_reports (reported_id, reason) values ('a2100000-0000-4000-8000-000000000001', 'spam') $$,
  '23505', null, 'the same report twice is refused');
select throws_ok($$ insert into public.user_reports (reported_id, reason) values (auth.uid(), 'other') $$,
  '23514', null, 'nobody reports themselves');
reset role;
select pg_temp.act('a2100000-0000-4000-8000-000000000005');
select is((select count(*)::int from public.user_reports where reason = 'spam' and description = 'Posts links'), 1,
  'site admins see the report');
reset role;

-- Presence ------------------------------------------------------------------------------------
select pg_temp.act('a2100000-0000-4000-8000-000000000002');
select pg_temp.topic('group:b2100000-0000-4000-8000-000000000001');
select lives_ok($$ insert into realtime.messages (topic, extension, private) values ('group:b2100000-0000-4000-8000-000000000001', 'presence', true) $$,
  'a member tracks presence on the group topic');
select throws_ok($$ insert into realtime.messages (topic, extension, private) values ('group:b2100000-0000-4000-8000-000000000001', 'broadcast', true) $$,
  '42501', null, 'a member still cannot broadcast on the group topic');
reset role;
select pg_temp.act('a2100000-0000-4000-8000-000000000005');
select pg_temp.topic('group:b2100000-0000-4000-8000-000000000001');
select throws_ok($$ insert into realtime.messages (topic, extension, private) values ('group:b2100000-0000-4000-8000-000000000001', 'presence', true) $$,
  '42501', null, 'a non-member tracks no presence');
reset role;

-- GIF objects ---------------------------------------------------------------------------------
select pg_temp.act('a2100000-0000-4000-8000-000000000001');
select is((select count(*)::int from storage.objects where bucket_id = 'chat-gifs'), 1, 'a fellow member reads the group''s GIF');
-- (under a name reserved through reserve_chat_gif: 32-gif-upload-limit)
select set_config('test.gif', public.reserve_chat_gif('b2100000-0000-4000-8000-000000000001'), true);
select lives_ok($$ insert into storage.objects (bucket_id, name, owner) values ('chat-gifs',
  current_setting('test.gif'), auth.uid()) $$,
  'a member uploads into their own folder of the group');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('chat-gifs',
  'b2100000-0000-4000-8000-000000000001/a2100000-0000-4000-8000-000000000002/e2100000-0000-4000-8000-000000000003.gif') $$,
  '42501', null, 'nobody uploads into another member''s folder');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('chat-gifs',
  'b2100000-0000-4000-8000-000000000001/a2100000-0000-4000-8000-000000000001/not-a-uuid.gif') $$,
  '42501', null, 'a name outside the <group>/<sender>/<uuid>.gif scheme is refused');
with d as (delete from storage.objects where bucket_id = 'chat-gifs' and name like '%/a2100000-0000-4000-8000-000000000002/%' returning 1)
select is(count(*)::int, 0, 'a group admin cannot delete another member''s GIF object') from d;
reset role;
select pg_temp.act('a2100000-0000-4000-8000-000000000003');
select is((select count(*)::int from storage.objects where bucket_id = 'chat-gifs' and name like 'b2100000-0000-4000-8000-000000000001/%'), 0,
  'a non-member reads none of the group''s GIFs');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('chat-gifs',
  'b2100000-0000-4000-8000-000000000001/a2100000-0000-4000-8000-000000000003/e2100000-0000-4000-8000-000000000004.gif') $$,
  '42501', null, 'a non-member uploads nothing into the group');
reset role;
select pg_temp.act('a2100000-0000-4000-8000-000000000005');
select is((select count(*)::int from storage.objects where bucket_id = 'chat-gifs'), 0, 'a site admin who is not a member reads no GIF');
reset role;
set local role anon;
select is((select count(*)::int from storage.objects where bucket_id = 'chat-gifs'), 0, 'anon reads no GIF');
reset role;
select pg_temp.act('a2100000-0000-4000-8000-000000000002');
with d as (delete from storage.objects where bucket_id = 'chat-gifs' and name like '%/a2100000-0000-4000-8000-000000000002/%' returning 1)
select is(count(*)::int, 1, 'the sender deletes their own GIF object') from d;
reset role;
-- A banned member (re-added and banned) reads none.
insert into public.group_members (group_id, user_id) values ('b2100000-0000-4000-8000-000000000001', 'a2100000-0000-4000-8000-000000000004');
select pg_temp.act('a2100000-0000-4000-8000-000000000004');
select is((select count(*)::int from storage.objects where bucket_id = 'chat-gifs'), 0, 'a banned member reads no GIF');
reset role;

select * from finish();
rollback;
