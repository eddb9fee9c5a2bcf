-- Admin panel (migration 20261124300000, decision 0023): the user table RPC, the filtered audit
-- log, reports with the reported message and their actions, the user and admin Realtime topics,
-- and touch_activity's signal. Each RPC as anon, user, banned user, banned admin and admin.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(56);

delete from auth.users;
truncate public.groups, public.activity_logs cascade;
delete from realtime.messages;

create temp table u (code text primary key, uid uuid);
insert into u values
  ('user',         'a1000000-0000-4000-8000-000000000001'),
  ('other',        'a1000000-0000-4000-8000-000000000002'),
  ('banned',       'a1000000-0000-4000-8000-000000000003'),
  ('admin',        'a1000000-0000-4000-8000-000000000004'),
  ('bannedadmin',  'a1000000-0000-4000-8000-000000000005'),
  ('pro',          'a1000000-0000-4000-8000-000000000006');
grant select on u to anon, authenticated;
insert into auth.users (id, email) select uid, code || '@panel.test' from u;
update public.profiles set role = 'admin', plan = 'enterprise', subscription_active = true
where id in ('a1000000-0000-4000-8000-000000000004', 'a1000000-0000-4000-8000-000000000005');
update public.profiles set plan = 'pro', subscription_active = true, username = 'pro_trader'
where id = 'a1000000-0000-4000-8000-000000000006';
update public.profiles set username = 'under_score' where id = 'a1000000-0000-4000-8000-000000000002';
update public.profiles set banned = true, banned_reason = 'Fixture ban reason'
where id in ('a1000000-0000-4000-8000-000000000003', 'a1000000-0000-4000-8000-000000000005');
-- 30 more users for paging, plan basic.
insert into auth.users (id, email)
select gen_random_uuid(), format('bulk%s@panel.test', lpad(i::text, 2, '0')) from generate_series(1, 30) i;
update public.profiles set plan = 'basic' where email like 'bulk%';

insert into public.groups (id, name, is_public, created_by) values
  ('b1000000-0000-4000-8000-000000000001', 'Panel group', true, 'a1000000-0000-4000-8000-000000000001');
insert into public.group_members (group_id, user_id) values
  ('b1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002');
insert into public.messages (id, group_id, sender_id, content) values
  ('c1000000-0000-4000-8000-000000000001', 'b1000000-0000-4000-8000-000000000001',
   'a1000000-0000-4000-8000-000000000002', 'Buy my pump coin now'),
  ('c1000000-0000-4000-8000-000000000002', 'b1000000-0000-4000-8000-000000000001',
   'a1000000-0000-4000-8000-000000000001', 'A message of the reporter');
delete from realtime.messages;

create function pg_temp.login(who text) returns void language plpgsql as $$
declare
  id uuid;
begin
  perform set_config('role', 'none', true);
  perform set_config('request.headers', json_build_object('x-forwarded-for', '203.0.113.7')::text, true);
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
create function pg_temp.uid(who text) returns uuid language sql stable as $$
  select uid from pg_temp.u where code = who
$$;
-- Realtime's read authorisation of a topic: 'read' or 'refused'. Call as superuser.
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
  end;
  return res;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- admin_list_users
-- ---------------------------------------------------------------------------------------------
select pg_temp.login('anon');
select throws_ok($$select * from public.admin_list_users()$$, '42501', null, 'anon cannot list users');
select pg_temp.login('user');
select throws_ok($$select * from public.admin_list_users()$$, 'PT403', 'Admin access required', 'a user cannot list users');
select pg_temp.login('banned');
select throws_ok($$select * from public.admin_list_users()$$, 'PT403', 'Admin access required', 'a banned user cannot list users');
select pg_temp.login('bannedadmin');
select throws_ok($$select * from public.admin_list_users()$$, 'PT403', 'Admin access required', 'a banned admin cannot list users');

select pg_temp.login('admin');
select is((select count(*)::int from public.admin_list_users()), 25, 'an admin gets the first page of 25 rows');
select is((select distinct total_count::int from public.admin_list_users()), 36, 'each row carries the total (36 users)');
select is((select count(*)::int from public.admin_list_users(page_offset => 25)), 11, 'the second page holds the other 11');
select is((select array_agg(email order by email) from public.admin_list_users(search => 'ANEL.TEST', page_size => 100)
           where email not like 'bulk%'),
  array['admin@panel.test', 'banned@panel.test', 'bannedadmin@panel.test', 'other@panel.test', 'pro@panel.test', 'user@panel.test'],
  'search matches a substring of the e-mail, case-insensitively');
