-- Per-user write limits (migration 20261125600100, decision 0040): for each limit the last
-- allowed write passes and the next is refused with PostgREST's 429 contract (SQLSTATE PGRST,
-- code PT429, status 429, a Retry-After header), nothing of the refused write is stored, admins
-- get the higher limit, and writes without a user are not counted.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(24);

insert into auth.users (id, email) values
  ('a3100000-0000-4000-8000-000000000001', 'chatty@limits.test'),
  ('a3100000-0000-4000-8000-000000000002', 'admin@limits.test');
insert into auth.users (id, email)
  select ('a3100000-0000-4000-8000-0000000001' || lpad(i::text, 2, '0'))::uuid, 'target' || i || '@limits.test'
  from generate_series(1, 21) i;
update public.profiles set role = 'admin' where id = 'a3100000-0000-4000-8000-000000000002';
insert into public.groups (id, name, created_by) values
  ('b3100000-0000-4000-8000-000000000001', 'Limits one', 'a3100000-0000-4000-8000-000000000001'),
  ('b3100000-0000-4000-8000-000000000002', 'Limits two', 'a3100000-0000-4000-8000-000000000001'),
  ('b3100000-0000-4000-8000-000000000003', 'Limits admin', 'a3100000-0000-4000-8000-000000000002');

create function pg_temp.act(who uuid) returns void language plpgsql as $$
begin
  perform tests.authenticate_as(who);
end;
$$;
create function pg_temp.say(n integer, grp uuid) returns void language plpgsql as $$
begin
  for i in 1..n loop
    insert into public.messages (group_id, sender_id, content) values (grp, (select auth.uid()), 'message ' || i);
  end loop;
end;
$$;

-- Chat: 10 per 10 s per user and group.
select pg_temp.act('a3100000-0000-4000-8000-000000000001');
select lives_ok($$select pg_temp.say(10, 'b3100000-0000-4000-8000-000000000001')$$, 'a user sends 10 messages into a group');
select is(tests.write_refusal($$select pg_temp.say(1, 'b3100000-0000-4000-8000-000000000001')$$, 10),
  'PGRST PT429 429 retry-after=1..10 chat_message', 'the 11th within 10 s is refused with 429 and Retry-After');
select is(tests.write_refusal($$insert into public.messages (group_id, sender_id, content) values ('b3100000-0000-4000-8000-000000000001', 'a3100000-0000-4000-8000-000000000001', 'x')$$, 10),
  'PGRST PT429 429 retry-after=1..10 chat_message', 'and again');
select lives_ok($$select pg_temp.say(10, 'b3100000-0000-4000-8000-000000000002')$$, 'another group has its own count');
select throws_like($$select pg_temp.say(1, 'b3100000-0000-4000-8000-000000000001')$$,
  '%You''re sending messages too fast — try again in % s%', 'the message says how long to wait');
reset role;
select is((select count(*)::int from public.messages where group_id = 'b3100000-0000-4000-8000-000000000001'), 10,
  'nothing of the refused messages was stored');

-- Admins: higher (30 per 10 s), not exempt.
select pg_temp.act('a3100000-0000-4000-8000-000000000002');
select lives_ok($$select pg_temp.say(30, 'b3100000-0000-4000-8000-000000000003')$$, 'an admin sends 30 messages');
select is(tests.write_refusal($$select pg_temp.say(1, 'b3100000-0000-4000-8000-000000000003')$$, 10),
  'PGRST PT429 429 retry-after=1..10 chat_message', 'the admin''s 31st is refused');
reset role;

-- Writes without a signed-in user (service role, seeds) are not counted.
select tests.authenticate_as_service_role();
select lives_ok($$insert into public.messages (group_id, sender_id, content)
  select 'b3100000-0000-4000-8000-000000000001', 'a3100000-0000-4000-8000-000000000001', 'system ' || i from generate_series(1, 20) i$$,
  'the system writes without a limit');

