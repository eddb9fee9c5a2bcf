-- Rules and RPCs: groups and invites, blocking, message ownership, ticket replies, banned users,
-- the admin RPCs and their activity log, admin self-promotion, activity heartbeat and username
-- availability.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

-- ---------------------------------------------------------------------------------------------
-- Fixtures: no seed rows, so admin_stats figures are exact.
-- ---------------------------------------------------------------------------------------------
delete from auth.users;
truncate public.groups, public.alerts_sent, public.activity_logs cascade;
delete from private.app_settings;
delete from private.promotion_attempts;

create temp table u (code text primary key, uid uuid, plan public.plan, active boolean, role public.app_role);
insert into u values
  ('admin',  'a3000000-0000-4000-8000-000000000001', 'enterprise', true,  'admin'),
  ('user',   'a3000000-0000-4000-8000-000000000002', 'none',       false, 'user'),
  ('other',  'a3000000-0000-4000-8000-000000000003', 'none',       false, 'user'),
  ('basic',  'a3000000-0000-4000-8000-000000000004', 'basic',      true,  'user'),
  ('pro',    'a3000000-0000-4000-8000-000000000005', 'pro',        true,  'user'),
  ('banned', 'a3000000-0000-4000-8000-000000000006', 'pro',        true,  'user'),
  ('lapsed', 'a3000000-0000-4000-8000-000000000007', 'enterprise', false, 'user'),
  ('admin2', 'a3000000-0000-4000-8000-000000000008', 'none',       false, 'admin'),
  ('badmin', 'a3000000-0000-4000-8000-000000000009', 'none',       false, 'admin');
grant select on u to anon, authenticated;

insert into auth.users (id, email) select uid, code || '@rules.test' from u;
update public.profiles p set plan = u.plan, subscription_active = u.active, role = u.role
from u where p.id = u.uid;
update public.profiles set banned = true, banned_reason = 'Fixture ban reason'
where id in ('a3000000-0000-4000-8000-000000000006', 'a3000000-0000-4000-8000-000000000009');
update public.profiles set username = 'rules_user' where id = 'a3000000-0000-4000-8000-000000000002';
update public.profiles set username = 'Taken_Name' where id = 'a3000000-0000-4000-8000-000000000004';

-- Acting as someone for the following statements.
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
end;
$$;
create function pg_temp.uid(who text) returns uuid language sql stable as $$
  select uid from pg_temp.u where code = who
$$;
-- Run a statement as someone, roll it back, report 'rows=N' or 'error SQLSTATE'.
create function pg_temp.probe(who text, stmt text) returns text language plpgsql as $$
declare
  n bigint;
  res text;
begin
  begin
    perform pg_temp.login(who);
    execute stmt;
    get diagnostics n = row_count;
    raise exception using errcode = 'TPROB', message = 'rows=' || n;
  exception
    when sqlstate 'TPROB' then res := sqlerrm;
    when others then res := 'error ' || sqlstate;
  end;
  perform pg_temp.logout();
  return res;
end;
$$;

select plan(172);

-- =============================================================================================
-- admin_stats, admin_live_visitors, admin_latest_alerts (before anything else changes)
-- =============================================================================================
update public.profiles set last_activity_at = now() - interval '1 minute' where id = pg_temp.uid('user');
update public.profiles set last_activity_at = now() - interval '2 minutes' where id = pg_temp.uid('basic');
update public.profiles set last_activity_at = now() - interval '3 minutes' where id = pg_temp.uid('admin');
update public.profiles set last_activity_at = now() - interval '10 minutes' where id = pg_temp.uid('pro');
update public.profiles set created_at = now() - interval '30 days' where id in (pg_temp.uid('lapsed'), pg_temp.uid('admin2'));
insert into public.alerts_sent (symbol, exchange, pct, price, ts, recipient, hash, created_at)
select 'ALR/USD', 'Rules', i, 1, now(), 'enterprise@rules.test', 'alert-' || i, now() - make_interval(mins => i)
from generate_series(1, 60) i;

