-- Text rules trim white space, vertical tab included, and never the letter v (migration
-- 20261205010000, decision 0113).
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(10);

insert into auth.users (id, email) values
  ('a1130000-0000-4000-8000-000000000001', 'tv-admin@tv.test'),
  ('a1130000-0000-4000-8000-000000000002', 'tv-user@tv.test');
update public.profiles set role = 'admin' where id = 'a1130000-0000-4000-8000-000000000001';

-- Canned replies: one title whatever its case and surrounding white space.
insert into public.canned_replies (title, content, created_by)
  values ('Tv Nav', 'Hello', 'a1130000-0000-4000-8000-000000000001');
select throws_ok(
  $$insert into public.canned_replies (title, content, created_by) values (' TV NAV ', 'Again', 'a1130000-0000-4000-8000-000000000001')$$,
  '23505', null, 'a title ending in v and the same title in capitals are one title');
select throws_ok(
  $$insert into public.canned_replies (title, content, created_by) values (E'\x0btv nav\x0b', 'Again', 'a1130000-0000-4000-8000-000000000001')$$,
  '23505', null, 'vertical tabs around a title are white space');
select lives_ok(
  $$insert into public.canned_replies (title, content, created_by) values ('Tv Na', 'Other', 'a1130000-0000-4000-8000-000000000001')$$,
  'a title that differs by its last v is another title');
select lives_ok(
  $$insert into public.canned_replies (title, content, created_by) values ('v', 'One letter', 'a1130000-0000-4000-8000-000000000001')$$,
  'a title "v" is one character long, not empty');

-- Groups and tickets: v counts towards the length, a vertical tab does not.
select lives_ok(
  $$insert into public.groups (name, created_by) values ('vvv', 'a1130000-0000-4000-8000-000000000002')$$,
  'a group named "vvv" has three characters');
select throws_ok(
  $$insert into public.groups (name, created_by) values (E'\x0bab\x0b', 'a1130000-0000-4000-8000-000000000002')$$,
  '23514', null, 'a group name of two characters between vertical tabs is too short');
select lives_ok(
  $$insert into public.support_tickets (user_id, subject, content) values ('a1130000-0000-4000-8000-000000000002', 'vvvvv', 'vvvvvvvvvv')$$,
  'a ticket subject "vvvvv" and content of ten v''s are long enough');
select throws_ok(
  $$insert into public.support_tickets (user_id, subject, content) values ('a1130000-0000-4000-8000-000000000002', E'\x0babcd\x0b', 'Long enough content')$$,
  '23514', null, 'a subject of four characters between vertical tabs is too short');

-- A ban reason keeps its v's.
select tests.authenticate_as('a1130000-0000-4000-8000-000000000001');
select public.admin_ban_user('a1130000-0000-4000-8000-000000000002', E' \x0bSpam, see rev\x0b ');
select tests.clear_authentication();
select is((select banned_reason from public.profiles where id = 'a1130000-0000-4000-8000-000000000002'),
  'Spam, see rev', 'the ban reason is stored without its white space and with its last v');
select tests.authenticate_as('a1130000-0000-4000-8000-000000000001');
select throws_ok($$select public.admin_ban_user('a1130000-0000-4000-8000-000000000002', E'\x0babcd\x0b')$$,
  '23514', null, 'a ban reason of four characters between vertical tabs is too short');
select tests.clear_authentication();

select * from finish();
rollback;
