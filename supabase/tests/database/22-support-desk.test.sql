-- The support desk (migration 20261124200000, decision 0022): internal notes and canned replies
-- as anon, the ticket's owner, another user, a banned user, an admin and a banned admin; that a
-- note never reaches the owner (no row, no broadcast on ticket:<id>, no join to its topics); the
-- awaiting-an-admin flag behind the header's unanswered count; the desk's broadcasts.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

-- ---------------------------------------------------------------------------------------------
-- Fixtures
-- ---------------------------------------------------------------------------------------------
delete from auth.users;
delete from realtime.messages;

create temp table u (code text primary key, uid uuid, role public.app_role, banned boolean);
insert into u values
  ('owner',  'a2200000-0000-4000-8000-000000000001', 'user',  false),  -- owns T1
  ('other',  'a2200000-0000-4000-8000-000000000002', 'user',  false),
  ('banned', 'a2200000-0000-4000-8000-000000000003', 'user',  true),   -- owns T2
  ('admin',  'a2200000-0000-4000-8000-000000000004', 'admin', false),
  ('admin2', 'a2200000-0000-4000-8000-000000000005', 'admin', false),
  ('badmin', 'a2200000-0000-4000-8000-000000000006', 'admin', true);   -- banned admin
grant select on u to anon, authenticated;

insert into auth.users (id, email) select uid, code || '@desk.test' from u;
update public.profiles p set role = u.role from u where p.id = u.uid;
update public.profiles p set banned = true, banned_reason = 'Desk fixture ban' from u
where p.id = u.uid and u.banned;

insert into public.support_tickets (id, user_id, subject, content) values
  ('d2200000-0000-4000-8000-000000000001', 'a2200000-0000-4000-8000-000000000001', 'Owner ticket', 'The owner needs some help'),
  ('d2200000-0000-4000-8000-000000000002', 'a2200000-0000-4000-8000-000000000003', 'Banned ticket', 'The banned user needs help');
insert into public.ticket_notes (id, ticket_id, author_id, content) values
  ('e2200000-0000-4000-8000-000000000001', 'd2200000-0000-4000-8000-000000000001', 'a2200000-0000-4000-8000-000000000004', 'SECRET fixture note'),
  ('e2200000-0000-4000-8000-000000000002', 'd2200000-0000-4000-8000-000000000002', 'a2200000-0000-4000-8000-000000000004', 'SECRET note on the banned ticket');
insert into public.canned_replies (id, title, content, created_by) values
  ('f2200000-0000-4000-8000-000000000001', 'Greeting', 'Hello, thanks for reaching out!', 'a2200000-0000-4000-8000-000000000004');
delete from realtime.messages;

-- ---------------------------------------------------------------------------------------------
-- Helpers (call as superuser; each probe is rolled back)
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

-- 'rows=N' (rows returned or affected) or 'error SQLSTATE'; the statement is rolled back.
create function pg_temp.try(who text, stmt text) returns text language plpgsql as $$
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

-- How many rows a query returns for someone ('error SQLSTATE' if it fails).
create function pg_temp.seen(who text, query text) returns text language plpgsql as $$
declare
  n bigint;
  res text;
begin
  begin
    perform pg_temp.login(who);
    execute format('select count(*) from (%s) q', query) into n;
    raise exception using errcode = 'TPROB', message = n::text;
  exception
    when sqlstate 'TPROB' then res := sqlerrm;
    when others then res := 'error ' || sqlstate;
  end;
  perform pg_temp.logout();
  return res;
end;
$$;

-- Realtime's join check, as in 05-realtime: 'read' or 'refused'.
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
  perform pg_temp.logout();
  return res;
end;
$$;

select plan(75);

-- =============================================================================================
-- Catalog
-- =============================================================================================
select ok((select relrowsecurity from pg_class where oid = 'public.ticket_notes'::regclass), 'ticket_notes has RLS');
select ok((select relrowsecurity from pg_class where oid = 'public.canned_replies'::regclass), 'canned_replies has RLS');
select table_privs_are('public', 'ticket_notes', 'anon', array[]::text[], 'anon has no privilege on ticket_notes');
select table_privs_are('public', 'canned_replies', 'anon', array[]::text[], 'anon has no privilege on canned_replies');
select ok(not has_column_privilege('authenticated', 'public.ticket_notes', 'author_id', 'insert'),
  'nobody names a note''s author: it is the caller');
select ok(not has_column_privilege('authenticated', 'public.support_tickets', 'awaiting_admin', 'insert')
          and not has_column_privilege('authenticated', 'public.support_tickets', 'awaiting_admin', 'update'),
  'clients neither set nor change awaiting_admin');

