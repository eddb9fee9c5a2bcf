-- Token buckets shared by every delivery worker (migration 20261126300100, decision 0049):
-- take_delivery_tokens grants at most the burst, then nothing until the rate refills it;
-- pause_delivery_bucket owes a 429's retry_after for everyone; input is checked; only the
-- service role may call them. The outbox's in-flight index replaces the due index (20261126300200).
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(13);

select is((select granted from public.take_delivery_tokens('pgtap:burst', 0.001, 3, 5)), 3,
  'a fresh bucket grants its burst, not more');
select is((select granted from public.take_delivery_tokens('pgtap:burst', 0.001, 3, 1)), 0,
  'an empty bucket grants nothing');
select ok((select wait_ms from public.take_delivery_tokens('pgtap:burst', 0.001, 3, 1)) > 900000,
  'and says how long until the next token (1,000 s at 0.001 per second)');
select is((select tokens from private.delivery_buckets where name = 'pgtap:burst') < 1, true,
  'the bucket is stored for every worker');

select lives_ok($$ select public.pause_delivery_bucket('pgtap:paused', 10, 5) $$, 'a 429 pauses a bucket');
select is((select granted from public.take_delivery_tokens('pgtap:paused', 10, 5, 1)), 0,
  'nothing is granted while paused');
select ok((select wait_ms from public.take_delivery_tokens('pgtap:paused', 10, 5, 1)) between 4000 and 5200,
  'the wait covers the pause');

select throws_ok($$ select public.take_delivery_tokens('Bad Name', 1, 1, 1) $$, '22023', null, 'names are checked');
select throws_ok($$ select public.take_delivery_tokens('pgtap:x', 0, 1, 1) $$, '22023', null, 'the rate must be positive');
select throws_ok($$ select public.take_delivery_tokens('pgtap:x', 1, 0, 1) $$, '22023', null, 'the burst must be at least 1');

select is(has_function_privilege('authenticated', 'public.take_delivery_tokens(text, double precision, integer, integer)', 'execute'),
  false, 'users cannot take delivery tokens');
select is(has_function_privilege('anon', 'public.pause_delivery_bucket(text, double precision, double precision)', 'execute'),
  false, 'nobody outside the service role pauses a bucket');

select is((select count(*)::int from pg_indexes where schemaname = 'private' and tablename = 'outbox'
             and indexname in ('outbox_sending_idx', 'outbox_due_idx')), 1,
  'the outbox keeps one index for the in-doubt sweep: the in-flight one');

select * from finish();
rollback;
