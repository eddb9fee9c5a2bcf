-- The chat GIF upload limit (migration 20261126000000, decision 0040): an upload reserves its
-- object name through reserve_chat_gif, which counts it (20 per 10 minutes, admins 100) and
-- answers PostgREST's 429 contract past the limit; the chat-gifs bucket takes only a name its
-- uploader reserved in the last 10 minutes.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(14);

insert into auth.users (id, email) values
  ('a3200000-0000-4000-8000-000000000001', 'gifs@limits.test'),
  ('a3200000-0000-4000-8000-000000000002', 'admin-gifs@limits.test'),
  ('a3200000-0000-4000-8000-000000000003', 'outsider@limits.test');
update public.profiles set role = 'admin' where id = 'a3200000-0000-4000-8000-000000000002';
insert into public.groups (id, name, created_by) values
  ('b3200000-0000-4000-8000-000000000001', 'GIF limits', 'a3200000-0000-4000-8000-000000000001');
insert into public.group_members (group_id, user_id) values
  ('b3200000-0000-4000-8000-000000000001', 'a3200000-0000-4000-8000-000000000002')
on conflict do nothing;

-- `n` reservations into the group as the current user.
create function pg_temp.reserve(n integer) returns void language plpgsql as $$
begin
  for i in 1..n loop
    perform public.reserve_chat_gif('b3200000-0000-4000-8000-000000000001');
  end loop;
end;
$$;
select tests.authenticate_as('a3200000-0000-4000-8000-000000000001');
select matches(
  public.reserve_chat_gif('b3200000-0000-4000-8000-000000000001'),
  '^b3200000-0000-4000-8000-000000000001/a3200000-0000-4000-8000-000000000001/[0-9a-f-]{36}\.gif$',
  'a member reserves a name in their own folder of the group'
);
select set_config('test.gif', public.reserve_chat_gif('b3200000-0000-4000-8000-000000000001'), true);
select lives_ok(
  $$insert into storage.objects (bucket_id, name, owner) values ('chat-gifs', current_setting('test.gif'), auth.uid())$$,
  'and uploads under a reserved name (a request after the reservation)'
);
select throws_ok(
  $$insert into storage.objects (bucket_id, name, owner) values ('chat-gifs',
    'b3200000-0000-4000-8000-000000000001/a3200000-0000-4000-8000-000000000001/e3200000-0000-4000-8000-000000000001.gif', auth.uid())$$,
  '42501', null,
  'a name in their own folder that was not reserved is refused (no upload around the limit)'
);
-- 2 reserved so far; the 20th passes, the 21st is refused.
select lives_ok($$select pg_temp.reserve(18)$$, '20 reservations within 10 minutes pass');
select is(tests.write_refusal($$select pg_temp.reserve(1)$$, 600), 'PGRST PT429 429 retry-after=1..600 gif_upload',
  'the 21st is refused with 429 and a Retry-After within the window');
select throws_like($$select pg_temp.reserve(1)$$,
  '%You''re uploading GIFs too fast — try again in % s%', 'the message says how long to wait');
reset role;
select is((select count(*)::int from private.chat_gif_reservations where user_id = 'a3200000-0000-4000-8000-000000000001'),
  20, 'nothing of the refused reservations was stored');

-- Someone else's reservation does not open the bucket.
select set_config('test.other', (select name from private.chat_gif_reservations
  where user_id = 'a3200000-0000-4000-8000-000000000001' and name not in (select name from storage.objects) limit 1), true);
select tests.authenticate_as('a3200000-0000-4000-8000-000000000002');
select throws_ok(
  $$insert into storage.objects (bucket_id, name) values ('chat-gifs', current_setting('test.other'))$$,
  '42501', null, 'another member cannot upload under a name someone else reserved');
select lives_ok($$select pg_temp.reserve(100)$$, 'an admin reserves 100 within 10 minutes');
select is(tests.write_refusal($$select pg_temp.reserve(1)$$, 600), 'PGRST PT429 429 retry-after=1..600 gif_upload',
  'and is refused at the 101st: admins are not exempt');
reset role;

-- A reservation is good for 10 minutes.
update private.chat_gif_reservations set created_at = created_at - interval '11 minutes'
where user_id = 'a3200000-0000-4000-8000-000000000001';
select tests.authenticate_as('a3200000-0000-4000-8000-000000000001');
select throws_ok(
  $$insert into storage.objects (bucket_id, name) values ('chat-gifs', current_setting('test.other'))$$,
  '42501', null, 'a reservation older than 10 minutes no longer opens the bucket');
reset role;

select tests.authenticate_as('a3200000-0000-4000-8000-000000000003');
select throws_ok($$select public.reserve_chat_gif('b3200000-0000-4000-8000-000000000001')$$,
  '42501', 'Only members of this group can send GIFs to it.', 'a non-member reserves nothing');
select tests.authenticate_as_anon();
select throws_ok($$select public.reserve_chat_gif('b3200000-0000-4000-8000-000000000001')$$,
  '42501', null, 'a visitor cannot call reserve_chat_gif');
reset role;
select is((select count(*)::int from private.chat_gif_reservations where user_id = 'a3200000-0000-4000-8000-000000000003'),
  0, 'and nothing was reserved for them');

select * from finish();
rollback;
