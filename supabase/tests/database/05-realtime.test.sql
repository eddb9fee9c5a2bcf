-- Live streams (migration 20261121000700): who may join which private Realtime topic, that no
-- client may broadcast, what the Broadcast-from-Database triggers and broadcast_movers() send,
-- and the execute rights on the realtime functions.
--
-- Joining is checked as Supabase Realtime checks it: a probe row (topic, extension) is inserted
-- into realtime.messages with the owner's rights, then selected by id as the caller (role and JWT
-- claims set) with realtime.topic set to the topic; the caller may join when the row is visible.
-- Sending is checked by inserting into realtime.messages as the caller. Each probe runs in a
-- subtransaction that is rolled back, so the probe rows, role and settings never leak.
--
-- Decision: admins are not members of every group; like any user, an admin receives a group's
-- chat only as a member of it. Ticket topics are for broadcast only (no presence).
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

-- ---------------------------------------------------------------------------------------------
-- Fixtures
-- ---------------------------------------------------------------------------------------------
delete from auth.users;
truncate public.groups, public.instruments, public.activity_logs cascade;
delete from realtime.messages;

create temp table u (code text primary key, uid uuid, plan public.plan, active boolean, role public.app_role);
insert into u values
  ('member',     'a5000000-0000-4000-8000-000000000001', 'none',       false, 'user'),   -- in G1, owns T1
  ('other',      'a5000000-0000-4000-8000-000000000002', 'none',       false, 'user'),   -- creator of G2
  ('banned',     'a5000000-0000-4000-8000-000000000003', 'pro',        true,  'user'),   -- in G1, owns T2, banned
  ('admin',      'a5000000-0000-4000-8000-000000000004', 'enterprise', true,  'admin'),  -- in no group
  ('basic',      'a5000000-0000-4000-8000-000000000005', 'basic',      true,  'user'),
  ('pro',        'a5000000-0000-4000-8000-000000000006', 'pro',        true,  'user'),
  ('enterprise', 'a5000000-0000-4000-8000-000000000007', 'enterprise', true,  'user'),
  ('lapsed',     'a5000000-0000-4000-8000-000000000008', 'pro',        false, 'user'),
  ('badmin',     'a5000000-0000-4000-8000-000000000009', 'none',       false, 'admin');  -- banned admin
grant select on u to anon, authenticated;

insert into auth.users (id, email) select uid, code || '@realtime.test' from u;
update public.profiles p set plan = u.plan, subscription_active = u.active, role = u.role
from u where p.id = u.uid;
update public.profiles set banned = true, banned_reason = 'Realtime fixture ban'
where id in ('a5000000-0000-4000-8000-000000000003', 'a5000000-0000-4000-8000-000000000009');

-- G1: member and banned; G2: its creator "other" only.
insert into public.groups (id, name, is_public, created_by) values
  ('b5000000-0000-4000-8000-000000000001', 'Realtime one', true, null),
  ('b5000000-0000-4000-8000-000000000002', 'Realtime two', false, 'a5000000-0000-4000-8000-000000000002');
insert into public.group_members (group_id, user_id) values
  ('b5000000-0000-4000-8000-000000000001', 'a5000000-0000-4000-8000-000000000001'),
  ('b5000000-0000-4000-8000-000000000001', 'a5000000-0000-4000-8000-000000000003');

-- T1 belongs to member, T2 to banned.
insert into public.support_tickets (id, user_id, subject, content) values
  ('d5000000-0000-4000-8000-000000000001', 'a5000000-0000-4000-8000-000000000001', 'Member ticket', 'The member needs some help'),
  ('d5000000-0000-4000-8000-000000000002', 'a5000000-0000-4000-8000-000000000003', 'Banned ticket', 'The banned user needs help');

-- The fixtures' own broadcasts are not under test.
delete from realtime.messages;

-- ---------------------------------------------------------------------------------------------
-- Helpers
-- ---------------------------------------------------------------------------------------------
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
create function pg_temp.uid(who text) returns uuid language sql stable as $$
  select uid from pg_temp.u where code = who
$$;

-- Realtime's read authorisation: 'read', 'refused' or 'error SQLSTATE'. Call as superuser.
create function pg_temp.can_read(who text, topic_name text, ext text default 'broadcast') returns text
language plpgsql as $$
declare
  probe_id uuid;
  res text;
