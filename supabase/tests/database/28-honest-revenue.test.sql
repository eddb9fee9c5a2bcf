-- Honest revenue (migration 20261125400300, decision 0036): Monthly Revenue and Active
-- Subscriptions count paying Stripe subscriptions only; admins and accounts an admin switched on
-- are counted apart.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

select plan(6);

delete from auth.users;

create temp table u (code text primary key, uid uuid, plan public.plan, active boolean, role public.app_role, banned boolean);
insert into u values
  ('paid_basic', 'a2800000-0000-4000-8000-000000000001', 'basic',      true,  'user',  false),
  ('paid_pro',   'a2800000-0000-4000-8000-000000000002', 'pro',        true,  'user',  false),
  ('paid_ent',   'a2800000-0000-4000-8000-000000000003', 'enterprise', true,  'user',  false),
  ('comp_pro',   'a2800000-0000-4000-8000-000000000004', 'pro',        true,  'user',  false),
  ('trial',      'a2800000-0000-4000-8000-000000000005', 'pro',        true,  'user',  false),
  ('past_due',   'a2800000-0000-4000-8000-000000000006', 'basic',      false, 'user',  false),
  ('banned',     'a2800000-0000-4000-8000-000000000007', 'pro',        true,  'user',  true),
  ('admin',      'a2800000-0000-4000-8000-000000000008', 'enterprise', true,  'admin', false),
  ('free',       'a2800000-0000-4000-8000-000000000009', 'none',       false, 'user',  false);
grant select on u to anon, authenticated;
insert into auth.users (id, email) select uid, code || '@revenue.test' from u;
update public.profiles p set plan = u.plan, subscription_active = u.active, role = u.role
from u where p.id = u.uid;
update public.profiles p set banned = true, banned_reason = 'Revenue fixture ban' from u where p.id = u.uid and u.banned;

-- Stripe's view: three paying subscriptions (one user with an older cancelled one besides), a
-- trial, one past due, the banned user's and the admin's own.
insert into public.billing_subscriptions (id, user_id, stripe_customer_id, plan, status, stripe_updated_at)
select 'sub_' || v.code || v.n, u.uid, 'cus_' || v.code, v.plan::public.plan, v.status, now() - make_interval(days => v.n)
from (values ('paid_basic', 0, 'basic', 'active'), ('paid_pro', 0, 'pro', 'active'), ('paid_pro', 40, 'basic', 'canceled'),
             ('paid_ent', 0, 'enterprise', 'active'), ('trial', 0, 'pro', 'trialing'), ('past_due', 0, 'basic', 'past_due'),
             ('banned', 0, 'pro', 'active'), ('admin', 0, 'enterprise', 'active')) v(code, n, plan, status)
join u on u.code = v.code;

create function pg_temp.login(who text) returns void language plpgsql as $$
declare
  id uuid;
begin
  select uid into strict id from pg_temp.u where code = who;
  perform tests.authenticate_as(id);
end;
$$;

select pg_temp.login('admin');
create temp table s as select * from public.admin_stats();
reset role;
select is((select active_subscriptions from s), 3::bigint, 'three paying Stripe subscriptions (not a trial, past due, banned or admin)');
select is((select total_revenue from s), 197::bigint, 'revenue 29 + 69 + 99 € a month');
select is((select complimentary_subscriptions from s), 2::bigint,
  'a Pro switched on by an admin and the trial without a paying subscription are counted apart');
select is((select admin_plans from s), 1::bigint, 'the admin''s own plan is counted apart, not as revenue');
select is((select total_users from s), 9::bigint, 'nine users');

select pg_temp.login('paid_pro');
select throws_ok($$ select * from public.admin_stats() $$, 'PT403', null, 'a paying user cannot read the figures');
reset role;

select * from finish();
rollback;
