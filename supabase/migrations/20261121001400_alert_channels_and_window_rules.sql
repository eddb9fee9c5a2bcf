-- Plan rules on public.profiles, second pass (decision 0005, "Alert channels and the window"):
--   - Discord and Telegram alerts are enterprise features (specification section 6: "Enterprise
--     adds personalized alerts (Discord, Telegram)"), like e-mail alerts: refused below
--     enterprise and cleared when the plan changes to another one.
--   - The time window control is disabled while the subscription is inactive (section 5): a user
--     whose subscription is inactive cannot change the window (a plan change by the billing
--     webhook or an admin still moves it to the new plan's fallback).
-- Every refusal is SQLSTATE 23514 (HTTP 400) with an English message for API callers and a
-- stable code in DETAIL that the SPA translates:
--   window_not_offered (HINT lists the allowed windows), window_needs_active_subscription,
--   email_alert_enterprise_only, chat_alerts_enterprise_only.
create or replace function private.enforce_plan_rules() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.plan is distinct from old.plan then
    if not (new.selected_window_minutes = any (public.allowed_windows(new.plan))) then
      new.selected_window_minutes := public.fallback_window(new.plan);
    end if;
    if new.plan <> 'enterprise' then
      new.email_alert := null;
      new.discord_webhook_url := null;
      new.telegram_chat_id := null;
    end if;
  elsif tg_op = 'UPDATE'
        and new.selected_window_minutes is distinct from old.selected_window_minutes
        and not new.subscription_active
        and new.id = (select auth.uid()) then
    raise exception 'An active subscription is required to change the time window'
      using errcode = '23514', detail = 'window_needs_active_subscription';
  end if;
  if not (new.selected_window_minutes = any (public.allowed_windows(new.plan))) then
    raise exception 'The % plan does not offer a % minute window', new.plan, new.selected_window_minutes
      using errcode = '23514', detail = 'window_not_offered',
            hint = 'Allowed windows: ' || array_to_string(public.allowed_windows(new.plan), ', ');
  end if;
  if new.plan <> 'enterprise' and coalesce(new.email_alert, '') <> '' then
    raise exception 'E-mail alerts are available on the enterprise plan only'
      using errcode = '23514', detail = 'email_alert_enterprise_only';
  end if;
  if new.plan <> 'enterprise'
     and (coalesce(new.discord_webhook_url, '') <> '' or coalesce(new.telegram_chat_id, '') <> '') then
    raise exception 'Discord and Telegram alerts are available on the enterprise plan only'
      using errcode = '23514', detail = 'chat_alerts_enterprise_only';
  end if;
  if new.email_alert = '' then
    new.email_alert := null;
  end if;
  if new.discord_webhook_url = '' then
    new.discord_webhook_url := null;
  end if;
  if new.telegram_chat_id = '' then
    new.telegram_chat_id := null;
  end if;
  if new.banned and not coalesce(old.banned, false) then
    new.banned_at := coalesce(new.banned_at, now());
  elsif not new.banned then
    new.banned_reason := null;
    new.banned_at := null;
  end if;
  return new;
end;
$$;

-- Accounts below enterprise that already hold a Discord or Telegram target lose it now, as a
-- plan change would remove it.
update public.profiles set discord_webhook_url = null, telegram_chat_id = null
where plan <> 'enterprise' and (discord_webhook_url is not null or telegram_chat_id is not null);
