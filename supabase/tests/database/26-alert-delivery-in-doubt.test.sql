-- Alert delivery without double sends (migration 20261125200000, decision 0031): a job marked as
-- being sent whose lease ran out becomes in_doubt and is not claimed again; an unmarked one is;
-- the worker's own late answer settles the doubt, nobody else's; claims serve every user's first
-- job before anyone's second; the delivery figures are for admins only.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(12);

insert into auth.users (id, email) values
  ('a2600000-0000-4000-8000-000000000001', 'dl-one@dl.test'),
  ('a2600000-0000-4000-8000-000000000002', 'dl-two@dl.test'),
  ('a2600000-0000-4000-8000-000000000003', 'dl-admin@dl.test');
update public.profiles set plan = 'enterprise', subscription_active = true,
  discord_webhook_url = 'https://discord.com/api/webhooks/26' || right(id::text, 1) || '/tok'
  where id in ('a2600000-0000-4000-8000-000000000001', 'a2600000-0000-4000-8000-000000000002');
update public.profiles set role = 'admin' where id = 'a2600000-0000-4000-8000-000000000003';
-- Nothing else is due in this transaction.
update private.outbox set status = 'cancelled' where status in ('pending', 'sending');

insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq, created_at) values
  ('market_alert', 'discord', 'a2600000-0000-4000-8000-000000000001', 'dl:1:a', '{"items": []}', 1, now()),
  ('market_alert', 'discord', 'a2600000-0000-4000-8000-000000000001', 'dl:1:b', '{"items": []}', 2, now()),
  ('market_alert', 'discord', 'a2600000-0000-4000-8000-000000000002', 'dl:2:a', '{"items": []}', 1, now());

-- Fair order: user 1's second job comes after user 2's first, though it was written before.
select results_eq(
  $$select o.dedup_key from public.claim_outbox('w-fair', 3, 60, 'discord') c
      join private.outbox o on o.id = c.id order by o.created_at, o.seq, o.id$$,
  array['dl:1:a', 'dl:2:a', 'dl:1:b'],
  'claims serve every user''s first job before anyone''s second');
update private.outbox set status = 'pending', claimed_by = null, next_attempt_at = now()
  where dedup_key like 'dl:%';
select is((select array_agg(c.id order by c.id) from public.claim_outbox('w-one', 1, 60, 'discord') c),
  (select array_agg(id) from private.outbox where dedup_key = 'dl:1:a'),
  'a claim of one takes user 1''s first job');
select is((select count(*)::integer from public.claim_outbox('w-mail', 10, 60, 'email')), 0,
  'a claim for one channel takes none of another''s');

-- w-one marks dl:1:a as being sent; a stranger cannot.
select is((select count(*)::integer from public.begin_outbox_sends('w-other',
  array[(select id from private.outbox where dedup_key = 'dl:1:a')])), 0,
  'only the claiming worker may mark a job as being sent');
select is((select count(*)::integer from public.begin_outbox_sends('w-one',
  array[(select id from private.outbox where dedup_key = 'dl:1:a')])), 1,
  'the claiming worker marks its job before the request');

-- w-one dies: its lease ends.
update private.outbox set next_attempt_at = now() - interval '1 second' where dedup_key = 'dl:1:a';
select is((select count(*)::integer from public.claim_outbox('w-two', 10, 60, 'discord') c
           join private.outbox o on o.id = c.id where o.dedup_key = 'dl:1:a'), 0,
  'a job that was being sent when its worker died is not claimed again');
select is((select status from private.outbox where dedup_key = 'dl:1:a'), 'in_doubt',
  'it is recorded as in doubt');
select is((select count(*)::integer from private.outbox where dedup_key in ('dl:1:b', 'dl:2:a') and claimed_by = 'w-two'), 2,
  'unmarked jobs are claimed again as usual');
select is(public.complete_outbox((select id from private.outbox where dedup_key = 'dl:1:a'), 'w-two'), false,
  'another worker cannot settle the doubt');
select is(public.complete_outbox((select id from private.outbox where dedup_key = 'dl:1:a'), 'w-one'), true,
  'the worker that sent it settles the doubt with its late answer');

-- The admin figures.
select tests.authenticate_as('a2600000-0000-4000-8000-000000000001');
select throws_ok($$select * from public.admin_alert_delivery_stats()$$, '42501',
  'Only administrators can read the delivery figures.', 'a subscriber may not read the delivery figures');
select tests.authenticate_as('a2600000-0000-4000-8000-000000000003');
select is((select sent from public.admin_alert_delivery_stats() where channel = 'discord') >= 1, true,
  'an admin reads the last hour per channel');
reset role;
select * from finish();
rollback;
