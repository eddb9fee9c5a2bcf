-- Claiming ahead and reserved send times (migrations 20261128165000, 20261128165100, decision
-- 0066): release_outbox hands back only unmarked jobs the worker holds; reserve_delivery_slots
-- spaces its slots by the rate within the horizon and leaves the bucket owing them; input is
-- checked; only the service role may call them.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(14);

insert into private.outbox (kind, channel, user_id, payload, status, claimed_by, attempts, next_attempt_at,
                            send_started_at, dedup_key)
values ('ticket_reply', 'email', null, '{}', 'sending', 'w1', 1, now() + interval '60 seconds', null, 'pgtap-66-1'),
       ('ticket_reply', 'email', null, '{}', 'sending', 'w1', 1, now() + interval '60 seconds', now(), 'pgtap-66-2'),
       ('ticket_reply', 'email', null, '{}', 'sending', 'w2', 1, now() + interval '60 seconds', null, 'pgtap-66-3'),
       ('ticket_reply', 'email', null, '{}', 'sending', 'w1', 1, now() - interval '1 second', null, 'pgtap-66-4');
create temp table j66 as select dedup_key as k, id from private.outbox where dedup_key like 'pgtap-66-%';

select is(public.release_outbox('w1', (select array_agg(id) from j66)), 1,
  'only the unmarked job the worker holds under a live lease is handed back');
select is((select status || ':' || coalesce(claimed_by, '-') || ':' || attempts from private.outbox where id = (select id from j66 where k = 'pgtap-66-1')),
  'pending:-:0', 'it is pending, nobody''s, with the claim''s attempt undone');
select ok((select next_attempt_at <= now() from private.outbox where id = (select id from j66 where k = 'pgtap-66-1')), 'and due at once');
select is((select status from private.outbox where id = (select id from j66 where k = 'pgtap-66-2')), 'sending', 'a job marked as being sent stays');
select is((select claimed_by from private.outbox where id = (select id from j66 where k = 'pgtap-66-3')), 'w2', 'another worker''s job stays');
select is((select status from private.outbox where id = (select id from j66 where k = 'pgtap-66-4')), 'sending', 'a job whose lease ended stays');

select is((select waits_ms from public.reserve_delivery_slots('pgtap:slots', 2, 1, 10, 1200)), array[0, 500, 1000],
  'slots at the rate (2 per second, burst 1) within the horizon');
select ok((select next_ms from public.reserve_delivery_slots('pgtap:slots', 2, 1, 1, 1200)) > 1200,
  'the next worker''s slot comes after them');
select is((select granted from public.take_delivery_tokens('pgtap:slots', 2, 1, 1)), 0,
  'tokens taken one by one wait behind the reserved slots');

select throws_ok($$ select public.reserve_delivery_slots('pgtap:x', 2, 1, 1, 600000) $$, '22023', null, 'the horizon is checked');
select throws_ok($$ select public.reserve_delivery_slots('pgtap:x', 2, 1, 0, 1000) $$, '22023', null, 'wanted is checked');
select throws_ok($$ select public.release_outbox('', array[1]::bigint[]) $$, '22023', null, 'the worker is checked');

select is(has_function_privilege('authenticated', 'public.reserve_delivery_slots(text, double precision, integer, integer, integer)', 'execute'),
  false, 'users cannot reserve send times');
select is(has_function_privilege('anon', 'public.release_outbox(text, bigint[])', 'execute'),
  false, 'nobody outside the service role hands jobs back');

select * from finish();
rollback;
