-- Billing and avatars.
--
-- 1. A profile's plan and subscription_active follow its Stripe subscriptions. The
--    stripe-webhook function (service role) stores each subscription's current state in
--    public.billing_subscriptions; a trigger derives the profile from all of the user's
--    subscriptions in the same transaction: with an active or trialing one, the profile is
--    active on the best such plan; with none, it is inactive and keeps its plan. The rule is
--    mirrored by accountFromSubscriptions in supabase/functions/_shared/domain/billing.ts.
-- 2. billing_subscriptions keeps the newest state: an update carrying an older
--    stripe_updated_at (when the function read the state from Stripe) is skipped, so a slow
--    webhook delivery cannot overwrite a fresher one.
-- 3. Avatars are written only by the avatar function, which checks every image's content
--    (magic bytes) and size: users lose their insert and update policies on the avatars
--    bucket. Anyone still reads (the bucket is public) and users may still delete their own
--    objects.

create function private.keep_newest_subscription_state() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if new.stripe_updated_at < old.stripe_updated_at then
    return null;
  end if;
  new.updated_at := now();
  return new;
end;
$$;
comment on function private.keep_newest_subscription_state() is
  'Skips an update of billing_subscriptions that carries an older Stripe state than the stored one.';

create trigger billing_subscriptions_keep_newest
  before update on public.billing_subscriptions
  for each row execute function private.keep_newest_subscription_state();

-- After a subscription is stored: the owner's profile (and a former owner's, should the row
-- move) is active on the best plan among active/trialing subscriptions, else inactive with its
-- plan kept.
create function private.sync_profile_subscription() returns trigger
  language plpgsql
  set search_path = ''
as $$
declare
  target uuid;
  best public.plan;
begin
  foreach target in array array_remove(array[new.user_id,
      case when tg_op = 'UPDATE' and old.user_id is distinct from new.user_id then old.user_id end], null)
  loop
    -- public.plan sorts in declaration order: none < basic < pro < enterprise.
    select s.plan into best
    from public.billing_subscriptions s
    where s.user_id = target and s.status in ('active', 'trialing')
    order by s.plan desc
    limit 1;
    if best is not null then
      update public.profiles set plan = best, subscription_active = true
      where id = target and (plan is distinct from best or not subscription_active);
    else
      update public.profiles set subscription_active = false
      where id = target and subscription_active;
    end if;
  end loop;
  return null;
end;
$$;
comment on function private.sync_profile_subscription() is
  'Derives plan and subscription_active of a profile from its stored Stripe subscriptions.';

create trigger billing_subscriptions_sync_profile
  after insert or update on public.billing_subscriptions
  for each row execute function private.sync_profile_subscription();

-- Trigger functions: no API role calls them.
revoke execute on function private.keep_newest_subscription_state(),
  private.sync_profile_subscription() from public;

-- Avatars: only the service role (the avatar function) writes objects.
drop policy "avatars: users upload into their folder" on storage.objects;
drop policy "avatars: users replace their files" on storage.objects;
