-- Changing plans in place (migration 20261126400000, decision 0051): the pending plan stays a
-- paid plan with its date, the profile follows only the current plan, users read their own
-- pending change, and the plan-change limit (5 an hour) is the service role's alone.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(14);

delete from auth.users;
insert into auth.users (id, email) values
  ('a3400000-0000-4000-8000-000000000001', 'changer@plans.test'),
  ('a3400000-0000-4000-8000-000000000002', 'other@plans.test');

insert into public.billing_subscriptions
  (id, user_id, stripe_customer_id, plan, status, stripe_updated_at, pending_plan, pending_plan_at)
values ('sub_pc1', 'a3400000-0000-4000-8000-000000000001', 'cus_pc1', 'pro', 'active', now(),
        'basic', now() + interval '20 days');

select is(
  (select plan::text || '/' || subscription_active::text from public.profiles
   where id = 'a3400000-0000-4000-8000-000000000001'),
  'pro/true',
  'a waiting downgrade leaves the profile on the current plan'
);

select throws_ok(
  $$update public.billing_subscriptions set pending_plan_at = null where id = 'sub_pc1'$$,
  '23514', null,
  'a pending plan needs its date'
);
select throws_ok(
  $$update public.billing_subscriptions set pending_plan = 'none' where id = 'sub_pc1'$$,
  '23514', null,
  'the pending plan is a paid plan'
);
select lives_ok(
  $$update public.billing_subscriptions set pending_plan = null, pending_plan_at = null,
      stripe_updated_at = now() + interval '1 second' where id = 'sub_pc1'$$,
  'no pending change: both null'
);
update public.billing_subscriptions set pending_plan = 'basic',
  pending_plan_at = now() + interval '20 days', stripe_updated_at = now() + interval '2 seconds'
where id = 'sub_pc1';

-- The owner reads their pending change; another user does not see the row.
select tests.authenticate_as('a3400000-0000-4000-8000-000000000001');
select is(
  (select pending_plan::text from public.billing_subscriptions where id = 'sub_pc1'),
  'basic',
  'the owner reads the pending plan'
);
select throws_ok(
  $$select public.take_plan_change_slot('a3400000-0000-4000-8000-000000000001')$$,
  '42501', null,
  'a user cannot take a plan change slot'
);
select throws_ok(
  $$update public.billing_subscriptions set pending_plan = null, pending_plan_at = null where id = 'sub_pc1'$$,
  '42501', null,
  'a user cannot drop a pending change themselves'
);
select tests.authenticate_as('a3400000-0000-4000-8000-000000000002');
select is(
  (select count(*)::integer from public.billing_subscriptions where id = 'sub_pc1'),
  0,
  'another user does not see it'
);
reset role;

-- The limit: five changes an hour, then the seconds to wait; per user.
select is(
  (select array_agg(public.take_plan_change_slot('a3400000-0000-4000-8000-000000000001')) from generate_series(1, 5)),
  array[0, 0, 0, 0, 0],
  'five changes in an hour are allowed'
);
select cmp_ok(
  public.take_plan_change_slot('a3400000-0000-4000-8000-000000000001'), '>', 3500,
  'the sixth waits for the oldest to leave the hour'
);
select is(
  public.take_plan_change_slot('a3400000-0000-4000-8000-000000000002'), 0,
  'another user has their own limit'
);
-- They are counted where every per-user limit counts (decision 0040), not in a table of their own.
select is(
  (select count(*)::integer from private.write_events
   where user_id = 'a3400000-0000-4000-8000-000000000001' and kind = 'plan_change'),
  5,
  'the five changes are counted in private.write_events'
);
select hasnt_table('private', 'plan_change_attempts', 'plan changes have no attempts table of their own');
-- Changes older than an hour leave the count.
update private.write_events set at = at - interval '61 minutes'
where user_id = 'a3400000-0000-4000-8000-000000000001' and kind = 'plan_change';
select is(
  public.take_plan_change_slot('a3400000-0000-4000-8000-000000000001'), 0,
  'an hour later there is room again'
);

select * from finish();
rollback;