begin
  begin
    insert into realtime.messages (topic, extension) values (topic_name, ext) returning id into probe_id;
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

-- Realtime's write authorisation (a client broadcasting or tracking presence): 'written' or
-- 'error SQLSTATE' (42501: privilege or row-level security). Call as superuser.
create function pg_temp.can_write(who text, topic_name text, ext text default 'broadcast') returns text
language plpgsql as $$
declare
  res text;
begin
  begin
    perform pg_temp.login(who);
    perform set_config('realtime.topic', topic_name, true);
    insert into realtime.messages (topic, extension, event, payload, private)
    values (topic_name, ext, 'forged', '{"forged": true}', true);
    raise exception using errcode = 'TPROB', message = 'written';
  exception
    when sqlstate 'TPROB' then res := sqlerrm;
    when others then res := 'error ' || sqlstate;
  end;
  return res;
end;
$$;

-- Run a statement as someone, roll it back, report 'ok' or 'error SQLSTATE'. Call as superuser.
create function pg_temp.try(who text, stmt text) returns text language plpgsql as $$
declare
  res text;
begin
  begin
    perform pg_temp.login(who);
    execute stmt;
    raise exception using errcode = 'TPROB', message = 'ok';
  exception
    when sqlstate 'TPROB' then res := sqlerrm;
    when others then res := 'error ' || sqlstate;
  end;
  return res;
end;
$$;

-- The broadcasts of one topic and event so far (superuser view).
create function pg_temp.sent(topic_name text, ev text) returns setof realtime.messages language sql stable as $$
  select * from realtime.messages m where m.topic = topic_name and m.event = ev
$$;