-- =============================================================================================
-- Internal notes: who reads them
-- =============================================================================================
select is(pg_temp.seen('anon', 'select * from public.ticket_notes'), 'error 42501', 'anon cannot read notes');
select is(pg_temp.seen('owner', 'select * from public.ticket_notes'), '0', 'the ticket''s owner sees no note');
select is(pg_temp.seen('owner', $$select * from public.ticket_notes where ticket_id = 'd2200000-0000-4000-8000-000000000001'$$),
  '0', 'not even the notes of their own ticket');
select is(pg_temp.seen('other', 'select * from public.ticket_notes'), '0', 'another user sees no note');
select is(pg_temp.seen('banned', 'select * from public.ticket_notes'), '0', 'a banned user sees no note');
select is(pg_temp.seen('admin', 'select * from public.ticket_notes'), '2', 'an admin reads every note');
select is(pg_temp.seen('admin2', 'select * from public.ticket_notes'), '2', 'so does another admin');
select is(pg_temp.seen('badmin', 'select * from public.ticket_notes'), '0', 'a banned admin reads none');
select is(pg_temp.seen('owner', $$select * from public.ticket_messages where content like 'SECRET%'$$), '0',
  'notes never appear among the owner''s ticket messages');
select is(pg_temp.seen('owner', $$select * from public.support_tickets t where t::text like '%SECRET%'$$), '0',
  'nor in the owner''s ticket row');

-- =============================================================================================
-- Internal notes: who writes and deletes them
-- =============================================================================================
select is(pg_temp.try('anon', $$insert into public.ticket_notes (ticket_id, content)
                                values ('d2200000-0000-4000-8000-000000000001', 'anon note')$$),
  'error 42501', 'anon cannot add a note');
select is(pg_temp.try('owner', $$insert into public.ticket_notes (ticket_id, content)
                                 values ('d2200000-0000-4000-8000-000000000001', 'owner note')$$),
  'error 42501', 'the owner cannot add a note to their ticket');
select is(pg_temp.try('other', $$insert into public.ticket_notes (ticket_id, content)
                                 values ('d2200000-0000-4000-8000-000000000001', 'other note')$$),
  'error 42501', 'another user cannot add a note');
select is(pg_temp.try('banned', $$insert into public.ticket_notes (ticket_id, content)
                                  values ('d2200000-0000-4000-8000-000000000002', 'banned note')$$),
  'error 42501', 'a banned user cannot add a note');
select is(pg_temp.try('badmin', $$insert into public.ticket_notes (ticket_id, content)
                                  values ('d2200000-0000-4000-8000-000000000001', 'banned admin note')$$),
  'error 42501', 'a banned admin cannot add a note');
select is(pg_temp.try('admin', $$insert into public.ticket_notes (ticket_id, content)
                                 values ('d2200000-0000-4000-8000-000000000001', 'admin note')$$),
  'rows=1', 'an admin adds a note');
select is(pg_temp.try('admin', $$insert into public.ticket_notes (ticket_id, author_id, content)
                                 values ('d2200000-0000-4000-8000-000000000001', 'a2200000-0000-4000-8000-000000000005', 'forged')$$),
  'error 42501', 'an admin cannot write a note in another admin''s name');
select is(pg_temp.try('admin', $$insert into public.ticket_notes (ticket_id, content)
                                 values ('d2200000-0000-4000-8000-000000000001', E'  \n ')$$),
  'error 23514', 'a blank note is refused');
select is(pg_temp.try('admin', format($$insert into public.ticket_notes (ticket_id, content)
                                 values ('d2200000-0000-4000-8000-000000000001', %L)$$, repeat('x', 2001))),
  'error 23514', 'a note over 2000 characters is refused');
select is(pg_temp.try('admin', $$update public.ticket_notes set content = 'edited'$$),
  'error 42501', 'notes are not edited');
select is(pg_temp.try('owner', $$delete from public.ticket_notes$$), 'rows=0', 'the owner deletes no note');
select is(pg_temp.try('admin2', $$delete from public.ticket_notes where id = 'e2200000-0000-4000-8000-000000000001'$$),
  'rows=0', 'an admin does not delete another admin''s note');
select is(pg_temp.try('admin', $$delete from public.ticket_notes where id = 'e2200000-0000-4000-8000-000000000001'$$),
  'rows=1', 'an admin deletes their own note');

-- =============================================================================================
-- Internal notes: live, for admins only
-- =============================================================================================
select is(pg_temp.can_read('admin', 'ticket-notes:d2200000-0000-4000-8000-000000000001'), 'read',
  'an admin joins a ticket''s notes topic');
