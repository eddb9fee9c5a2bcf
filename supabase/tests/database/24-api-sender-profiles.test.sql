-- group_senders and ticket_senders (migration 20261124400000): who wrote a message, for the /api
-- layer. Members read their group's senders, owners and admins a ticket's; e-mails only for
-- self and admins; outsiders, banned users and anon are refused.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(17);

create temp table u (code text primary key, uid uuid);
insert into u values
  ('owner',    'b2400000-0000-4000-8000-000000000001'),
  ('member',   'b2400000-0000-4000-8000-000000000002'),
  ('outsider', 'b2400000-0000-4000-8000-000000000003'),
  ('banned',   'b2400000-0000-4000-8000-000000000004'),
  ('admin',    'b2400000-0000-4000-8000-000000000005');
grant select on u to anon, authenticated;
insert into auth.users (id, email) select uid, code || '@senders.test' from u;
update public.profiles set username = 'sender_' || (select code from u where u.uid = profiles.id)
  where id in (select uid from u);
update public.profiles set plan = 'pro', subscription_active = true
  where id = 'b2400000-0000-4000-8000-000000000002';
update public.profiles set role = 'admin', plan = 'enterprise', subscription_active = true
  where id = 'b2400000-0000-4000-8000-000000000005';

insert into public.groups (id, name, created_by) values
  ('c2400000-0000-4000-8000-000000000001', 'Senders group', 'b2400000-0000-4000-8000-000000000001');
insert into public.group_members (group_id, user_id) values
  ('c2400000-0000-4000-8000-000000000001', 'b2400000-0000-4000-8000-000000000002'),
  ('c2400000-0000-4000-8000-000000000001', 'b2400000-0000-4000-8000-000000000004');
insert into public.messages (group_id, sender_id, content) values
  ('c2400000-0000-4000-8000-000000000001', 'b2400000-0000-4000-8000-000000000002', 'hello');
update public.profiles set banned = true, banned_reason = 'spamming the chat'
  where id = 'b2400000-0000-4000-8000-000000000004';

insert into public.support_tickets (id, user_id, subject, content) values
  ('d2400000-0000-4000-8000-000000000001', 'b2400000-0000-4000-8000-000000000001',
   'Cannot log in', 'I cannot log in since yesterday.');
insert into public.ticket_messages (ticket_id, sender_id, content) values
  ('d2400000-0000-4000-8000-000000000001', 'b2400000-0000-4000-8000-000000000005', 'We are on it.');

create function pg_temp.login(who text) returns void language plpgsql as $$
declare
  id uuid;
begin
  select uid into strict id from pg_temp.u where code = who;
  perform tests.authenticate_as(id);
end;
$$;

-- group_senders
select pg_temp.login('member');
select set_eq($$select username from public.group_senders('c2400000-0000-4000-8000-000000000001')$$,
  array['sender_owner', 'sender_member', 'sender_banned'], 'a member reads the names of the group''s members');
select is((select email from public.group_senders('c2400000-0000-4000-8000-000000000001') where username = 'sender_owner'),
  null, 'a member does not see a fellow member''s e-mail');
select is((select email from public.group_senders('c2400000-0000-4000-8000-000000000001') where username = 'sender_member'),
  'member@senders.test', 'a member sees their own e-mail');
select is((select plan::text from public.group_senders('c2400000-0000-4000-8000-000000000001') where username = 'sender_member'),
  'pro', 'an active subscriber''s plan badge');
select is((select plan::text from public.group_senders('c2400000-0000-4000-8000-000000000001') where username = 'sender_banned'),
  'none', 'a banned sender shows no plan badge');
select pg_temp.login('outsider');
select throws_ok($$select * from public.group_senders('c2400000-0000-4000-8000-000000000001')$$, 'PT403',
  'Join the group to read its messages', 'a non-member is refused');
select pg_temp.login('banned');
select throws_ok($$select * from public.group_senders('c2400000-0000-4000-8000-000000000001')$$, 'PT403', null,
  'a banned member is refused');
select pg_temp.login('admin');
select throws_ok($$select * from public.group_senders('c2400000-0000-4000-8000-000000000001')$$, 'PT403', null,
  'an admin who is not a member is refused too (chat is for members)');
select throws_ok($$select * from public.group_senders(null)$$, 'PT403', null, 'a null group is refused');

-- ticket_senders
select pg_temp.login('owner');
select set_eq($$select username from public.ticket_senders('d2400000-0000-4000-8000-000000000001')$$,
  array['sender_owner', 'sender_admin'], 'the owner reads the names of the ticket''s owner and repliers');
select is((select email from public.ticket_senders('d2400000-0000-4000-8000-000000000001') where username = 'sender_admin'),
  null, 'the owner does not see the admin''s e-mail');
select is((select is_admin from public.ticket_senders('d2400000-0000-4000-8000-000000000001') where username = 'sender_admin'),
  true, 'admin repliers are flagged');
select pg_temp.login('admin');
select is((select email from public.ticket_senders('d2400000-0000-4000-8000-000000000001') where username = 'sender_owner'),
  'owner@senders.test', 'an admin sees the owner''s e-mail');
select pg_temp.login('member');
select throws_ok($$select * from public.ticket_senders('d2400000-0000-4000-8000-000000000001')$$, 'PT404',
  'Ticket not found', 'another user is answered as if the ticket did not exist');

-- anon
select tests.authenticate_as_anon();
select throws_ok($$select * from public.group_senders('c2400000-0000-4000-8000-000000000001')$$, '42501', null,
  'anon cannot call group_senders');
select throws_ok($$select * from public.ticket_senders('d2400000-0000-4000-8000-000000000001')$$, '42501', null,
  'anon cannot call ticket_senders');
select set_config('role', 'none', true);
select ok(not has_function_privilege('anon', 'public.group_senders(uuid)', 'execute'), 'anon holds no execute grant');

select * from finish();
rollback;