select is((select array_agg(email) from public.admin_list_users(search => 'trader')), array['pro@panel.test'],
  'search matches the username');
select is((select array_agg(email) from public.admin_list_users(search => 'r_sc')), array['other@panel.test'],
  '_ in the search matches itself');
select is((select count(*)::int from public.admin_list_users(search => 'bulk%')), 0, '% in the search is a literal character');
select is((select count(*)::int from public.admin_list_users(search => 'bulk_')), 0, '_ in the search is a literal character');
select is((select count(*)::int from public.admin_list_users(search => 'nobody-here')), 0, 'no match, no rows');
select is((select count(*)::int from public.admin_list_users(plan_filter => 'basic', page_size => 100)), 30,
  'the plan filter keeps the basic users');
select is((select array_agg(email order by email) from public.admin_list_users(banned_filter => true)),
  array['banned@panel.test', 'bannedadmin@panel.test'], 'the banned filter');
select is((select count(*)::int from public.admin_list_users(subscription_filter => true)), 3,
  'the subscription filter (active: two admins and the pro)');
select is((select array_agg(email) from public.admin_list_users(search => 'bulk0', sort_by => 'email', sort_desc => false, page_size => 3)),
  array['bulk01@panel.test', 'bulk02@panel.test', 'bulk03@panel.test'], 'sorted by e-mail ascending');
select is((select email from public.admin_list_users(sort_by => 'email', sort_desc => true, page_size => 1)),
  'user@panel.test', 'sorted by e-mail descending');
select is((select plan::text from public.admin_list_users(sort_by => 'plan', sort_desc => true, page_size => 1)),
  'enterprise', 'sorted by plan');
select throws_ok($$select * from public.admin_list_users(sort_by => 'password')$$, '22023', null, 'an unknown sort column is refused');
select throws_ok($$select * from public.admin_list_users(page_size => 0)$$, '22023', null, 'a page of 0 rows is refused');
select throws_ok($$select * from public.admin_list_users(page_size => 101)$$, '22023', null, 'a page above 100 rows is refused');
select throws_ok($$select * from public.admin_list_users(page_offset => -1)$$, '22023', null, 'a negative offset is refused');
select throws_ok($$select * from public.admin_list_users(search => repeat('x', 101))$$, '22023', null, 'a search above 100 characters is refused');
select is((select banned_reason from public.admin_list_users(search => 'banned@')), 'Fixture ban reason',
  'rows carry the ban reason');

-- ---------------------------------------------------------------------------------------------
-- admin actions are logged with admin, target, details and IP; admin_activity_logs filters them
-- ---------------------------------------------------------------------------------------------
select public.admin_ban_user(pg_temp.uid('pro'), 'Spamming the groups');
select public.admin_unban_user(pg_temp.uid('pro'));
select public.admin_set_plan(pg_temp.uid('pro'), 'basic');
select is((select array_agg(action order by created_at, action) from public.admin_activity_logs()),
  array['ban_user', 'set_plan', 'unban_user'], 'the log lists each action');
select is((select ip_address from public.admin_activity_logs(action_filter => 'ban_user')), '203.0.113.7',
  'with the caller''s IP');
select is((select admin_email || ' ' || target_user_email || ' ' || details from public.admin_activity_logs(action_filter => 'ban_user')),
  'admin@panel.test pro@panel.test Spamming the groups', 'with the admin, the target and the details');
select is((select count(*)::int from public.admin_activity_logs(target_filter => 'PRO@')), 3, 'filtered by target');
select is((select count(*)::int from public.admin_activity_logs(admin_filter => 'nobody')), 0, 'filtered by admin');
select is((select count(*)::int from public.admin_activity_logs(admin_filter => 'admin@', action_filter => 'set_plan')), 1,
  'filters combine');
select throws_ok($$select * from public.admin_activity_logs(max_rows => 1001)$$, '22023', null, 'at most 1000 rows');
select pg_temp.login('user');
select throws_ok($$select * from public.admin_activity_logs()$$, 'PT403', 'Admin access required', 'a user cannot read the log');
select pg_temp.login('anon');
select throws_ok($$select * from public.admin_activity_logs()$$, '42501', null, 'anon cannot read the log');