select pg_temp.login('admin');
-- 9 users; no paying Stripe subscription here, so no active subscription and no revenue
-- (20261125400300: plans switched on by hand are not income; 28-honest-revenue tests Stripe's);
-- online (5 min): user, basic, admin; signed up within 7 days: all but lapsed and admin2;
-- banned: banned, badmin; switched on by hand: basic, pro (not the banned pro, not the lapsed
-- enterprise); admins on a plan: admin.
select results_eq(
  'select * from public.admin_stats()',
  $$values (9::bigint, 0::bigint, 3::bigint, 7::bigint, 0::bigint, 2::bigint, 2::bigint, 1::bigint)$$,
  'admin_stats: users, paying subscriptions, online, recent sign-ups, revenue, banned, complimentary, admins on a plan'
);
select results_eq(
  'select email from public.admin_live_visitors()',
  $$values ('user@rules.test'::text), ('basic@rules.test'), ('admin@rules.test')$$,
  'admin_live_visitors: users active in the last 5 minutes, most recent first'
);
select is((select count(*)::int from public.admin_latest_alerts()), 50, 'admin_latest_alerts returns at most 50 alerts');
select results_eq(
  'select hash from public.admin_latest_alerts() limit 2',
  $$values ('alert-1'::text), ('alert-2')$$,
  'admin_latest_alerts: newest first'
);
select is((select min(pct)::int || '..' || max(pct)::int from public.admin_latest_alerts()), '1..50',
  'admin_latest_alerts: the 50 newest, the 10 oldest left out');
select pg_temp.logout();

-- =============================================================================================
-- Groups
-- =============================================================================================
select pg_temp.login('user');
select lives_ok(
  $$insert into public.groups (id, name, is_public, created_by)
    values ('b3000000-0000-4000-8000-000000000001', 'Rules public', true, auth.uid())$$,
  'a user creates a public group'
);
select results_eq(
  $$select user_id, role::text from public.group_members where group_id = 'b3000000-0000-4000-8000-000000000001'$$,
  $$values ('a3000000-0000-4000-8000-000000000002'::uuid, 'admin'::text)$$,
  'the creator becomes the group''s admin (and its only member)'
);
select lives_ok(
  $$insert into public.groups (id, name, is_public, created_by)
    values ('b3000000-0000-4000-8000-000000000002', 'Rules private', false, auth.uid())$$,
  'a user creates a private group'
);
select throws_ok(
  $$insert into public.groups (name, created_by) values ('Someone else''s', 'a3000000-0000-4000-8000-000000000003')$$,
  '42501', null, 'a group cannot be created in someone else''s name'
);
select lives_ok(
  $$insert into public.groups (name, is_public, created_by) values ('Private returning', false, auth.uid()) returning id$$,
  'a user creates a private group and reads it back in the same request'
);
select pg_temp.logout();

select pg_temp.login('other');
select results_eq(
  'select name from public.groups order by name',
  $$values ('Rules public'::text)$$,
  'another user lists public groups but not private ones'
);
select throws_ok(
  $$insert into public.group_members (group_id, user_id) values ('b3000000-0000-4000-8000-000000000002', auth.uid())$$,
  '42501', null, 'a private group cannot be joined without its invite code'
);
select throws_ok(
  $$insert into public.group_members (group_id, user_id, role) values ('b3000000-0000-4000-8000-000000000001', auth.uid(), 'admin')$$,
  '42501', null, 'nobody joins a group as its admin'
);
select throws_ok(
  $$insert into public.group_members (group_id, user_id) values ('b3000000-0000-4000-8000-000000000001', 'a3000000-0000-4000-8000-000000000004')$$,
  '42501', null, 'nobody adds another user to a group'
);
select throws_ok(
  $$select public.join_group_by_invite(gen_random_uuid())$$,
  'PT404', 'Invite code not found', 'an unknown invite code is refused'
);
select pg_temp.logout();
create temp table private_code as
  select invite_code from public.groups where id = 'b3000000-0000-4000-8000-000000000002';
grant select on private_code to authenticated, anon;
select pg_temp.login('other');
select is(
  public.join_group_by_invite((select invite_code from private_code)),
  'b3000000-0000-4000-8000-000000000002'::uuid,
  'the invite code joins the private group and returns its id'
);
select lives_ok($$select public.join_group_by_invite((select invite_code from private_code))$$,
  'joining twice is harmless');
select results_eq(
  'select name from public.groups order by name',
  $$values ('Rules private'::text), ('Rules public')$$,
  'members see their private group'
);
select is(
  (select role::text from public.group_members where group_id = 'b3000000-0000-4000-8000-000000000002' and user_id = auth.uid()),
  'member', 'an invited user joins as a member'
);
select is_empty(
  $$update public.group_members set role = 'admin' where user_id = auth.uid() returning 1$$,
  'a member cannot make themselves group admin'
);
select is_empty(
  $$update public.groups set name = 'Taken over' where id = 'b3000000-0000-4000-8000-000000000002' returning 1$$,
  'a member cannot rename the group'
);
select pg_temp.logout();
select is(pg_temp.probe('banned', $$select public.join_group_by_invite((select invite_code from private_code))$$),
  'error PT403', 'a banned user cannot join by invite');
select is(pg_temp.probe('anon', $$select public.join_group_by_invite((select invite_code from private_code))$$),
  'error 42501', 'anon cannot call join_group_by_invite');

-- =============================================================================================
-- Messages and blocks (in the public group: user, other, basic)
-- =============================================================================================
insert into public.group_members (group_id, user_id) values
  ('b3000000-0000-4000-8000-000000000001', 'a3000000-0000-4000-8000-000000000003'),
  ('b3000000-0000-4000-8000-000000000001', 'a3000000-0000-4000-8000-000000000004');
insert into public.messages (id, group_id, sender_id, content) values
  ('c3000000-0000-4000-8000-000000000001', 'b3000000-0000-4000-8000-000000000001', 'a3000000-0000-4000-8000-000000000002', 'from user'),
  ('c3000000-0000-4000-8000-000000000002', 'b3000000-0000-4000-8000-000000000001', 'a3000000-0000-4000-8000-000000000003', 'from other'),
  ('c3000000-0000-4000-8000-000000000003', 'b3000000-0000-4000-8000-000000000001', 'a3000000-0000-4000-8000-000000000004', 'from basic');

select pg_temp.login('user');
select is((select count(*)::int from public.messages), 3, 'a member reads the group''s messages');
select lives_ok($$insert into public.user_blocks (blocked_id) values ('a3000000-0000-4000-8000-000000000003')$$,
  'a user blocks another member');
select results_eq('select content from public.messages order by content',
  $$values ('from basic'::text), ('from user')$$,
  'the blocker no longer sees the blocked user''s messages');
select throws_ok(
  $$insert into public.messages (group_id, sender_id, content) values ('b3000000-0000-4000-8000-000000000001', 'a3000000-0000-4000-8000-000000000003', 'forged')$$,
  '42501', null, 'nobody writes in someone else''s name'
);
select is(
  pg_temp.probe('user', $$insert into public.messages (group_id, content, created_at) values ('b3000000-0000-4000-8000-000000000001', 'backdated', now() - interval '1 year')$$),
  'error 42501', 'a member cannot choose a message''s created_at'
);
select pg_temp.login('basic');
select is((select count(*)::int from public.messages), 3, 'a block hides messages only from the blocker');
select pg_temp.login('other');
select is((select count(*)::int from public.messages), 3, 'the blocked user still sees the blocker');
select is_empty($$update public.messages set content = 'edited by other' where id = 'c3000000-0000-4000-8000-000000000001' returning 1$$,
  'a user cannot edit someone else''s message');
select is_empty($$delete from public.messages where id = 'c3000000-0000-4000-8000-000000000001' returning 1$$,
  'a user cannot delete someone else''s message');
select is_empty($$delete from public.user_blocks returning 1$$, 'a user cannot lift someone else''s block');
select pg_temp.login('user');
select throws_ok($$update public.messages set sender_id = 'a3000000-0000-4000-8000-000000000003' where id = 'c3000000-0000-4000-8000-000000000001'$$,
  '42501', null, 'the sender cannot change sender_id');
select throws_ok($$update public.messages set group_id = 'b3000000-0000-4000-8000-000000000002' where id = 'c3000000-0000-4000-8000-000000000001'$$,
  '42501', null, 'the sender cannot move a message to another group');
select throws_ok($$update public.messages set created_at = now() - interval '1 year' where id = 'c3000000-0000-4000-8000-000000000001'$$,
  '42501', null, 'the sender cannot change created_at');
select throws_ok($$update public.messages set attachment_type = 'gif', attachment_url = 'https://x.test/a.gif' where id = 'c3000000-0000-4000-8000-000000000001'$$,
  '42501', null, 'the sender cannot change the attachment');
select results_eq($$update public.messages set content = 'edited by user' where id = 'c3000000-0000-4000-8000-000000000001' returning content$$,
  $$values ('edited by user'::text)$$, 'the sender edits the content of their message');
select lives_ok($$delete from public.user_blocks where blocked_id = 'a3000000-0000-4000-8000-000000000003'$$, 'the blocker lifts the block');
select is((select count(*)::int from public.messages), 3, 'after unblocking the messages are visible again');
select results_eq($$delete from public.messages where id = 'c3000000-0000-4000-8000-000000000001' returning id$$,
  $$values ('c3000000-0000-4000-8000-000000000001'::uuid)$$, 'the sender deletes their message');
select pg_temp.logout();
select results_eq(
  $$select id, content from public.messages where id in ('c3000000-0000-4000-8000-000000000001', 'c3000000-0000-4000-8000-000000000002') order by id$$,
  $$values ('c3000000-0000-4000-8000-000000000002'::uuid, 'from other'::text)$$,
  'only the sender''s own message is gone; the other is untouched'
);
select pg_temp.login('other');
select lives_ok($$delete from public.group_members where group_id = 'b3000000-0000-4000-8000-000000000001' and user_id = auth.uid()$$,
  'a member leaves the group');
select is((select count(*)::int from public.messages where group_id = 'b3000000-0000-4000-8000-000000000001'), 0,
  'after leaving, the group''s messages are no longer readable');
select throws_ok($$insert into public.messages (group_id, content) values ('b3000000-0000-4000-8000-000000000001', 'still here?')$$,
  '42501', null, 'after leaving, nothing can be posted');
select pg_temp.logout();

-- =============================================================================================
-- Support tickets
-- =============================================================================================
set local request.headers to '{"x-forwarded-for":"203.0.113.7, 10.0.0.1"}';
select pg_temp.login('user');
select lives_ok($$insert into public.support_tickets (subject, content) values ('Rules ticket', 'Something does not work')$$,
  'a user opens a ticket');
select pg_temp.logout();
update public.support_tickets set id = 'd3000000-0000-4000-8000-000000000001' where subject = 'Rules ticket';
select pg_temp.login('user');
select lives_ok($$insert into public.ticket_messages (ticket_id, content) values ('d3000000-0000-4000-8000-000000000001', 'More details')$$,
  'the owner replies');
select throws_ok($$insert into public.ticket_messages (ticket_id, content, is_admin_reply) values
  ('d3000000-0000-4000-8000-000000000001', 'I am the admin', true)$$, '42501', null, 'is_admin_reply is not writable by users');
select throws_ok($$insert into public.ticket_messages (ticket_id, content, sender_id) values
  ('d3000000-0000-4000-8000-000000000001', 'Forged', 'a3000000-0000-4000-8000-000000000001')$$, '42501', null, 'sender_id is not writable by users');
select throws_ok($$update public.support_tickets set status = 'closed' where id = 'd3000000-0000-4000-8000-000000000001'$$,
  '42501', null, 'the owner cannot change the status directly');
select pg_temp.login('other');
select throws_ok($$insert into public.ticket_messages (ticket_id, content) values ('d3000000-0000-4000-8000-000000000001', 'Me too')$$,
  '42501', null, 'another user cannot reply on the ticket');
select pg_temp.login('admin');
select lives_ok($$insert into public.ticket_messages (ticket_id, content) values ('d3000000-0000-4000-8000-000000000001', 'We are on it')$$,
  'an admin replies on any ticket');
select pg_temp.logout();
insert into public.ticket_messages (ticket_id, sender_id, content, is_admin_reply) values
  ('d3000000-0000-4000-8000-000000000001', 'a3000000-0000-4000-8000-000000000002', 'Claims to be admin', true);
select results_eq(
  $$select content, is_admin_reply from public.ticket_messages where ticket_id = 'd3000000-0000-4000-8000-000000000001' order by content$$,
  $$values ('Claims to be admin'::text, false), ('More details', false), ('We are on it', true)$$,
  'is_admin_reply is set by the database from the sender''s role, ignoring a supplied value'
);
select pg_temp.login('admin');
select lives_ok($$select public.admin_set_ticket_status('d3000000-0000-4000-8000-000000000001', 'closed')$$, 'an admin closes the ticket');
select throws_ok($$insert into public.ticket_messages (ticket_id, content) values ('d3000000-0000-4000-8000-000000000001', 'One more thing')$$,
  'PT409', 'This ticket is closed; replies are no longer possible', 'an admin cannot reply on a closed ticket');
select pg_temp.login('user');
select throws_ok($$insert into public.ticket_messages (ticket_id, content) values ('d3000000-0000-4000-8000-000000000001', 'One more thing')$$,
  'PT409', 'This ticket is closed; replies are no longer possible', 'the owner cannot reply on a closed ticket');
select is((select status::text from public.support_tickets where id = 'd3000000-0000-4000-8000-000000000001'), 'closed',
  'the owner sees the ticket closed');
select pg_temp.logout();

-- =============================================================================================
-- A banned user reads their own profile and nothing else, and writes nothing.
-- =============================================================================================
insert into public.group_members (group_id, user_id) values ('b3000000-0000-4000-8000-000000000001', pg_temp.uid('banned'));
insert into public.messages (group_id, sender_id, content) values ('b3000000-0000-4000-8000-000000000001', pg_temp.uid('banned'), 'before the ban');
insert into public.support_tickets (user_id, subject, content) values (pg_temp.uid('banned'), 'Banned ticket', 'Written before the ban');
insert into public.user_blocks (blocker_id, blocked_id) values (pg_temp.uid('banned'), pg_temp.uid('user'));
insert into public.user_reports (reporter_id, reported_id, reason) values (pg_temp.uid('banned'), pg_temp.uid('user'), 'spam');
insert into public.billing_customers (user_id, stripe_customer_id) values (pg_temp.uid('banned'), 'cus_banned');
insert into public.billing_subscriptions (id, user_id, stripe_customer_id, plan, status)
values ('sub_banned', pg_temp.uid('banned'), 'cus_banned', 'pro', 'active');
insert into public.instruments (symbol, exchange) values ('BAN/USD', 'Rules');

create function pg_temp.tables_visible_to(who text, exclude text[]) returns text[] language plpgsql as $$
declare
  t text;
  r text;
  seen text[] := '{}';
begin
  for t in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'public' and c.relkind = 'r' and c.relname <> all (exclude) order by 1 loop
    r := pg_temp.probe(who, format('select 1 from public.%I', t));
    if r not in ('rows=0', 'error 42501') then
      seen := seen || (t || ':' || r);
    end if;
  end loop;
  return seen;
end;
$$;

select pg_temp.login('banned');
select results_eq('select id, banned from public.profiles',
  $$values ('a3000000-0000-4000-8000-000000000006'::uuid, true)$$, 'a banned user reads their own profile');
select pg_temp.logout();
select is(pg_temp.tables_visible_to('banned', '{profiles,billing_customers,billing_subscriptions}'), '{}'::text[],
  'a banned user reads no other table, not even their own groups, messages, tickets, blocks, reports');
select is(pg_temp.tables_visible_to('banned', '{}'), array['profiles:rows=1'],
  'a banned user reads nothing but their profile, billing included');
select is(pg_temp.probe('banned', $$update public.profiles set username = 'banned_rename' where id = auth.uid()$$),
  'rows=0', 'a banned user cannot update their own profile');
select is(pg_temp.probe('banned', $$insert into public.groups (name, created_by) values ('Banned group', auth.uid())$$),
  'error 42501', 'a banned user cannot create a group');
select is(pg_temp.probe('banned', $$insert into public.group_members (group_id, user_id) values ('b3000000-0000-4000-8000-000000000002', auth.uid())$$),
  'error 42501', 'a banned user cannot join a group');
select is(pg_temp.probe('banned', $$insert into public.messages (group_id, content) values ('b3000000-0000-4000-8000-000000000001', 'still here')$$),
  'error 42501', 'a banned user cannot post in a group they belong to');
select is(pg_temp.probe('banned', $$delete from public.messages where sender_id = auth.uid()$$),
  'rows=0', 'a banned user cannot delete their messages');
select is(pg_temp.probe('banned', $$delete from public.group_members where user_id = auth.uid()$$),
  'rows=0', 'a banned user cannot leave (membership rows are frozen)');
select is(pg_temp.probe('banned', $$insert into public.support_tickets (subject, content) values ('Let me in', 'Please unban my account')$$),
  'error 42501', 'a banned user cannot open a ticket');
select is(pg_temp.probe('banned', $$insert into public.user_blocks (blocked_id) values ('a3000000-0000-4000-8000-000000000003')$$),
  'error 42501', 'a banned user cannot block');
select is(pg_temp.probe('banned', $$delete from public.user_blocks where blocker_id = auth.uid()$$),
  'rows=0', 'a banned user cannot unblock');
select is(pg_temp.probe('banned', $$insert into public.user_reports (reported_id, reason) values ('a3000000-0000-4000-8000-000000000003', 'spam')$$),
  'error 42501', 'a banned user cannot report');
select is(pg_temp.probe('banned', 'select * from public.movers_feed(15)'), 'error PT403', 'a banned subscriber gets no market data');
select is(pg_temp.probe('badmin', 'select * from public.admin_stats()'), 'error PT403', 'a banned admin is no admin');

-- =============================================================================================
-- username_available and touch_activity
-- =============================================================================================
select pg_temp.login('user');
select is(public.username_available('Taken_Name'), false, 'username_available: a taken name');
select is(public.username_available('taken_name'), false, 'username_available: a taken name in another case');
select is(public.username_available('TAKEN_NAME'), false, 'username_available: a taken name in upper case');
select is(public.username_available('free_name'), true, 'username_available: a free name');
select is(public.username_available('rules_user'), true, 'username_available: the caller''s own name');
select is(public.username_available('RULES_USER'), true, 'username_available: the caller''s own name in another case');
select is(public.username_available('ab'), false, 'username_available: too short');
select is(public.username_available(repeat('a', 31)), false, 'username_available: too long');
select is(public.username_available('bad-name'), false, 'username_available: invalid characters');
select pg_temp.logout();
select is(pg_temp.probe('anon', $$select public.username_available('free_name')$$), 'error 42501', 'username_available: not for anon');

update public.profiles set last_activity_at = null where id = pg_temp.uid('user');
update public.profiles set last_activity_at = now() - interval '30 seconds' where id = pg_temp.uid('basic');
update public.profiles set last_activity_at = now() - interval '61 seconds' where id = pg_temp.uid('pro');
select pg_temp.login('user');
select public.touch_activity();
select pg_temp.login('basic');
select public.touch_activity();
select pg_temp.login('pro');
select public.touch_activity();
select pg_temp.logout();
select is((select last_activity_at from public.profiles where id = pg_temp.uid('user')), now(),
  'touch_activity: a first heartbeat is stored');
select is((select last_activity_at from public.profiles where id = pg_temp.uid('basic')), now() - interval '30 seconds',
  'touch_activity: within a minute of the last one, nothing is written');
select is((select last_activity_at from public.profiles where id = pg_temp.uid('pro')), now(),
  'touch_activity: after a minute, the heartbeat is stored');
select is((select last_activity_at from public.profiles where id = pg_temp.uid('admin')), now() - interval '3 minutes',
  'touch_activity: only the caller''s row changes');
select is(pg_temp.probe('anon', 'select public.touch_activity()'), 'error 42501', 'touch_activity: not for anon');

-- =============================================================================================
-- Admin RPCs: refused to everyone but admins
-- =============================================================================================
create temp table rpc (ord serial, call text);
insert into rpc (call) values
  ($$select public.admin_set_plan('a3000000-0000-4000-8000-000000000003', 'pro')$$),
  ($$select public.admin_set_subscription('a3000000-0000-4000-8000-000000000003', true)$$),
  ($$select public.admin_ban_user('a3000000-0000-4000-8000-000000000003', 'Spamming links')$$),
  ($$select public.admin_unban_user('a3000000-0000-4000-8000-000000000006')$$),
  ($$select public.admin_delete_user('a3000000-0000-4000-8000-000000000003')$$),
  ($$select public.admin_set_ticket_status('d3000000-0000-4000-8000-000000000001', 'open')$$),
  ($$select * from public.admin_stats()$$),
  ($$select * from public.admin_live_visitors()$$),
  ($$select * from public.admin_latest_alerts()$$);
select is(pg_temp.probe(w.who, r.call), w.want,
          format('%s: %s', w.who, regexp_replace(r.call, '^select (\* from )?public\.([a-z_]+).*$', '\2')) || ' -> ' || w.want)
from rpc r
cross join (values (1, 'anon', 'error 42501'), (2, 'user', 'error PT403'), (3, 'pro', 'error PT403'), (4, 'badmin', 'error PT403')) as w (ord, who, want)
order by r.ord, w.ord;
select is((select count(*)::int from public.activity_logs where action <> 'set_ticket_status'), 0, 'refused calls leave no log');

-- =============================================================================================
-- Admin RPCs: effects and activity log (admin, action, target, details, IP)
-- =============================================================================================
select pg_temp.login('admin');
select lives_ok($$select public.admin_set_plan('a3000000-0000-4000-8000-000000000004', 'pro')$$, 'admin_set_plan');
select lives_ok($$select public.admin_set_subscription('a3000000-0000-4000-8000-000000000004', false)$$, 'admin_set_subscription');
select lives_ok($$select public.admin_ban_user('a3000000-0000-4000-8000-000000000003', '  Spamming links  ')$$, 'admin_ban_user');
select pg_temp.logout();
select results_eq(
  $$select plan::text, subscription_active from public.profiles where id = 'a3000000-0000-4000-8000-000000000004'$$,
  $$values ('pro'::text, false)$$, 'the plan and subscription are set');
select results_eq(
  $$select banned, banned_reason, banned_at is not null from public.profiles where id = 'a3000000-0000-4000-8000-000000000003'$$,
  $$values (true, 'Spamming links'::text, true)$$, 'the user is banned with the trimmed reason and a date');
select pg_temp.login('admin');
select lives_ok($$select public.admin_unban_user('a3000000-0000-4000-8000-000000000003')$$, 'admin_unban_user');
select lives_ok($$select public.admin_set_ticket_status('d3000000-0000-4000-8000-000000000001', 'in_progress')$$, 'admin_set_ticket_status');
select pg_temp.logout();
select results_eq(
  $$select banned, banned_reason, banned_at from public.profiles where id = 'a3000000-0000-4000-8000-000000000003'$$,
  $$values (false, null::text, null::timestamptz)$$, 'unbanning clears the ban');
select is((select status::text from public.support_tickets where id = 'd3000000-0000-4000-8000-000000000001'), 'in_progress',
  'the ticket status is set');

select pg_temp.login('admin');
select throws_ok($$select public.admin_set_plan('a3000000-0000-4000-8000-000000000006', 'enterprise')$$,
  'PT409', null, 'admin_set_plan refuses a banned user');
select throws_ok($$select public.admin_set_subscription('a3000000-0000-4000-8000-000000000006', false)$$,
  'PT409', null, 'admin_set_subscription refuses a banned user');
select throws_ok($$select public.admin_set_plan(gen_random_uuid(), 'pro')$$, 'PT404', 'User not found', 'admin_set_plan: unknown user');
select throws_ok($$select public.admin_set_ticket_status(gen_random_uuid(), 'open')$$, 'PT404', 'Ticket not found',
  'admin_set_ticket_status: unknown ticket');
select throws_ok($$select public.admin_ban_user('a3000000-0000-4000-8000-000000000002', ' abcd ')$$, '23514', null,
  'admin_ban_user: a reason under 5 characters is refused');
select throws_ok($$select public.admin_ban_user('a3000000-0000-4000-8000-000000000002', repeat('r', 501))$$, '23514', null,
  'admin_ban_user: a reason over 500 characters is refused');
select throws_ok($$select public.admin_ban_user('a3000000-0000-4000-8000-000000000008', 'Some reason')$$, 'PT403', 'Admins cannot be banned',
  'admin_ban_user: never an admin');
select throws_ok($$select public.admin_delete_user('a3000000-0000-4000-8000-000000000008')$$, 'PT403', 'Admins cannot be deleted',
  'admin_delete_user: never an admin');
select throws_ok($$select public.admin_delete_user('a3000000-0000-4000-8000-000000000001')$$, 'PT403', 'Admins cannot be deleted',
  'admin_delete_user: not even oneself');
select lives_ok($$select public.admin_delete_user('a3000000-0000-4000-8000-000000000003')$$, 'admin_delete_user');
select pg_temp.logout();
select results_eq(
  $$select (select count(*)::int from public.profiles where id = 'a3000000-0000-4000-8000-000000000006'),
           (select plan::text from public.profiles where id = 'a3000000-0000-4000-8000-000000000006'),
           (select count(*)::int from public.profiles where id = 'a3000000-0000-4000-8000-000000000008' and not banned)$$,
  $$values (1, 'pro'::text, 1)$$, 'refused calls change nothing');
select is((select count(*)::int from auth.users where id = 'a3000000-0000-4000-8000-000000000003'), 0,
  'the deleted user''s account is gone');
select is((select count(*)::int from public.profiles where id = 'a3000000-0000-4000-8000-000000000003'), 0,
  'the deleted user''s profile is gone');

select results_eq(
  $$select action, target_user_id, target_user_email, details, host(ip_address)
    from public.activity_logs where admin_id = 'a3000000-0000-4000-8000-000000000001'
    order by case action when 'set_ticket_status' then 0 when 'set_plan' then 1 when 'set_subscription' then 2
             when 'ban_user' then 3 when 'unban_user' then 4 else 5 end, details$$,
  $$values
    ('set_ticket_status'::text, 'a3000000-0000-4000-8000-000000000002'::uuid, 'user@rules.test'::text,
     (select '#' || ticket_number || ': closed -> in_progress' from public.support_tickets where subject = 'Rules ticket'), '203.0.113.7'::text),
    ('set_ticket_status', 'a3000000-0000-4000-8000-000000000002', 'user@rules.test',
     (select '#' || ticket_number || ': open -> closed' from public.support_tickets where subject = 'Rules ticket'), '203.0.113.7'),
    ('set_plan', 'a3000000-0000-4000-8000-000000000004', 'basic@rules.test', 'basic -> pro', '203.0.113.7'),
    ('set_subscription', 'a3000000-0000-4000-8000-000000000004', 'basic@rules.test', 'inactive', '203.0.113.7'),
    ('ban_user', 'a3000000-0000-4000-8000-000000000003', 'other@rules.test', 'Spamming links', '203.0.113.7'),
    ('unban_user', 'a3000000-0000-4000-8000-000000000003', 'other@rules.test', null, '203.0.113.7'),
    ('delete_user', 'a3000000-0000-4000-8000-000000000003', 'other@rules.test', 'other@rules.test', '203.0.113.7')$$,
  'every admin action is logged with admin, action, target, details and the first X-Forwarded-For address'
);
select pg_temp.login('admin');
select is((select count(*)::int from public.activity_logs), 7, 'admins read the activity log');
select pg_temp.login('pro');
select is((select count(*)::int from public.activity_logs), 0, 'others do not');
select pg_temp.logout();

set local request.headers to '{}';
select pg_temp.login('admin');
select public.admin_set_subscription('a3000000-0000-4000-8000-000000000004', true);
select pg_temp.logout();
select is((select ip_address from public.activity_logs where action = 'set_subscription' and details = 'active'), null::inet,
  'without a forwarded address the IP is left empty');
set local request.headers to '{"x-forwarded-for":"not-an-ip"}';
select pg_temp.login('admin');
select public.admin_set_subscription('a3000000-0000-4000-8000-000000000004', false);
select pg_temp.logout();
select is((select count(*)::int from public.activity_logs where action = 'set_subscription' and details = 'inactive' and ip_address is null), 1,
  'a malformed forwarded address is logged as an empty IP, not an error');
set local request.headers to '{"x-forwarded-for":"203.0.113.7, 10.0.0.1"}';

-- =============================================================================================
-- promote_self
-- =============================================================================================
select pg_temp.login('user');
select throws_ok($$select public.promote_self('anything')$$, 'PT403', 'Admin self-promotion is disabled',
  'promote_self is disabled while no secret is configured');
select pg_temp.logout();
insert into private.app_settings (key, value) values ('admin_setup_secret', '');
select pg_temp.login('user');
select throws_ok($$select public.promote_self('')$$, 'PT403', 'Admin self-promotion is disabled',
  'an empty secret keeps promote_self disabled');
select pg_temp.logout();
update private.app_settings set value = 'correct-horse-battery' where key = 'admin_setup_secret';
select is(pg_temp.probe('anon', $$select public.promote_self('correct-horse-battery')$$), 'error 42501', 'anon cannot call promote_self');
select is(pg_temp.probe('banned', $$select public.promote_self('correct-horse-battery')$$), 'error PT403', 'a banned user cannot be promoted');

select pg_temp.login('user');
select is(public.promote_self('wrong-secret'), null::public.plan, 'a wrong secret returns null');
select is(public.promote_self(null), null::public.plan, 'a null secret is a wrong secret');
select pg_temp.logout();
select results_eq(
  $$select admin_id, action, target_user_id, target_user_email, host(ip_address) from public.activity_logs
    where target_user_id = 'a3000000-0000-4000-8000-000000000002' and action like 'promote%'$$,
  $$values (null::uuid, 'promote_self_failed'::text, 'a3000000-0000-4000-8000-000000000002'::uuid, 'user@rules.test'::text, '203.0.113.7'::text),
           (null::uuid, 'promote_self_failed'::text, 'a3000000-0000-4000-8000-000000000002'::uuid, 'user@rules.test'::text, '203.0.113.7'::text)$$,
  'failed attempts are logged as promote_self_failed with target and IP'
);
select is((select role::text from public.profiles where id = pg_temp.uid('user')), 'user', 'a wrong secret changes nothing');
select pg_temp.login('user');
select is(public.promote_self('correct-horse-battery'), 'enterprise'::public.plan, 'the right secret returns the new plan');
select pg_temp.logout();
select results_eq(
  $$select role::text, plan::text, subscription_active from public.profiles where id = 'a3000000-0000-4000-8000-000000000002'$$,
  $$values ('admin'::text, 'enterprise'::text, true)$$, 'the right secret makes the caller an admin on enterprise');
select results_eq(
  $$select admin_id, target_user_id, host(ip_address) from public.activity_logs where action = 'promote_self'$$,
  $$values ('a3000000-0000-4000-8000-000000000002'::uuid, 'a3000000-0000-4000-8000-000000000002'::uuid, '203.0.113.7'::text)$$,
  'a successful promotion is logged with the new admin');
select pg_temp.login('user');
select lives_ok('select * from public.admin_stats()', 'the promoted user may use the admin RPCs');
select pg_temp.logout();

-- Rate limit: five failed attempts in 15 minutes, the sixth is refused.
select pg_temp.login('pro');
select is(public.promote_self('wrong-' || i), null::public.plan, format('failed attempt %s is answered', i))
from generate_series(1, 5) i;
select throws_ok($$select public.promote_self('wrong-6')$$, 'PT429', 'Too many attempts. Try again in 15 minutes.',
  'the sixth failed attempt within 15 minutes is refused');
select throws_ok($$select public.promote_self('correct-horse-battery')$$, 'PT429', null,
  'while locked out even the right secret is refused');
select pg_temp.logout();
select is((select count(*)::int from public.activity_logs where action = 'promote_self_failed' and target_user_id = pg_temp.uid('pro')), 5,
  'the five answered attempts are logged');
update private.promotion_attempts set attempted_at = now() - interval '16 minutes' where user_id = pg_temp.uid('pro');
select pg_temp.login('pro');
select is(public.promote_self('correct-horse-battery'), 'enterprise'::public.plan, 'attempts older than 15 minutes no longer count');
select pg_temp.logout();

select * from finish();
rollback;
