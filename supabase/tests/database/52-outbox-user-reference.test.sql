-- The outbox's user reference without a per-row foreign key (migration 20261127100000, decision
-- 0052): a job for a user without a profile is refused with 23503 (one bad row refuses the whole
-- statement), a job's user cannot be changed to nobody, and deleting a profile — directly or
-- through its auth user — still removes its jobs and only its jobs.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(11);

insert into auth.users (id, email) values
  ('a5200000-0000-4000-8000-000000000001', 'ob-one@ob.test'),
  ('a5200000-0000-4000-8000-000000000002', 'ob-two@ob.test'),
  ('a5200000-0000-4000-8000-000000000003', 'ob-three@ob.test');

select hasnt_fk('private', 'outbox', 'the outbox has no per-row foreign key');
select hasnt_index('private', 'outbox', 'outbox_message_idx', 'no message_id index on the insert path');

select lives_ok($$
  insert into private.outbox (kind, channel, user_id, dedup_key, payload) values
    ('market_alert', 'email', 'a5200000-0000-4000-8000-000000000001', 'ob:1:email', '{}'),
    ('market_alert', 'discord', 'a5200000-0000-4000-8000-000000000001', 'ob:1:discord', '{}'),
    ('market_alert', 'email', 'a5200000-0000-4000-8000-000000000002', 'ob:2:email', '{}'),
    ('market_alert', 'email', 'a5200000-0000-4000-8000-000000000003', 'ob:3:email', '{}'),
    ('ticket_status', 'email', null, 'ob:nobody', '{}')$$,
  'jobs for users with a profile (and a job without a user) are written');

select throws_ok($$
  insert into private.outbox (kind, channel, user_id, dedup_key, payload)
  values ('market_alert', 'email', 'a5200000-0000-4000-8000-0000000000ff', 'ob:ghost', '{}')$$,
  '23503', null, 'a job for a user without a profile is refused');

select throws_ok($$
  insert into private.outbox (kind, channel, user_id, dedup_key, payload) values
    ('market_alert', 'telegram', 'a5200000-0000-4000-8000-000000000002', 'ob:2:telegram', '{}'),
    ('market_alert', 'telegram', 'a5200000-0000-4000-8000-0000000000fe', 'ob:ghost:telegram', '{}')$$,
  '23503', null, 'one job without a profile refuses the whole statement');
select is((select count(*)::int from private.outbox where dedup_key = 'ob:2:telegram'), 0,
  'the refused statement wrote nothing');

select throws_ok($$
  update private.outbox set user_id = 'a5200000-0000-4000-8000-0000000000fd' where dedup_key = 'ob:3:email'$$,
  '23503', null, 'a job cannot be moved to a user without a profile');

select lives_ok($$
  update private.outbox set user_id = 'a5200000-0000-4000-8000-000000000002' where dedup_key = 'ob:3:email'$$,
  'a job can be moved to a user with a profile');
update private.outbox set user_id = 'a5200000-0000-4000-8000-000000000003' where dedup_key = 'ob:3:email';

-- Deleting the auth user cascades to the profile, and the profile's delete to its jobs.
delete from auth.users where id = 'a5200000-0000-4000-8000-000000000001';
select is((select count(*)::int from private.outbox where dedup_key like 'ob:1:%'), 0,
  'deleting a user removes all of its jobs (every channel)');

delete from public.profiles where id = 'a5200000-0000-4000-8000-000000000003';
select is((select count(*)::int from private.outbox where dedup_key = 'ob:3:email'), 0,
  'deleting a profile directly removes its jobs');

select results_eq(
  $$select dedup_key from private.outbox where dedup_key like 'ob:%' order by 1$$,
  $$values ('ob:2:email'), ('ob:nobody')$$,
  'the other users'' jobs and jobs without a user stay');

select * from finish();
rollback;