-- ---------------------------------------------------------------------------------------------
-- Join (read) cases: who, topic, extension, expected outcome.
-- ---------------------------------------------------------------------------------------------
create temp table join_case (ord serial, who text, topic text, ext text, want text, why text);
insert into join_case (who, topic, ext, want, why) values
  -- group:<id>
  ('member', 'group:b5000000-0000-4000-8000-000000000001', 'broadcast', 'read', 'a member receives the group''s chat'),
  ('member', 'group:b5000000-0000-4000-8000-000000000001', 'presence', 'read', 'a member receives the group''s presence'),
  ('member', 'group:B5000000-0000-4000-8000-000000000001', 'broadcast', 'read', 'the group id may be upper case'),
  ('member', 'group:b5000000-0000-4000-8000-000000000002', 'broadcast', 'refused', 'a member of G1 is refused G2'),
  ('other', 'group:b5000000-0000-4000-8000-000000000001', 'broadcast', 'refused', 'a non-member is refused'),
  ('other', 'group:b5000000-0000-4000-8000-000000000001', 'presence', 'refused', 'a non-member is refused presence'),
  ('other', 'group:b5000000-0000-4000-8000-000000000002', 'broadcast', 'read', 'a group''s creator (its admin) receives it'),
  ('banned', 'group:b5000000-0000-4000-8000-000000000001', 'broadcast', 'refused', 'a banned member is refused'),
  ('banned', 'group:b5000000-0000-4000-8000-000000000001', 'presence', 'refused', 'a banned member is refused presence'),
  ('admin', 'group:b5000000-0000-4000-8000-000000000001', 'broadcast', 'refused', 'an admin who is not a member is refused'),
  ('anon', 'group:b5000000-0000-4000-8000-000000000001', 'broadcast', 'refused', 'anon is refused'),
  ('member', 'group:b5000000-0000-4000-8000-000000000001', 'postgres_changes', 'refused', 'other extensions are refused'),
  ('member', 'group:not-a-uuid', 'broadcast', 'refused', 'a malformed group topic is refused without an error'),
  ('member', 'group:', 'broadcast', 'refused', 'an empty group id is refused'),
  ('member', 'group:b5000000-0000-4000-8000-000000000001x', 'broadcast', 'refused', 'trailing characters are refused'),
  ('member', E'group:b5000000-0000-4000-8000-000000000001\n', 'broadcast', 'refused', 'a trailing newline is refused'),
  ('member', 'group:{b5000000-0000-4000-8000-000000000001}', 'broadcast', 'refused', 'a non-canonical uuid is refused'),
  ('member', 'GROUP:b5000000-0000-4000-8000-000000000001', 'broadcast', 'refused', 'the prefix is case-sensitive'),
  ('member', 'x:group:b5000000-0000-4000-8000-000000000001', 'broadcast', 'refused', 'the prefix must start the topic'),
  -- ticket:<id>
  ('member', 'ticket:d5000000-0000-4000-8000-000000000001', 'broadcast', 'read', 'the owner receives the ticket'),
  ('member', 'ticket:d5000000-0000-4000-8000-000000000001', 'presence', 'refused', 'ticket topics have no presence'),
  ('member', 'ticket:d5000000-0000-4000-8000-000000000002', 'broadcast', 'refused', 'a user is refused someone else''s ticket'),
  ('other', 'ticket:d5000000-0000-4000-8000-000000000001', 'broadcast', 'refused', 'another user is refused'),
  ('admin', 'ticket:d5000000-0000-4000-8000-000000000001', 'broadcast', 'read', 'an admin receives any ticket'),
  ('admin', 'ticket:d5000000-0000-4000-8000-000000000002', 'broadcast', 'read', 'an admin receives a banned user''s ticket'),
  ('badmin', 'ticket:d5000000-0000-4000-8000-000000000001', 'broadcast', 'refused', 'a banned admin is refused'),
  ('banned', 'ticket:d5000000-0000-4000-8000-000000000002', 'broadcast', 'refused', 'a banned owner is refused'),
  ('anon', 'ticket:d5000000-0000-4000-8000-000000000001', 'broadcast', 'refused', 'anon is refused'),
  ('member', 'ticket:not-a-uuid', 'broadcast', 'refused', 'a malformed ticket topic is refused without an error'),
  ('admin', 'ticket:not-a-uuid', 'broadcast', 'refused', 'an admin is refused a malformed ticket topic'),
  ('admin', 'ticket:', 'broadcast', 'refused', 'an admin is refused an empty ticket id'),
  ('admin', 'group:b5000000-0000-4000-8000-000000000002', 'broadcast', 'refused', 'being an admin opens no group topic'),
  ('admin', 'anything', 'broadcast', 'refused', 'an unknown topic is refused'),
  -- market:movers:<minutes>, besides the plan × window grid below
  ('enterprise', 'market:movers:7', 'broadcast', 'refused', 'a window that does not exist is refused'),
  ('enterprise', 'market:movers:abc', 'broadcast', 'refused', 'a non-numeric window is refused without an error'),
  ('enterprise', 'market:movers:05', 'broadcast', 'refused', 'a non-canonical window is refused'),
  ('enterprise', 'market:movers:30 ', 'broadcast', 'refused', 'trailing characters are refused'),
  ('enterprise', 'market:movers:', 'broadcast', 'refused', 'a missing window is refused'),
  ('enterprise', 'market:movers', 'broadcast', 'refused', 'a topic without window is refused'),
  ('enterprise', 'market:movers:30', 'presence', 'refused', 'market topics have no presence'),
  ('anon', 'market:movers:30', 'broadcast', 'refused', 'anon is refused the market'),
  ('badmin', 'market:movers:30', 'broadcast', 'refused', 'a banned admin without plan is refused the market'),
  -- market:teaser: the landing strip, for everyone, broadcast only
  ('anon', 'market:teaser', 'broadcast', 'read', 'anon receives the landing teaser'),
  ('member', 'market:teaser', 'broadcast', 'read', 'a user without plan receives the teaser'),
  ('enterprise', 'market:teaser', 'broadcast', 'read', 'a subscriber receives the teaser'),
  ('banned', 'market:teaser', 'broadcast', 'read', 'the teaser is public, banned included'),
  ('anon', 'market:teaser', 'presence', 'refused', 'the teaser has no presence for anon'),
  ('member', 'market:teaser', 'presence', 'refused', 'the teaser has no presence for users'),
  ('anon', 'market:teaser:x', 'broadcast', 'refused', 'anon is refused a topic that only starts like the teaser'),
  ('anon', 'market:movers:teaser', 'broadcast', 'refused', 'anon is refused any other market topic');

-- Which windows each actor may receive (public.allowed_windows of an active, unbanned plan).
create temp table market_case (who text, allowed int[]);
insert into market_case values
  ('member', '{}'), ('basic', '{30}'), ('pro', '{15,20,25,30}'), ('enterprise', '{0,5,10,15,20,25,30}'),
  ('lapsed', '{}'), ('banned', '{}'), ('admin', '{0,5,10,15,20,25,30}');