select is(pg_temp.can_read('owner', 'ticket-notes:d2200000-0000-4000-8000-000000000001'), 'refused',
  'the owner is refused their ticket''s notes topic');
select is(pg_temp.can_read('other', 'ticket-notes:d2200000-0000-4000-8000-000000000001'), 'refused',
  'another user is refused the notes topic');
select is(pg_temp.can_read('banned', 'ticket-notes:d2200000-0000-4000-8000-000000000002'), 'refused',
  'a banned owner is refused the notes topic');
select is(pg_temp.can_read('badmin', 'ticket-notes:d2200000-0000-4000-8000-000000000001'), 'refused',
  'a banned admin is refused the notes topic');
select is(pg_temp.can_read('anon', 'ticket-notes:d2200000-0000-4000-8000-000000000001'), 'refused',
  'anon is refused the notes topic');
select is(pg_temp.can_read('admin', 'ticket-notes:d2200000-0000-4000-8000-000000000001', 'presence'), 'refused',
  'the notes topic has no presence');
select is(pg_temp.can_read('admin', 'ticket-notes:not-a-uuid'), 'refused', 'a malformed notes topic is refused');
select is(pg_temp.can_read('admin', 'support:desk'), 'read', 'an admin joins the desk');
select is(pg_temp.can_read('owner', 'support:desk'), 'refused', 'a user is refused the desk');
select is(pg_temp.can_read('badmin', 'support:desk'), 'refused', 'a banned admin is refused the desk');
select is(pg_temp.can_read('anon', 'support:desk'), 'refused', 'anon is refused the desk');
select is(pg_temp.can_read('admin', 'support:desk:x'), 'refused', 'the desk topic is matched whole');
select is(pg_temp.can_read('owner', 'ticket:d2200000-0000-4000-8000-000000000001'), 'read',
  'the owner still joins their ticket''s thread');

select pg_temp.login('admin');
insert into public.ticket_notes (ticket_id, content) values ('d2200000-0000-4000-8000-000000000001', 'SECRET live note');
select pg_temp.logout();
select results_eq(
  $$select topic, event, private, payload ->> 'table', payload -> 'record' ->> 'content'
    from realtime.messages where payload::text like '%SECRET live note%'$$,
  $$values ('ticket-notes:d2200000-0000-4000-8000-000000000001'::text, 'INSERT'::text, true, 'ticket_notes'::text,
            'SECRET live note'::text)$$,
  'a note is broadcast once, on ticket-notes:<id> only'
);
select is_empty($$select 1 from realtime.messages where topic like 'ticket:%'$$,
  'a note sends nothing to the ticket''s thread topic');
select is_empty($$select 1 from realtime.messages where topic = 'support:desk' and payload::text like '%SECRET%'$$,
  'the desk carries no note content');
delete from realtime.messages;

-- =============================================================================================
-- Canned replies
-- =============================================================================================
select is(pg_temp.seen('anon', 'select * from public.canned_replies'), 'error 42501', 'anon cannot read canned replies');
select is(pg_temp.seen('owner', 'select * from public.canned_replies'), '0', 'a user sees no canned reply');
select is(pg_temp.seen('banned', 'select * from public.canned_replies'), '0', 'a banned user sees none');
select is(pg_temp.seen('badmin', 'select * from public.canned_replies'), '0', 'a banned admin sees none');
select is(pg_temp.seen('admin2', 'select * from public.canned_replies'), '1', 'every admin reads the shared library');
select is(pg_temp.try('owner', $$insert into public.canned_replies (title, content) values ('Mine', 'My reply')$$),
  'error 42501', 'a user cannot save a canned reply');
select is(pg_temp.try('other', $$update public.canned_replies set content = 'tampered'$$), 'rows=0',
  'another user changes no canned reply');
select is(pg_temp.try('banned', $$delete from public.canned_replies$$), 'rows=0', 'a banned user deletes none');
select is(pg_temp.try('badmin', $$insert into public.canned_replies (title, content) values ('Badmin', 'Reply')$$),
  'error 42501', 'a banned admin cannot save one');
select is(pg_temp.try('admin2', $$insert into public.canned_replies (title, content) values ('Refund', 'Refunds take 5 days.')$$),
  'rows=1', 'an admin saves a canned reply');
select is(pg_temp.try('admin2', $$insert into public.canned_replies (title, content, created_by)
                                  values ('Forged', 'Reply', 'a2200000-0000-4000-8000-000000000004')$$),
  'error 42501', 'the author of a canned reply is the caller');
