-- Priority support (migration 20261125400200, decision 0036): each ticket's plan and first-
-- response target (Enterprise 1 h, Pro 4 h, Basic 24 h, free 72 h), set by the database; the
-- first admin reply; the desk's order (plan priority, then waiting time); and the e-mail to the
-- admins when an Enterprise ticket passes its target unanswered.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(25);

delete from auth.users;

create temp table u (code text primary key, uid uuid, plan public.plan, active boolean, role public.app_role, banned boolean);
insert into u values
  ('free',       'a2700000-0000-4000-8000-000000000001', 'none',       false, 'user',  false),
  ('basic',      'a2700000-0000-4000-8000-000000000002', 'basic',      true,  'user',  false),
  ('pro',        'a2700000-0000-4000-8000-000000000003', 'pro',        true,  'user',  false),
  ('enterprise', 'a2700000-0000-4000-8000-000000000004', 'enterprise', true,  'user',  false),
  ('banned',     'a2700000-0000-4000-8000-000000000005', 'enterprise', true,  'user',  true),
  ('lapsed',     'a2700000-0000-4000-8000-000000000006', 'enterprise', false, 'user',  false),
  ('admin',      'a2700000-0000-4000-8000-000000000007', 'none',       false, 'admin', false),
  ('admin2',     'a2700000-0000-4000-8000-000000000008', 'enterprise', true,  'admin', false);
grant select on u to anon, authenticated;
insert into auth.users (id, email) select uid, code || '@support.test' from u;
update public.profiles p set plan = u.plan, subscription_active = u.active, role = u.role
from u where p.id = u.uid;
update public.profiles p set banned = true, banned_reason = 'Support fixture ban'
from u where p.id = u.uid and u.banned;

create function pg_temp.login(who text) returns void language plpgsql as $$
declare
  id uuid;
begin
  perform set_config('role', 'none', true);
  select uid into strict id from pg_temp.u where code = who;
  perform tests.authenticate_as(id);
end;
$$;
create function pg_temp.uid(who text) returns uuid language sql as $$ select uid from pg_temp.u where code = who $$;

select is(public.support_response_target(p), t, format('%s: first answer within %s', p, t))
from (values ('enterprise'::public.plan, interval '1 hour'), ('pro', interval '4 hours'),
             ('basic', interval '24 hours'), ('none', interval '72 hours')) v(p, t);

-- Each user opens a ticket; the database sets its plan and due time.
select pg_temp.login('free');
insert into public.support_tickets (subject, content) values ('Free question', 'How do alerts work here?');
reset role;
select pg_temp.login('basic');
insert into public.support_tickets (subject, content) values ('Basic question', 'How do alerts work here?');
reset role;
select pg_temp.login('pro');
insert into public.support_tickets (subject, content) values ('Pro question', 'How do alerts work here?');
select throws_ok($$ insert into public.support_tickets (subject, content, support_plan) values ('Forged plan', 'Make me enterprise please', 'enterprise') $$,
  '42501', null, 'a user cannot choose the plan a ticket is served under');
select throws_ok($$ insert into public.support_tickets (subject, content, response_due_at) values ('Forged due', 'Make it due tomorrow please', now()) $$,
  '42501', null, 'nor its due time');
reset role;
select pg_temp.login('enterprise');
insert into public.support_tickets (subject, content) values ('Enterprise question', 'How do alerts work here?');
reset role;
select pg_temp.login('lapsed');
insert into public.support_tickets (subject, content) values ('Lapsed question', 'How do alerts work here?');
reset role;
select pg_temp.login('banned');
select throws_ok($$ insert into public.support_tickets (subject, content) values ('Banned question', 'How do alerts work here?') $$,
  '42501', null, 'a banned user opens no ticket');
reset role;

select results_eq(
  $$ select u.code, t.support_plan::text, t.response_due_at - t.created_at, t.first_response_at
     from public.support_tickets t join pg_temp.u u on u.uid = t.user_id order by u.code $$,
  $$ values ('basic', 'basic', interval '24 hours', null::timestamptz), ('enterprise', 'enterprise', interval '1 hour', null),
            ('free', 'none', interval '72 hours', null), ('lapsed', 'none', interval '72 hours', null),
            ('pro', 'pro', interval '4 hours', null) $$,
  'each ticket is served under its owner''s active plan, with that plan''s target');