insert into join_case (who, topic, ext, want, why)
select m.who, 'market:movers:' || w, 'broadcast', case when w = any (m.allowed) then 'read' else 'refused' end,
       case when w = any (m.allowed) then 'the plan offers this window' else 'the plan does not offer this window' end
from market_case m, unnest(array[0, 5, 10, 15, 20, 25, 30]) w
order by m.who, w;

-- Write (send) cases: nobody may broadcast on any topic; only a group's members track presence
-- on it (migration 20261124100000, tested in 21-community-chat).
create temp table write_case (ord serial, who text, topic text, ext text);
insert into write_case (who, topic, ext) values
  ('member', 'group:b5000000-0000-4000-8000-000000000001', 'broadcast'),
  ('member', 'ticket:d5000000-0000-4000-8000-000000000001', 'broadcast'),
  ('admin', 'ticket:d5000000-0000-4000-8000-000000000001', 'broadcast'),
  ('admin', 'group:b5000000-0000-4000-8000-000000000001', 'broadcast'),
  ('enterprise', 'market:movers:0', 'broadcast'),
  ('basic', 'market:movers:30', 'broadcast'),
  ('anon', 'group:b5000000-0000-4000-8000-000000000001', 'broadcast'),
  ('anon', 'market:movers:30', 'broadcast'),
  ('anon', 'market:teaser', 'broadcast'),
  ('member', 'market:teaser', 'broadcast');

select plan((select count(*)::int from join_case) + (select count(*)::int from write_case) + 51);

-- =============================================================================================
-- Catalog
-- =============================================================================================
select ok((select c.relrowsecurity from pg_class c where c.oid = 'realtime.messages'::regclass),
  'realtime.messages has row-level security enabled');
select is(
  (select array_agg(format('%s %s %s', permissive, cmd, roles) order by roles::text, cmd) from pg_policies
   where schemaname = 'realtime' and tablename = 'messages'),
  array['PERMISSIVE SELECT {anon}', 'PERMISSIVE INSERT {authenticated}', 'PERMISSIVE SELECT {authenticated}', 'PERMISSIVE SELECT {authenticated}', 'PERMISSIVE SELECT {authenticated}'],
  'realtime.messages has five policies: a select for anon, a select and a presence-only insert for authenticated, a select for the admins'' support desk (22-support-desk) and one for the user and admin topics (23-admin-panel); no update or delete'
);
select is(
  (select array_agg(qual) from pg_policies
   where schemaname = 'realtime' and tablename = 'messages' and (roles && array['anon', 'public']::name[])),
  array['((( SELECT realtime.topic() AS topic) = ''market:teaser''::text) AND (extension = ''broadcast''::text))'],
  'the only policy for anon (none for PUBLIC) reads broadcasts of market:teaser'
);
select ok(not has_function_privilege('anon', 'realtime.send(jsonb, text, text, boolean)', 'execute'),
  'anon cannot execute realtime.send');
select ok(not has_function_privilege('authenticated', 'realtime.send(jsonb, text, text, boolean)', 'execute'),
  'authenticated cannot execute realtime.send');
select ok(has_function_privilege('service_role', 'realtime.send(jsonb, text, text, boolean)', 'execute'),
  'service_role executes realtime.send');
select ok(not has_function_privilege('anon',
    'realtime.broadcast_changes(text, text, text, text, text, record, record, text)', 'execute'),
  'anon cannot execute realtime.broadcast_changes');
select ok(not has_function_privilege('authenticated',
    'realtime.broadcast_changes(text, text, text, text, text, record, record, text)', 'execute'),
  'authenticated cannot execute realtime.broadcast_changes');
select ok(has_function_privilege('service_role',
    'realtime.broadcast_changes(text, text, text, text, text, record, record, text)', 'execute'),
  'service_role executes realtime.broadcast_changes');
select ok(has_function_privilege('anon', 'realtime.topic()', 'execute'), 'anon executes realtime.topic()');
select ok(has_function_privilege('authenticated', 'realtime.topic()', 'execute'),
  'authenticated executes realtime.topic() (the policy calls it)');
