-- Changing plans in place (issue 27, decision 0051).
--
-- 1. A downgrade waits for the end of the paid period (a Stripe subscription schedule): the
--    webhook stores the plan the subscription will switch to, and when, so the pricing page can
--    say it. Both are null when no change is pending. The profile still follows only the current
--    plan (private.sync_profile_subscription is not touched).
-- 2. Plan changes are rate-limited per user (like the social writes of decision 0040): the
--    change-plan function takes a slot before it calls Stripe; past 5 changes in an hour it
--    answers 429 with Retry-After.

alter table public.billing_subscriptions
  add column pending_plan public.plan,
  add column pending_plan_at timestamptz,
  add constraint billing_subscriptions_pending_plan_together
    check ((pending_plan is null) = (pending_plan_at is null)),
  add constraint billing_subscriptions_pending_plan_paid
    check (pending_plan is null or pending_plan <> 'none');

comment on column public.billing_subscriptions.pending_plan is
  'The plan a scheduled change (a downgrade) switches the subscription to at pending_plan_at; null when none is pending.';
comment on column public.billing_subscriptions.pending_plan_at is
  'When the pending plan takes effect (the end of the paid period).';

create table private.plan_change_attempts (
  user_id uuid not null,
  at timestamptz not null default clock_timestamp()
);
comment on table private.plan_change_attempts is
  'Recent plan changes per user, counted by public.take_plan_change_slot (only the last hour is kept).';
create index plan_change_attempts_user_idx on private.plan_change_attempts (user_id, at desc);
alter table private.plan_change_attempts enable row level security;
revoke all on private.plan_change_attempts from anon, authenticated;

-- 0 when the user may change plans now (the attempt is counted), else the seconds until a slot
-- frees. Called by the change-plan function with the service role; no API role may call it.
create function public.take_plan_change_slot(target uuid)
  returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  max_changes constant integer := 5;
  window_length constant interval := interval '1 hour';
  recent integer;
  oldest timestamptz;
begin
  if target is null then
    raise exception 'take_plan_change_slot: target is required' using errcode = '22004';
  end if;
  -- One caller per user at a time, so two concurrent requests cannot both take the last slot.
  perform pg_advisory_xact_lock(hashtext('plan_change:' || target::text));
  delete from private.plan_change_attempts a
    where a.user_id = target and a.at <= clock_timestamp() - window_length;
  select count(*), min(a.at) into recent, oldest
    from private.plan_change_attempts a where a.user_id = target;
  if recent >= max_changes then
    return greatest(1, ceil(extract(epoch from (oldest + window_length - clock_timestamp())))::integer);
  end if;
  insert into private.plan_change_attempts (user_id) values (target);
  return 0;
end;
$$;
comment on function public.take_plan_change_slot(uuid) is
  'Rate limit of plan changes (5 per hour per user): 0 = allowed and counted, else seconds to wait.';
revoke all on function public.take_plan_change_slot(uuid) from public, anon, authenticated;
grant execute on function public.take_plan_change_slot(uuid) to service_role;