-- The owner sees the target on their ticket.
select pg_temp.login('pro');
select is((select response_due_at - created_at from public.support_tickets), interval '4 hours', 'the owner reads the due time of their ticket');
select is((select count(*)::int from public.support_tickets), 1, 'and only their own ticket');
reset role;

-- Two more Pro tickets waiting longer, one Enterprise ticket already answered.
insert into public.support_tickets (user_id, subject, content, created_at, updated_at) values
  (pg_temp.uid('pro'), 'Older pro question', 'Waiting for three hours now', now() - interval '3 hours', now() - interval '3 hours'),
  (pg_temp.uid('enterprise'), 'Answered enterprise', 'This one got its answer', now() - interval '30 minutes', now() - interval '30 minutes');
select pg_temp.login('admin');
insert into public.ticket_messages (ticket_id, content)
select id, 'Here is your answer' from public.support_tickets where subject = 'Answered enterprise';
reset role;
select isnt((select first_response_at from public.support_tickets where subject = 'Answered enterprise'), null,
  'an admin reply stamps the first response');
select is((select desk_rank from public.support_tickets where subject = 'Answered enterprise'), -1::smallint,
  'an answered ticket no longer waits on the desk');
update public.support_tickets set first_response_at = now() - interval '10 minutes' where subject = 'Answered enterprise';
select pg_temp.login('admin');
insert into public.ticket_messages (ticket_id, content)
select id, 'And a follow-up' from public.support_tickets where subject = 'Answered enterprise';
reset role;
select ok((select first_response_at < now() - interval '5 minutes' from public.support_tickets where subject = 'Answered enterprise'),
  'a second reply does not move the first response');

-- The desk's order: plan priority, then the longest wait, then the rest by activity.
select pg_temp.login('admin');
select results_eq(
  $$ select subject from public.support_tickets order by desk_rank desc, desk_waiting_since asc nulls last, updated_at desc $$,
  $$ values ('Enterprise question'), ('Older pro question'), ('Pro question'), ('Basic question'),
            ('Free question'), ('Lapsed question'), ('Answered enterprise') $$,
  'the desk serves Enterprise first, then Pro (longest waiting first), Basic, free; answered last');
reset role;

-- Escalation: the Enterprise ticket passes its hour without an answer.
select is(private.escalate_overdue_tickets(), 0, 'nothing is overdue yet');
update public.support_tickets set created_at = now() - interval '2 hours', response_due_at = now() - interval '1 hour'
where subject = 'Enterprise question';
update public.support_tickets set response_due_at = now() - interval '1 hour' where subject in ('Pro question', 'Answered enterprise');
select is(private.escalate_overdue_tickets(), 1, 'one Enterprise ticket passed its target unanswered');
select results_eq(
  $$ select o.user_id, o.channel, o.payload ->> 'subject' from private.outbox o where o.kind = 'ticket_overdue' order by o.user_id $$,
  $$ values (pg_temp.uid('admin'), 'email', 'Enterprise question'), (pg_temp.uid('admin2'), 'email', 'Enterprise question') $$,
  'every admin gets one e-mail job about it (a Pro or answered ticket makes none)');
select is(private.escalate_overdue_tickets(), 0, 'a second run sends nothing again');
select is((select count(*)::int from private.outbox where kind = 'ticket_overdue'), 2, 'still two jobs');
select isnt((select overdue_notified_at from public.support_tickets where subject = 'Enterprise question'), null,
  'the ticket remembers the admins were told');

-- Breached, as the desk shows it: no answer by the due time.
select results_eq(
  $$ select subject from public.support_tickets
     where first_response_at is null and status in ('open', 'in_progress') and response_due_at < now() order by subject $$,
  $$ values ('Enterprise question'), ('Pro question') $$, 'two tickets are breached');

-- Who may run the job.
select pg_temp.login('admin2');
select throws_ok($$ select public.run_support_escalation() $$, '42501', null, 'an admin cannot run the escalation job');
select throws_ok($$ select private.escalate_overdue_tickets() $$, '42501', null, 'nor its private function');
select throws_ok($$ update public.support_tickets set support_plan = 'enterprise' $$, '42501', null, 'nobody edits a ticket''s plan through the API');
reset role;
select is(public.run_support_escalation(), 0, 'the service''s wrapper runs the same job');

select * from finish();
rollback;
