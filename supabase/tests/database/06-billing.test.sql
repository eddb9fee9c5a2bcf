-- Billing and avatars: the profile follows its Stripe subscriptions as the service role stores
-- them (plan rules included), an older Stripe state never replaces a newer one, users cannot
-- write billing state, and only the service role writes avatar objects.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(27);

insert into auth.users (id, email) values
  ('a6000000-0000-4000-8000-000000000001', 'buyer@billing.test'),
  ('a6000000-0000-4000-8000-000000000002', 'downgrader@billing.test'),
  ('a6000000-0000-4000-8000-000000000003', 'two-subs@billing.test'),
  ('a6000000-0000-4000-8000-000000000004', 'other@billing.test');
-- The downgrader starts on enterprise with a 5-minute window and e-mail alerts.
update public.profiles set plan = 'enterprise', subscription_active = true,
  selected_window_minutes = 5, email_alert = 'alerts@billing.test'
where id = 'a6000000-0000-4000-8000-000000000002';

create function pg_temp.profile(uid uuid) returns text language sql as $$
  select format('%s/%s', plan, case when subscription_active then 'active' else 'inactive' end)
  from public.profiles where id = uid
$$;

-- ---------------------------------------------------------------------------------------------
-- The service role stores subscriptions as the stripe-webhook function does.
-- ---------------------------------------------------------------------------------------------
set local role service_role;

insert into public.billing_customers (user_id, stripe_customer_id)
values ('a6000000-0000-4000-8000-000000000001', 'cus_buyer');
insert into public.billing_subscriptions (id, user_id, stripe_customer_id, price_id, plan, status,
  current_period_end, cancel_at_period_end, stripe_updated_at)
values ('sub_buyer', 'a6000000-0000-4000-8000-000000000001', 'cus_buyer', 'price_pro', 'pro',
  'incomplete', '2026-12-21 09:30:00+00', false, '2026-11-21 09:30:00+00');
select is(pg_temp.profile('a6000000-0000-4000-8000-000000000001'), 'none/inactive',
  'an incomplete subscription grants nothing');

-- The upsert the function sends through PostgREST.
insert into public.billing_subscriptions as s (id, user_id, stripe_customer_id, price_id, plan,
  status, current_period_end, cancel_at_period_end, stripe_updated_at)
values ('sub_buyer', 'a6000000-0000-4000-8000-000000000001', 'cus_buyer', 'price_pro', 'pro',
  'active', '2026-12-21 09:30:00+00', false, '2026-11-21 09:30:10+00')
on conflict (id) do update set status = excluded.status, stripe_updated_at = excluded.stripe_updated_at;
select is(pg_temp.profile('a6000000-0000-4000-8000-000000000001'), 'pro/active',
  'an active subscription activates its plan on the profile');
select is((select selected_window_minutes from public.profiles where id = 'a6000000-0000-4000-8000-000000000001'),
  30, 'the window stays one the new plan allows');

update public.billing_subscriptions set status = 'past_due', stripe_updated_at = '2026-12-21 10:00:00+00'
where id = 'sub_buyer';
select is(pg_temp.profile('a6000000-0000-4000-8000-000000000001'), 'pro/inactive',
  'past_due deactivates the subscription and keeps the plan');

-- A slow delivery read Stripe before the past_due state was stored: it must not win.
insert into public.billing_subscriptions as s (id, user_id, stripe_customer_id, price_id, plan,
  status, current_period_end, cancel_at_period_end, stripe_updated_at)
values ('sub_buyer', 'a6000000-0000-4000-8000-000000000001', 'cus_buyer', 'price_pro', 'pro',
  'active', '2026-12-21 09:30:00+00', false, '2026-12-21 09:59:00+00')
on conflict (id) do update set status = excluded.status, stripe_updated_at = excluded.stripe_updated_at;
select is((select status from public.billing_subscriptions where id = 'sub_buyer'), 'past_due',
  'an older Stripe state does not replace a newer one');
select is(pg_temp.profile('a6000000-0000-4000-8000-000000000001'), 'pro/inactive',
  'and the profile keeps following the newer state');

update public.billing_subscriptions set status = 'active', stripe_updated_at = '2026-12-21 10:05:00+00'
where id = 'sub_buyer';
select is(pg_temp.profile('a6000000-0000-4000-8000-000000000001'), 'pro/active',
  'paying the invoice reactivates the plan');
select ok((select updated_at from public.billing_subscriptions where id = 'sub_buyer') is not null,
  'updated_at is stamped');

select lives_ok(
  $$update public.billing_subscriptions set cancel_at_period_end = true,
      stripe_updated_at = '2026-12-21 10:05:00+00' where id = 'sub_buyer'$$,
  'a state read at the same instant is applied');
select is((select cancel_at_period_end from public.billing_subscriptions where id = 'sub_buyer'), true,
  'cancel_at_period_end is stored');
select is(pg_temp.profile('a6000000-0000-4000-8000-000000000001'), 'pro/active',
  'a subscription cancelling at the period end still grants access');

update public.billing_subscriptions set status = 'canceled', stripe_updated_at = '2027-01-21 09:30:00+00'
where id = 'sub_buyer';
select is(pg_temp.profile('a6000000-0000-4000-8000-000000000001'), 'pro/inactive',
  'a canceled subscription ends access and keeps the plan');