select ok(not has_function_privilege('authenticated', 'private.broadcast_movers(timestamptz)', 'execute')
          and not has_function_privilege('anon', 'private.broadcast_movers(timestamptz)', 'execute'),
  'neither anon nor authenticated executes private.broadcast_movers');
select ok(has_function_privilege('service_role', 'private.broadcast_movers(timestamptz)', 'execute'),
  'service_role executes private.broadcast_movers');
select is_empty(
  $$select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'private'
      and p.proname in ('broadcast_group_message', 'broadcast_ticket_message', 'broadcast_ticket_status', 'broadcast_movers')
      and (not p.prosecdef or not coalesce(p.proconfig @> array['search_path=""'], false))$$,
  'the broadcast functions are security definer with an empty search_path'
);
select is(pg_temp.try('member', $$select realtime.send('{}', 'forged', 'group:b5000000-0000-4000-8000-000000000001', true)$$),
  'error 42501', 'a member cannot call realtime.send');
select is(pg_temp.try('anon', $$select realtime.send('{}', 'forged', 'market:movers:30', true)$$),
  'error 42501', 'anon cannot call realtime.send');
select is(pg_temp.try('admin', $$select private.broadcast_movers(now() - interval '1 hour')$$),
  'error 42501', 'an admin cannot call private.broadcast_movers');

-- =============================================================================================
-- Joining: the read authorisation Realtime performs
-- =============================================================================================
select is(pg_temp.can_read(c.who, c.topic, c.ext), c.want,
          format('%s %s %s (%s): %s', c.who, c.want, replace(c.topic, E'\n', '\n'), c.ext, c.why))
from join_case c order by c.ord;

select is(
  (select count(*)::int from join_case where want = 'read' and pg_temp.can_read(who, topic, ext) = 'read'),
  (select count(*)::int from join_case where want = 'read'),
  'every allowed join is still allowed after the matrix ran (no state leaked between probes)'
);

-- Without a topic (the Data API never sets one), no user reads any message.
insert into realtime.messages (topic, extension, event, payload, private)
values ('group:b5000000-0000-4000-8000-000000000001', 'broadcast', 'INSERT', '{}', true);
select pg_temp.login('member');
select is((select count(*)::int from realtime.messages), 0, 'without realtime.topic a member reads no message');
select pg_temp.login('admin');
select is((select count(*)::int from realtime.messages), 0, 'without realtime.topic an admin reads no message');
select pg_temp.logout();
delete from realtime.messages;

-- =============================================================================================
-- Sending: no client may broadcast or track presence
-- =============================================================================================
select is(pg_temp.can_write(c.who, c.topic, c.ext), 'error 42501',
          format('%s cannot send %s on %s', c.who, c.ext, c.topic))
from write_case c order by c.ord;

-- =============================================================================================
-- Broadcast from Database: group chat
-- =============================================================================================
select pg_temp.login('member');
insert into public.messages (id, group_id, content)
values ('c5000000-0000-4000-8000-000000000001', 'b5000000-0000-4000-8000-000000000001', 'hello realtime');
select pg_temp.logout();
select is((select count(*)::int from realtime.messages), 1, 'a chat message sends one broadcast');
select results_eq(
  $$select topic, event, extension, private, payload ->> 'table', payload ->> 'schema', payload ->> 'operation',
           payload -> 'record' ->> 'content', payload -> 'record' ->> 'sender_id', payload -> 'old_record'
    from pg_temp.sent('group:b5000000-0000-4000-8000-000000000001', 'INSERT')$$,
  $$values ('group:b5000000-0000-4000-8000-000000000001'::text, 'INSERT'::text, 'broadcast'::text, true,
            'messages'::text, 'public'::text, 'INSERT'::text, 'hello realtime'::text,
            'a5000000-0000-4000-8000-000000000001'::text, 'null'::jsonb)$$,
  'INSERT: topic group:<id>, event INSERT, private broadcast of the new row, no old row'
);

select pg_temp.login('member');
update public.messages set content = 'edited realtime' where id = 'c5000000-0000-4000-8000-000000000001';
select pg_temp.logout();
select results_eq(
  $$select topic, extension, private, payload ->> 'table', payload ->> 'operation',
           payload -> 'record' ->> 'content', payload -> 'old_record' ->> 'content'
    from pg_temp.sent('group:b5000000-0000-4000-8000-000000000001', 'UPDATE')$$,
  $$values ('group:b5000000-0000-4000-8000-000000000001'::text, 'broadcast'::text, true, 'messages'::text,
            'UPDATE'::text, 'edited realtime'::text, 'hello realtime'::text)$$,
  'UPDATE: event UPDATE with the new and the old row'
);