-- Group creation: 10 per hour.
select pg_temp.act('a3100000-0000-4000-8000-000000000001');
select lives_ok($$insert into public.groups (name, created_by) select 'New group ' || i, 'a3100000-0000-4000-8000-000000000001' from generate_series(1, 8) i$$,
  'a user creates groups (the two the system created for them do not count)');
select lives_ok($$insert into public.groups (name, created_by) values ('Group four', 'a3100000-0000-4000-8000-000000000001'), ('Group five', 'a3100000-0000-4000-8000-000000000001')$$,
  'ten in the hour');
select is(tests.write_refusal($$insert into public.groups (name, created_by) values ('Group eleven', 'a3100000-0000-4000-8000-000000000001')$$, 3600),
  'PGRST PT429 429 retry-after=1..3600 group_create', 'the eleventh group in an hour is refused');
reset role;
select is((select count(*)::int from public.groups where name = 'Group eleven'), 0, 'the refused group was not stored');

-- Reports: 20 per hour.
select pg_temp.act('a3100000-0000-4000-8000-000000000001');
select lives_ok($$insert into public.user_reports (reporter_id, reported_id, reason)
  select 'a3100000-0000-4000-8000-000000000001', ('a3100000-0000-4000-8000-0000000001' || lpad(i::text, 2, '0'))::uuid, 'spam'
  from generate_series(1, 20) i$$, 'twenty reports in an hour');
select is(tests.write_refusal($$insert into public.user_reports (reporter_id, reported_id, reason) values
  ('a3100000-0000-4000-8000-000000000001', 'a3100000-0000-4000-8000-000000000121', 'spam')$$, 3600),
  'PGRST PT429 429 retry-after=1..3600 report', 'the 21st report is refused');
reset role;
select is((select count(*)::int from public.user_reports where reporter_id = 'a3100000-0000-4000-8000-000000000001'), 20,
  'the refused report was not stored');

-- Tickets: 10 per hour; replies: 20 per minute.
select pg_temp.act('a3100000-0000-4000-8000-000000000001');
select lives_ok($$insert into public.support_tickets (id, user_id, subject, content)
  select ('c3100000-0000-4000-8000-0000000000' || lpad(i::text, 2, '0'))::uuid, 'a3100000-0000-4000-8000-000000000001', 'Question ' || i, 'Something I need help with.'
  from generate_series(1, 10) i$$, 'ten tickets in an hour');
select is(tests.write_refusal($$insert into public.support_tickets (user_id, subject, content) values
  ('a3100000-0000-4000-8000-000000000001', 'Question 11', 'Something I need help with.')$$, 3600),
  'PGRST PT429 429 retry-after=1..3600 ticket_create', 'the eleventh ticket is refused');
select lives_ok($$insert into public.ticket_messages (ticket_id, content)
  select 'c3100000-0000-4000-8000-000000000001', 'More detail ' || i from generate_series(1, 20) i$$, 'twenty replies in a minute');
select is(tests.write_refusal($$insert into public.ticket_messages (ticket_id, content) values
  ('c3100000-0000-4000-8000-000000000001', 'One more detail')$$, 60),
  'PGRST PT429 429 retry-after=1..60 ticket_reply', 'the 21st reply in a minute is refused');
reset role;
select is((select count(*)::int from public.support_tickets where user_id = 'a3100000-0000-4000-8000-000000000001'), 10,
  'the refused ticket was not stored');
select is((select count(*)::int from public.ticket_messages where ticket_id = 'c3100000-0000-4000-8000-000000000001' and content like 'More detail%'), 20,
  'the refused reply was not stored');

-- The counters are private and prune themselves to the window.
select is(has_table_privilege('authenticated', 'private.write_events', 'select'), false, 'users cannot read the counters');
select is((select string_agg(kind || '=' || n, ' ' order by kind) from
             (select kind, count(*) n from private.write_events group by kind) k),
  'chat_message=50 group_create=10 report=20 ticket_create=10 ticket_reply=20',
  'the counters hold the allowed writes of the current windows, not the refused ones');

select * from finish();
rollback;