-- A plan change through the service role passes the plan rules: enterprise → basic coerces the
-- window to the basic one and clears the enterprise-only e-mail alerts.
insert into public.billing_subscriptions (id, user_id, stripe_customer_id, price_id, plan, status,
  stripe_updated_at)
values ('sub_down', 'a6000000-0000-4000-8000-000000000002', 'cus_down', 'price_basic', 'basic',
  'active', now());
select is(pg_temp.profile('a6000000-0000-4000-8000-000000000002'), 'basic/active',
  'the service role changes a plan from enterprise to basic');
select results_eq(
  $$select selected_window_minutes, email_alert from public.profiles
    where id = 'a6000000-0000-4000-8000-000000000002'$$,
  $$values (30, null::text)$$,
  'the plan rules coerce the window and clear e-mail alerts');

-- Several subscriptions: the best one that grants access wins.
insert into public.billing_subscriptions (id, user_id, stripe_customer_id, price_id, plan, status,
  stripe_updated_at)
values ('sub_two_ent', 'a6000000-0000-4000-8000-000000000003', 'cus_two', 'price_ent', 'enterprise',
  'canceled', now()),
       ('sub_two_basic', 'a6000000-0000-4000-8000-000000000003', 'cus_two', 'price_basic', 'basic',
  'trialing', now());
select is(pg_temp.profile('a6000000-0000-4000-8000-000000000003'), 'basic/active',
  'a trialing basic subscription grants basic while the enterprise one is canceled');
insert into public.billing_subscriptions (id, user_id, stripe_customer_id, price_id, plan, status,
  stripe_updated_at)
values ('sub_two_pro', 'a6000000-0000-4000-8000-000000000003', 'cus_two', 'price_pro', 'pro',
  'active', now());
select is(pg_temp.profile('a6000000-0000-4000-8000-000000000003'), 'pro/active',
  'an active pro subscription is the best one');
update public.billing_subscriptions set status = 'unpaid', stripe_updated_at = now() + interval '1 minute'
where id = 'sub_two_pro';
select is(pg_temp.profile('a6000000-0000-4000-8000-000000000003'), 'basic/active',
  'when the pro one lapses, the still trialing basic one applies');
select is(pg_temp.profile('a6000000-0000-4000-8000-000000000004'), 'none/inactive',
  'other users are untouched');

select lives_ok(
  $$insert into public.billing_events (id, type) values ('evt_1', 'checkout.session.completed')
    on conflict (id) do nothing$$,
  'the service role records a webhook event');
select lives_ok(
  $$insert into public.billing_events (id, type) values ('evt_1', 'checkout.session.completed')
    on conflict (id) do nothing$$,
  'recording it again changes nothing');
reset role;

-- ---------------------------------------------------------------------------------------------
-- Users cannot write billing state.
-- ---------------------------------------------------------------------------------------------
select tests.authenticate_as('a6000000-0000-4000-8000-000000000004');
select throws_ok(
  $$insert into public.billing_subscriptions (id, user_id, stripe_customer_id, plan, status)
    values ('sub_fake', 'a6000000-0000-4000-8000-000000000004', 'cus_fake', 'enterprise', 'active')$$,
  '42501', null, 'a user cannot grant themselves a subscription');
select throws_ok(
  $$update public.profiles set plan = 'enterprise', subscription_active = true
    where id = 'a6000000-0000-4000-8000-000000000004'$$,
  '42501', null, 'a user cannot set their plan');

-- ---------------------------------------------------------------------------------------------
-- Avatars: only the service role writes objects; users list and delete their own.
-- ---------------------------------------------------------------------------------------------
select throws_ok(
  $$insert into storage.objects (bucket_id, name)
    values ('avatars', 'a6000000-0000-4000-8000-000000000004/avatar.png')$$,
  '42501', null, 'a user cannot upload into their own avatar folder');
reset role;

insert into storage.objects (bucket_id, name)
values ('avatars', 'a6000000-0000-4000-8000-000000000004/avatar-1.png');

set local role authenticated;
update storage.objects set name = 'a6000000-0000-4000-8000-000000000004/avatar-2.png'
where bucket_id = 'avatars' and name = 'a6000000-0000-4000-8000-000000000004/avatar-1.png';
reset role;
select is(
  (select count(*)::int from storage.objects
   where bucket_id = 'avatars' and name = 'a6000000-0000-4000-8000-000000000004/avatar-1.png'),
  1, 'a user cannot replace their avatar object');

-- Listing is not public (migration 20261123100100): anon lists nothing, the owner their own.
set local role anon;
select is(
  (select count(*)::int from storage.objects
   where bucket_id = 'avatars' and name like 'a6000000-0000-4000-8000-000000000004/%'),
  0, 'anon cannot list avatars');
reset role;
set local role authenticated;
select is(
  (select count(*)::int from storage.objects
   where bucket_id = 'avatars' and name like 'a6000000-0000-4000-8000-000000000004/%'),
  1, 'a user lists their own avatar folder');
reset role;

set local role authenticated;
delete from storage.objects
where bucket_id = 'avatars' and name = 'a6000000-0000-4000-8000-000000000004/avatar-1.png';
reset role;
select is(
  (select count(*)::int from storage.objects
   where bucket_id = 'avatars' and name like 'a6000000-0000-4000-8000-000000000004/%'),
  0, 'a user deletes their own avatar object');

select * from finish();
rollback;