-- ---------------------------------------------------------------------------------------------
-- reports
-- ---------------------------------------------------------------------------------------------
select pg_temp.login('user');
select lives_ok($$insert into public.user_reports (reported_id, reason, description, message_id)
  values ('a1000000-0000-4000-8000-000000000002', 'spam', 'Pump spam', 'c1000000-0000-4000-8000-000000000001')$$,
  'a member reports another member''s message');
select is((select message_content || ' / ' || status from public.user_reports where reason = 'spam'),
  'Buy my pump coin now / open', 'the report keeps the message''s text and is open');
select throws_ok($$insert into public.user_reports (reported_id, reason, message_id)
  values ('a1000000-0000-4000-8000-000000000002', 'other', 'c1000000-0000-4000-8000-000000000002')$$,
  '23514', null, 'a message that is not the reported user''s is refused');
select throws_ok($$insert into public.user_reports (reported_id, reason, status)
  values ('a1000000-0000-4000-8000-000000000002', 'harassment', 'resolved')$$,
  '42501', null, 'a reporter cannot set the review status');
select throws_ok($$select * from public.admin_reports()$$, 'PT403', 'Admin access required', 'a user cannot list reports');
select throws_ok($$select public.admin_delete_message('c1000000-0000-4000-8000-000000000001')$$, 'PT403', null,
  'a user cannot delete another''s message as admin');
select pg_temp.login('banned');
select throws_ok($$select public.admin_review_report(gen_random_uuid(), 'dismissed')$$, 'PT403', null,
  'a banned user cannot review reports');
select pg_temp.login('anon');
select throws_ok($$select * from public.admin_reports()$$, '42501', null, 'anon cannot list reports');

select pg_temp.login('admin');
select is((select reporter_email || ' -> ' || reported_email || ': ' || message_content || ' in ' || group_name
           from public.admin_reports()),
  'user@panel.test -> other@panel.test: Buy my pump coin now in Panel group', 'an admin sees the report with the message');
select public.admin_delete_message('c1000000-0000-4000-8000-000000000001');
select is((select count(*)::int from public.messages where id = 'c1000000-0000-4000-8000-000000000001'), 0,
  'the admin deleted the message');
select is((select count(*)::int from public.admin_reports()), 0, 'the open report on it is resolved');
select is((select status || ' ' || message_deleted::text || ' ' || message_content from public.admin_reports(status_filter => null)),
  'resolved true Buy my pump coin now', 'the resolved report keeps the deleted message''s text');
select is((select details from public.admin_activity_logs(action_filter => 'delete_message')), 'Buy my pump coin now',
  'the deletion is logged');
select throws_ok($$select public.admin_review_report(gen_random_uuid(), 'dismissed')$$, 'PT404', 'Report not found',
  'an unknown report');
select throws_ok($$select public.admin_review_report((select id from public.user_reports limit 1), 'ignored')$$, '22023', null,
  'an unknown outcome');
select public.admin_review_report((select id from public.user_reports limit 1), 'dismissed');
select is((select count(*)::int from public.admin_activity_logs(action_filter => 'dismiss_report')), 1, 'a review is logged');

-- ---------------------------------------------------------------------------------------------
-- Realtime: user:<id> for the user alone, admin:visitors for admins; who gets what
-- ---------------------------------------------------------------------------------------------
select pg_temp.logout();
select is(pg_temp.can_read('user', 'user:' || pg_temp.uid('user')), 'read', 'a user joins their own topic');
select is(pg_temp.can_read('banned', 'user:' || pg_temp.uid('banned')), 'read',
  'a banned user still hears about their own profile');
select is(pg_temp.can_read('other', 'user:' || pg_temp.uid('user')), 'refused', 'nobody else joins a user''s topic');
select is(pg_temp.can_read('admin', 'admin:visitors') || ' ' || pg_temp.can_read('user', 'admin:visitors') || ' '
          || pg_temp.can_read('bannedadmin', 'admin:visitors'),
  'read refused refused', 'admin:visitors is for active admins only');

delete from realtime.messages;
update public.profiles set plan = 'enterprise' where id = pg_temp.uid('user');
select is((select payload ->> 'plan' from realtime.messages where topic = 'user:' || pg_temp.uid('user') and event = 'profile_changed'),
  'enterprise', 'a plan change is sent to the user''s topic');
select pg_temp.login('user');
select public.touch_activity();
select public.touch_activity();
select pg_temp.logout();
select is((select count(*)::int from realtime.messages where topic = 'admin:visitors' and event = 'activity'
           and payload ->> 'user_id' = pg_temp.uid('user')::text), 1,
  'touch_activity tells the admins once a minute at most');

select * from finish();
rollback;