select is(pg_temp.try('admin2', $$insert into public.canned_replies (title, content) values (' greeting ', 'Another')$$),
  'error 23505', 'titles are unique, ignoring case and surrounding blanks');
select is(pg_temp.try('admin2', $$insert into public.canned_replies (title, content) values ('  ', 'Reply')$$),
  'error 23514', 'a blank title is refused');
select is(pg_temp.try('admin2', format($$insert into public.canned_replies (title, content) values ('Long', %L)$$, repeat('y', 2001))),
  'error 23514', 'a canned reply over 2000 characters is refused');
select is(pg_temp.try('admin2', $$update public.canned_replies set content = 'Hi there!' where id = 'f2200000-0000-4000-8000-000000000001'$$),
  'rows=1', 'any admin edits a shared canned reply');
select is(pg_temp.try('admin2', $$update public.canned_replies set created_by = null$$),
  'error 42501', 'nobody rewrites who saved a canned reply');
select is(pg_temp.try('admin2', $$delete from public.canned_replies where id = 'f2200000-0000-4000-8000-000000000001'$$),
  'rows=1', 'an admin deletes a canned reply');

-- =============================================================================================
-- Awaiting an admin (the header's unanswered count) and the desk's broadcasts
-- =============================================================================================
select ok((select awaiting_admin from public.support_tickets where id = 'd2200000-0000-4000-8000-000000000001'),
  'a new ticket awaits an admin');
select is(pg_temp.try('owner', $$update public.support_tickets set awaiting_admin = false$$), 'error 42501',
  'the owner cannot mark their ticket answered');

select pg_temp.login('admin');
insert into public.ticket_messages (ticket_id, content) values ('d2200000-0000-4000-8000-000000000001', 'How can we help?');
select pg_temp.logout();
select ok(not (select awaiting_admin from public.support_tickets where id = 'd2200000-0000-4000-8000-000000000001'),
  'an admin reply answers it');
select is(pg_temp.seen('admin', $$select 1 from public.support_tickets where awaiting_admin and status <> 'closed'$$),
  '1', 'the unanswered count drops to the banned user''s ticket');

select pg_temp.login('admin');
select public.admin_set_ticket_status('d2200000-0000-4000-8000-000000000001', 'in_progress');
select pg_temp.logout();
select ok(not (select awaiting_admin from public.support_tickets where id = 'd2200000-0000-4000-8000-000000000001'),
  'a status change does not make it wait again');

select pg_temp.login('owner');
insert into public.ticket_messages (ticket_id, content) values ('d2200000-0000-4000-8000-000000000001', 'Still broken');
select pg_temp.logout();
select ok((select awaiting_admin from public.support_tickets where id = 'd2200000-0000-4000-8000-000000000001'),
  'the owner''s reply makes it wait for an admin again');

select pg_temp.login('admin');
select public.admin_set_ticket_status('d2200000-0000-4000-8000-000000000001', 'resolved');
select pg_temp.logout();
select ok(not (select awaiting_admin from public.support_tickets where id = 'd2200000-0000-4000-8000-000000000001'),
  'resolving a ticket answers it');
select pg_temp.login('owner');
insert into public.ticket_messages (ticket_id, content) values ('d2200000-0000-4000-8000-000000000001', 'Not fixed');
select pg_temp.logout();
select ok((select awaiting_admin from public.support_tickets where id = 'd2200000-0000-4000-8000-000000000001'),
  'the owner''s reply on a resolved ticket makes it wait again');
select pg_temp.login('admin');
select public.admin_set_ticket_status('d2200000-0000-4000-8000-000000000001', 'closed');
select pg_temp.logout();
select ok(not (select awaiting_admin from public.support_tickets where id = 'd2200000-0000-4000-8000-000000000001'),
  'closing a ticket answers it too');

select ok(
  (select bool_and(topic = 'support:desk' and event = 'desk' and private
                   and payload ->> 'ticket_id' = 'd2200000-0000-4000-8000-000000000001'
                   and payload - 'ticket_id' - 'operation' = '{}'::jsonb)
   from realtime.messages where topic = 'support:desk'),
  'desk messages name the ticket and the operation, nothing else');
select ok((select count(*) >= 3 from realtime.messages where topic = 'support:desk'),
  'replies and the status change were announced on the desk');

delete from realtime.messages;
select pg_temp.login('other');
insert into public.support_tickets (subject, content) values ('Other ticket', 'Another user needs help');
select pg_temp.logout();
select is((select count(*)::int from realtime.messages where topic = 'support:desk' and payload ->> 'operation' = 'INSERT'),
  1, 'a new ticket is announced on the desk');

select * from finish();
rollback;