select pg_temp.login('member');
delete from public.messages where id = 'c5000000-0000-4000-8000-000000000001';
select pg_temp.logout();
select results_eq(
  $$select topic, extension, private, payload ->> 'table', payload ->> 'operation',
           payload -> 'record', payload -> 'old_record' ->> 'content', payload -> 'old_record' ->> 'id'
    from pg_temp.sent('group:b5000000-0000-4000-8000-000000000001', 'DELETE')$$,
  $$values ('group:b5000000-0000-4000-8000-000000000001'::text, 'broadcast'::text, true, 'messages'::text,
            'DELETE'::text, 'null'::jsonb, 'edited realtime'::text, 'c5000000-0000-4000-8000-000000000001'::text)$$,
  'DELETE: event DELETE with the old row only'
);
select is((select count(*)::int from realtime.messages), 3, 'insert, update and delete sent three broadcasts in all');
select is(pg_temp.try('other', $$insert into public.messages (group_id, content)
                                values ('b5000000-0000-4000-8000-000000000001', 'not a member')$$),
  'error 42501', 'a refused chat message sends nothing');
select is((select count(*)::int from realtime.messages), 3, 'still three broadcasts');
delete from realtime.messages;

-- =============================================================================================
-- Broadcast from Database: tickets
-- =============================================================================================
select pg_temp.login('member');
insert into public.ticket_messages (ticket_id, content) values ('d5000000-0000-4000-8000-000000000001', 'owner reply');
select pg_temp.login('admin');
insert into public.ticket_messages (ticket_id, content) values ('d5000000-0000-4000-8000-000000000001', 'admin reply');
select pg_temp.logout();
select results_eq(
  $$select topic, extension, private, payload ->> 'table', payload ->> 'operation',
           payload -> 'record' ->> 'content', (payload -> 'record' ->> 'is_admin_reply')::boolean, payload -> 'old_record'
    from pg_temp.sent('ticket:d5000000-0000-4000-8000-000000000001', 'INSERT')
    order by payload -> 'record' ->> 'content'$$,
  $$values ('ticket:d5000000-0000-4000-8000-000000000001'::text, 'broadcast'::text, true, 'ticket_messages'::text,
            'INSERT'::text, 'admin reply'::text, true, 'null'::jsonb),
           ('ticket:d5000000-0000-4000-8000-000000000001', 'broadcast', true, 'ticket_messages',
            'INSERT', 'owner reply', false, 'null'::jsonb)$$,
  'replies go to ticket:<id> as INSERT, with is_admin_reply as the database set it'
);
select is_empty($$select 1 from realtime.messages where topic like 'ticket:%' and event <> 'INSERT'$$,
  'a reply (which touches the ticket''s updated_at) sends no status UPDATE');

select pg_temp.login('admin');
select lives_ok($$select public.admin_set_ticket_status('d5000000-0000-4000-8000-000000000001', 'in_progress')$$,
  'an admin sets the ticket in progress');
select pg_temp.logout();
select results_eq(
  $$select topic, extension, private, payload ->> 'table', payload ->> 'operation',
           payload -> 'record' ->> 'status', payload -> 'old_record' ->> 'status', payload -> 'record' ->> 'id'
    from pg_temp.sent('ticket:d5000000-0000-4000-8000-000000000001', 'UPDATE')$$,
  $$values ('ticket:d5000000-0000-4000-8000-000000000001'::text, 'broadcast'::text, true, 'support_tickets'::text,
            'UPDATE'::text, 'in_progress'::text, 'open'::text, 'd5000000-0000-4000-8000-000000000001'::text)$$,
  'a status change goes to ticket:<id> as UPDATE of the ticket row'
);

select pg_temp.login('admin');
select lives_ok($$select public.admin_set_ticket_status('d5000000-0000-4000-8000-000000000001', 'in_progress')$$,
  'an admin sets the same status again');
select pg_temp.logout();
update public.support_tickets set priority = 'high' where id = 'd5000000-0000-4000-8000-000000000001';
select is((select count(*)::int from pg_temp.sent('ticket:d5000000-0000-4000-8000-000000000001', 'UPDATE')), 1,
  'an update that does not change the status sends nothing');
