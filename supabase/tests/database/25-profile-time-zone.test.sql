-- The profile's time zone (migration 20261125000000): users set their own IANA zone, unknown
-- names are refused with 22023 and nothing is stored, and another user's zone cannot be changed.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(5);

insert into auth.users (id, email) values
  ('a2500000-0000-4000-8000-000000000001', 'tz-owner@tz.test'),
  ('a2500000-0000-4000-8000-000000000002', 'tz-other@tz.test');

select is((select time_zone from public.profiles where id = 'a2500000-0000-4000-8000-000000000001'),
  null, 'a new profile has no time zone yet');

select tests.authenticate_as('a2500000-0000-4000-8000-000000000001');

select lives_ok($$update public.profiles set time_zone = 'Europe/Berlin'
  where id = 'a2500000-0000-4000-8000-000000000001'$$, 'the owner sets an IANA zone');
select throws_ok($$update public.profiles set time_zone = 'Mars/Olympus_Mons'
  where id = 'a2500000-0000-4000-8000-000000000001'$$, '22023',
  'Unknown time zone: Mars/Olympus_Mons', 'an unknown zone is refused');
update public.profiles set time_zone = 'Asia/Tokyo' where id = 'a2500000-0000-4000-8000-000000000002';

reset role;
select is((select time_zone from public.profiles where id = 'a2500000-0000-4000-8000-000000000001'),
  'Europe/Berlin', 'the refused zone stored nothing: the valid one stays');
select is((select time_zone from public.profiles where id = 'a2500000-0000-4000-8000-000000000002'),
  null, 'another user''s zone cannot be changed');
select * from finish();
rollback;
