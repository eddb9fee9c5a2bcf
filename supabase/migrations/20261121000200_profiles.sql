-- Profiles carry every field of the specification's users table except the password hash
-- (Supabase Auth keeps credentials), plus the Discord and Telegram alert channels.
-- Users set only their own preferences; plan, subscription, role, ban fields and activity
-- change only through the service role or the admin RPCs.

alter table public.profiles
  add column plan public.plan not null default 'none',
  add column subscription_active boolean not null default false,
  add column role public.app_role not null default 'user',
  add column banned boolean not null default false,
  add column banned_reason text,
  add column banned_at timestamptz,
  add column selected_window_minutes integer not null default 30,
  add column email_alert text,
  add column user_threshold numeric(5, 1) not null default 10,
  add column selected_exchanges text[] not null default array['coinbase', 'dex', 'cex-major'],
  add column discord_webhook_url text,
  add column telegram_chat_id text,
  add column last_activity_at timestamptz,
  add constraint profiles_window_range check (selected_window_minutes between 0 and 30),
  add constraint profiles_threshold_range check (user_threshold between 1 and 100),
  add constraint profiles_email_alert_format check (
    email_alert is null or email_alert = ''
    or email_alert ~ '^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$'
  ),
  add constraint profiles_selected_exchanges_values check (
    selected_exchanges <@ array['coinbase', 'dex', 'cex-major']
  ),
  add constraint profiles_discord_webhook_format check (
    discord_webhook_url is null or discord_webhook_url = ''
    or discord_webhook_url ~ '^https://(discord\.com|discordapp\.com|ptb\.discord\.com|canary\.discord\.com)/api/webhooks/[0-9]+/[A-Za-z0-9_-]+$'
  ),
  add constraint profiles_telegram_chat_format check (
    telegram_chat_id is null or telegram_chat_id = '' or telegram_chat_id ~ '^(-?[0-9]{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$'
  ),
  add constraint profiles_ban_reason check (
    (banned and banned_reason is not null and char_length(btrim(banned_reason, E' \t\r\n\f\v')) between 5 and 500)
    or (not banned)
  );

create index profiles_last_activity_idx on public.profiles (last_activity_at);
create index profiles_created_at_idx on public.profiles (created_at);

-- Private helpers that policies use. They read the caller's own profile.
create function private.is_admin() returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select coalesce((select p.role = 'admin' and not p.banned from public.profiles p
                   where p.id = (select auth.uid())), false)
$$;

create function private.is_active_user() returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select coalesce((select not p.banned from public.profiles p where p.id = (select auth.uid())), false)
$$;

create function private.has_active_plan() returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select coalesce((select p.plan <> 'none' and p.subscription_active and not p.banned
                   from public.profiles p where p.id = (select auth.uid())), false)
$$;

create function private.current_plan() returns public.plan
  language sql stable security definer
  set search_path = ''
as $$
  select coalesce((select case when p.subscription_active and not p.banned then p.plan else 'none' end
                   from public.profiles p where p.id = (select auth.uid())), 'none')
$$;

grant usage on schema private to anon, authenticated, service_role;
revoke execute on all functions in schema private from public;
grant execute on function private.is_admin(), private.is_active_user(), private.has_active_plan(),
  private.current_plan() to anon, authenticated, service_role;

-- Window and e-mail rules by plan: refuse a window or e-mail the plan does not allow; when
-- the plan changes, coerce the stored window to the plan's fallback and clear e-mail alerts
-- if the new plan has none.
create function private.enforce_plan_rules() returns trigger
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
    end if;
  end if;
  if not (new.selected_window_minutes = any (public.allowed_windows(new.plan))) then
    raise exception 'The % plan does not offer a % minute window', new.plan, new.selected_window_minutes
      using errcode = '23514', hint = 'Allowed windows: ' || array_to_string(public.allowed_windows(new.plan), ', ');
  end if;
  if new.plan <> 'enterprise' and coalesce(new.email_alert, '') <> '' then
    raise exception 'E-mail alerts are available on the enterprise plan only'
      using errcode = '23514';
  end if;
  if new.email_alert = '' then
    new.email_alert := null;
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

create trigger profiles_enforce_plan_rules
  before insert or update on public.profiles
  for each row execute function private.enforce_plan_rules();

-- Column privileges: what a user may set on their own row.
revoke update on public.profiles from authenticated;
grant update (username, avatar_url, selected_window_minutes, email_alert, user_threshold,
  selected_exchanges, discord_webhook_url, telegram_chat_id) on public.profiles to authenticated;

-- Replace the foundation policies: banned users still read their own profile but write nothing;
-- admins read every profile.
drop policy "profiles: users update their own profile" on public.profiles;
create policy "profiles: active users update their own profile" on public.profiles
  for update to authenticated
  using ((select auth.uid()) = id and (select private.is_active_user()))
  with check ((select auth.uid()) = id);
drop policy "profiles: users read their own profile" on public.profiles;
create policy "profiles: users read their own profile, admins every profile" on public.profiles
  for select to authenticated using ((select auth.uid()) = id or (select private.is_admin()));

-- Availability of a username (case-insensitive) without exposing other profiles.
create function public.username_available(candidate text) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select candidate ~ '^[A-Za-z0-9_]{3,30}$'
    and not exists (select 1 from public.profiles p
                    where lower(p.username) = lower(candidate) and p.id <> (select auth.uid()))
$$;
revoke execute on function public.username_available(text) from public, anon;
grant execute on function public.username_available(text) to authenticated;

-- Activity heartbeat: at most one write a minute per user.
create function public.touch_activity() returns void
  language sql security definer
  set search_path = ''
as $$
  update public.profiles set last_activity_at = now()
  where id = (select auth.uid())
    and (last_activity_at is null or last_activity_at < now() - interval '1 minute')
$$;
revoke execute on function public.touch_activity() from public, anon;
grant execute on function public.touch_activity() to authenticated;