select is(pg_temp.try('member', $$insert into public.ticket_messages (ticket_id, content)
                                 values ('d5000000-0000-4000-8000-000000000002', 'not my ticket')$$),
  'error 42501', 'a refused reply is not broadcast');
select is((select count(*)::int from realtime.messages where topic like 'ticket:%'), 3,
  'two replies and one status change sent in all (the admins'' support:desk is 22-support-desk''s)');
delete from realtime.messages;

-- =============================================================================================
-- broadcast_movers(since)
-- =============================================================================================
-- 120 movers of this scan (ts within the last two minutes) and five of an earlier scan (ten minutes
-- old, a venue this scan did not read), with distinct, signed percents per window. Every fifth
-- mover lacks the window percents (pct is its fallback). A scan sends each window's kept top 100
-- of all current movers (private.movers_top, the list movers_feed returns).
insert into public.instruments (symbol, exchange, exchange_type, network, pool_url)
select 'RT' || i || '/USD', 'Realtime', case when i % 2 = 0 then 'cex' else 'dex' end::public.exchange_type,
       case when i % 2 = 1 then 'solana' end, case when i % 2 = 1 then 'https://pool.test/' || i end
from generate_series(1, 125) i;
insert into public.movers (instrument_id, symbol, exchange, exchange_type, network, pool_url, price, price_3hour_ago,
                           pct, pct_10sec, pct_5min, pct_10min, pct_15min, pct_20min, pct_25min, pct_30min,
                           pct_3hour, volume_24h, ts)
select i.id, i.symbol, i.exchange, i.exchange_type, i.network, i.pool_url, n, n * 0.9,
       case when n % 2 = 0 then n else -n end * 0.5,
       case when n % 5 <> 0 then ((n * 7) % 120) * 0.1 end,
       case when n % 5 <> 0 then -((n * 11) % 120) * 0.2 end,
       case when n % 5 <> 0 then ((n * 13) % 120) * 0.3 end,
       case when n % 5 <> 0 then ((n * 17) % 120) * -0.4 end,
       case when n % 5 <> 0 then ((n * 19) % 120) * 0.5 end,
       case when n % 5 <> 0 then ((n * 23) % 120) * -0.6 end,
       case when n % 5 <> 0 then ((n * 29) % 120) * 0.7 end,
       n * 0.01, n * 1000,
       case when n <= 120 then now() - make_interval(secs => n) else now() - interval '10 minutes' end
from public.instruments i
cross join lateral (select split_part(substr(i.symbol, 3), '/', 1)::int as n) s;
update public.movers set pct_30min = 90 + split_part(substr(symbol, 3), '/', 1)::int % 10
where symbol in ('RT121/USD', 'RT122/USD', 'RT123/USD', 'RT124/USD');

select is(private.broadcast_movers(now() + interval '1 minute'), 0, 'no movers since then: nothing is sent');
select is((select count(*)::int from realtime.messages), 0, 'and no message exists');

