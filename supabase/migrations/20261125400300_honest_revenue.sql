-- Honest revenue (issue 27, decision 0036).
--
-- Monthly Revenue and Active Subscriptions counted every profile with an active plan, so admins
-- who promoted themselves and accounts an admin switched on by hand counted as income (the demo
-- showed 296 €). They now count paying Stripe subscriptions only: a billing_subscriptions row in
-- Stripe's 'active' status (trialing, past_due, unpaid, canceled and incomplete are not paying)
-- of a user who is neither an admin nor banned, one per user (the newest), valued at its plan's
-- price. Accounts with an active plan and no paying subscription are counted apart:
-- complimentary_subscriptions (users an admin switched on) and admin_plans (admins on a plan).

drop function public.admin_stats();
create function public.admin_stats() returns table (
  total_users bigint, active_subscriptions bigint, online_users bigint, recent_signups bigint,
  total_revenue bigint, banned_users bigint, complimentary_subscriptions bigint, admin_plans bigint
)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    with paying as (
      select distinct on (s.user_id) s.user_id, s.plan
      from public.billing_subscriptions s
      join public.profiles p on p.id = s.user_id
      where s.status = 'active' and s.plan <> 'none' and p.role <> 'admin' and not p.banned
      order by s.user_id, s.stripe_updated_at desc nulls last, s.updated_at desc
    )
    select count(*),
           (select count(*) from paying),
           count(*) filter (where p.last_activity_at > now() - interval '5 minutes'),
           count(*) filter (where p.created_at > now() - interval '7 days'),
           coalesce((select sum(public.plan_price_eur(x.plan)) from paying x), 0)::bigint,
           count(*) filter (where p.banned),
           count(*) filter (where p.subscription_active and p.plan <> 'none' and not p.banned and p.role <> 'admin'
                              and not exists (select 1 from paying x where x.user_id = p.id)),
           count(*) filter (where p.subscription_active and p.plan <> 'none' and not p.banned and p.role = 'admin')
    from public.profiles p;
end;
$$;
comment on function public.admin_stats() is
  'Admin figures; revenue and active subscriptions from paying Stripe subscriptions only (decision 0036).';
revoke execute on function public.admin_stats() from public, anon;
grant execute on function public.admin_stats() to authenticated, service_role;