set local role service_role;
select is(private.broadcast_movers(now() - interval '5 minutes'), 7, 'the service role sends one message per window');
reset role;
select is(
  (select array_agg(topic order by (payload ->> 'window')::int) from realtime.messages where event = 'movers'),
  array['market:movers:0', 'market:movers:5', 'market:movers:10', 'market:movers:15', 'market:movers:20',
        'market:movers:25', 'market:movers:30'],
  'one message on each market:movers:<window> topic'
);
select is_empty(
  $$select 1 from realtime.messages
    where topic <> 'market:teaser'
      and (event <> 'movers' or extension <> 'broadcast' or not private
       or topic <> 'market:movers:' || (payload ->> 'window') or payload ->> 'scanned_at' is null
       or jsonb_typeof(payload -> 'entries') <> 'array')$$,
  'each is a private broadcast ''movers'' event carrying window, scanned_at and entries'
);
select is(
  (select array_agg(distinct jsonb_array_length(payload -> 'entries')) from realtime.messages where event = 'movers'),
  array[100],
  'each window sends at most 100 entries (125 movers)'
);
select is_empty(
  $$select 1 from realtime.messages m, jsonb_array_elements(m.payload -> 'entries') e
    where m.event = 'movers' and (e ->> 'window_used')::int <> (m.payload ->> 'window')::int$$,
  'every entry carries its window as window_used'
);
select is(
  (select array_agg(e ->> 'symbol' order by e ->> 'symbol') from realtime.messages m,
     jsonb_array_elements(m.payload -> 'entries') e
   where m.topic = 'market:movers:30' and (e ->> 'ts')::timestamptz < now() - interval '5 minutes'),
  array['RT121/USD', 'RT122/USD', 'RT123/USD', 'RT124/USD', 'RT125/USD'],
  'the list keeps strong movers of an earlier scan (a venue this scan did not read)'
);
select is_empty(
  $$select 1 from realtime.messages m, jsonb_array_elements(m.payload -> 'entries') with ordinality a (e, i),
                  jsonb_array_elements(m.payload -> 'entries') with ordinality b (e, i)
    where b.i = a.i + 1 and abs((a.e ->> 'pct')::numeric) < abs((b.e ->> 'pct')::numeric)$$,
  'entries are ordered by abs(pct), strongest first'
);
select is(
  (select array_agg(k order by k) from jsonb_object_keys(
     (select payload -> 'entries' -> 0 from realtime.messages where topic = 'market:movers:30')) k),
  array['asset', 'confirmed_on', 'exchange', 'exchange_type', 'flags', 'id', 'instrument_id', 'liquidity_usd',
        'network', 'pct', 'pct_3hour', 'pool_name', 'pool_url', 'price', 'price_3hour_ago', 'quoted_at', 'source',
        'spread_pct', 'symbol', 'thin', 'trust_score', 'ts', 'volume_24h', 'volume_24h_usd', 'window_used'],
  'an entry has exactly the fields of movers_feed''s rows'
);

-- The entries are movers_feed(window)'s rows as the enterprise user reads them, in order (but
-- confirmed_at: the venue's confirmation at the read, decision 0079, which a broadcast does not
-- carry; the dashboard applies the venue's confirmation to the entries itself).
create temp table feed_expect (w int, entries jsonb);
select pg_temp.login('enterprise');
reset role;
insert into feed_expect
select w, (select jsonb_agg(to_jsonb(f) order by f.ord)
           from (select x.*, row_number() over () as ord from public.movers_feed(w) x) f)
from unnest(array[0, 5, 10, 15, 20, 25, 30]) w;
select pg_temp.logout();
update feed_expect set entries = (select jsonb_agg(e - 'ord' - 'confirmed_at') from jsonb_array_elements(entries) e);
select is(
  (select count(*)::int from feed_expect f join realtime.messages m on m.topic = 'market:movers:' || f.w
   where m.payload -> 'entries' = f.entries),
  7,
  'every window''s entries equal movers_feed(window)''s rows, in order'
);

-- The landing strip's message: the teaser rows, for anyone (market:teaser).
select is(
  (select format('%s %s %s', event, extension, private::text) from realtime.messages where topic = 'market:teaser'),
  'teaser broadcast true', 'one private broadcast ''teaser'' event on market:teaser'
);
select is(
  (select array_agg(e ->> 'symbol') from realtime.messages m, jsonb_array_elements(m.payload -> 'entries') e
   where m.topic = 'market:teaser'),
  (select array_agg(symbol) from public.movers_teaser),
  'it carries the teaser: the three strongest gainers, strongest first'
);
select isnt(
  (select payload -> 'entries' -> 0 ->> 'id' from realtime.messages where topic = 'market:movers:0'),
  (select payload -> 'entries' -> 0 ->> 'id' from realtime.messages where topic = 'market:movers:30'),
  'each window ranks by its own percent'
);
select is(
  (select (e ->> 'pct')::numeric from realtime.messages m, jsonb_array_elements(m.payload -> 'entries') e
   where m.topic = 'market:movers:15' and e ->> 'symbol' = 'RT120/USD'),
  60.0,
  'a mover without the window''s percent falls back to pct'
);

-- A member of the market topic receives the scan's message as Realtime would deliver it.
select pg_temp.login('pro');
set local realtime.topic = 'market:movers:15';
select is((select count(*)::int from realtime.messages where topic = 'market:movers:15'), 1,
  'a pro subscriber joined to market:movers:15 reads the scan''s message');
select pg_temp.logout();

select * from finish();
rollback;
