-- Administration and billing: activity logs, sent alerts, Stripe state (written only by the
-- service role), admin RPCs that check the caller and log every action with its IP address,
-- and the rate-limited admin self-promotion.

create table public.activity_logs (
  id uuid primary key default gen_random_uuid(),
  admin_id uuid references public.profiles (id) on delete set null,
  action text not null check (char_length(action) between 1 and 64),
  target_user_id uuid,
  target_user_email text,
  details text,
  ip_address inet,
  created_at timestamptz not null default now()
);
comment on table public.activity_logs is 'Every admin action: who, what, on whom, from where.';
create index activity_logs_created_idx on public.activity_logs (created_at desc);
create index activity_logs_admin_idx on public.activity_logs (admin_id);

create table public.alerts_sent (
  id uuid primary key default gen_random_uuid(),
  symbol text not null,
  exchange text not null,
  pct numeric not null,
  price numeric not null check (price >= 0),
  ts timestamptz not null,
  recipient text not null,
  hash text not null unique,
  created_at timestamptz not null default now()
);
comment on table public.alerts_sent is 'Alerts delivered to users; the hash makes each delivery unique.';
create index alerts_sent_created_idx on public.alerts_sent (created_at desc);

create table public.billing_customers (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  stripe_customer_id text not null unique,
  created_at timestamptz not null default now()
);
comment on table public.billing_customers is 'One Stripe customer per user.';

create table public.billing_subscriptions (
  id text primary key,
  user_id uuid not null references public.profiles (id) on delete cascade,
  stripe_customer_id text not null,
  price_id text,
  plan public.plan not null,
  status text not null,
  current_period_end timestamptz,
  cancel_at_period_end boolean not null default false,
  stripe_updated_at timestamptz,
  updated_at timestamptz not null default now()
);
comment on table public.billing_subscriptions is 'Stripe subscriptions as last reported by Stripe.';
create index billing_subscriptions_user_idx on public.billing_subscriptions (user_id);

create table public.billing_events (
  id text primary key,
  type text not null,
  received_at timestamptz not null default now()
);
comment on table public.billing_events is 'Processed Stripe webhook events (idempotency).';

alter table public.activity_logs enable row level security;
alter table public.alerts_sent enable row level security;
alter table public.billing_customers enable row level security;
alter table public.billing_subscriptions enable row level security;
alter table public.billing_events enable row level security;

revoke insert, update, delete on public.activity_logs, public.alerts_sent, public.billing_customers,
  public.billing_subscriptions, public.billing_events from anon, authenticated;
revoke select on public.billing_events from anon, authenticated;

create policy "activity logs: admins read" on public.activity_logs
  for select to authenticated using ((select private.is_admin()));
create policy "alerts: admins read" on public.alerts_sent
  for select to authenticated using ((select private.is_admin()));
create policy "billing customers: users read their own" on public.billing_customers
  for select to authenticated using ((select private.is_active_user()) and user_id = (select auth.uid()));
create policy "billing subscriptions: users read their own" on public.billing_subscriptions
  for select to authenticated using ((select private.is_active_user()) and user_id = (select auth.uid()));

-- Server-side settings (admin secret, ...), never exposed through the API.
create table private.app_settings (
  key text primary key,
  value text not null,
  updated_at timestamptz not null default now()
);
comment on table private.app_settings is 'Server-side secrets and settings; not reachable through the Data API.';
alter table private.app_settings enable row level security;
revoke all on private.app_settings from anon, authenticated;

create table private.promotion_attempts (
  id bigint generated always as identity primary key,
  user_id uuid not null,
  succeeded boolean not null,
  attempted_at timestamptz not null default now()
);
create index promotion_attempts_user_idx on private.promotion_attempts (user_id, attempted_at desc);
alter table private.promotion_attempts enable row level security;
revoke all on private.promotion_attempts from anon, authenticated;

-- The caller's IP as the API gateway reports it (first X-Forwarded-For entry).
create function private.request_ip() returns inet
  language plpgsql stable
  set search_path = ''
as $$
declare
  raw text := nullif(btrim(split_part(coalesce(
    current_setting('request.headers', true)::json ->> 'x-forwarded-for',
    current_setting('request.headers', true)::json ->> 'x-real-ip', ''), ',', 1)), '');
begin
  return raw::inet;
exception when others then
  return null;
end;
$$;

create function private.require_admin() returns uuid
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Admin access required' using errcode = 'PT403';
  end if;
  return (select auth.uid());
end;
$$;

create function private.log_admin_action(action text, target uuid, details text) returns void
  language plpgsql security definer
  set search_path = ''
as $$
begin
  insert into public.activity_logs (admin_id, action, target_user_id, target_user_email, details, ip_address)
  values ((select auth.uid()), action, target,
          (select p.email from public.profiles p where p.id = target), details, private.request_ip());
end;
$$;

-- The profile an admin action applies to; `change` names a change a banned user may not get.
create function private.target_profile(target uuid, change text default null) returns public.profiles
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  p public.profiles;
begin
  select * into p from public.profiles where id = target;
  if p.id is null then
    raise exception 'User not found' using errcode = 'PT404';
  end if;
  if change is not null and p.banned then
    raise exception 'Unban the user before changing the %', change using errcode = 'PT409';
  end if;
  return p;
end;
$$;

revoke execute on all functions in schema private from public;

create function public.admin_set_plan(target uuid, new_plan public.plan) returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  p public.profiles;
begin
  perform private.require_admin();
  p := private.target_profile(target, 'plan');
  update public.profiles set plan = new_plan where id = target;
  perform private.log_admin_action('set_plan', target, format('%s -> %s', p.plan, new_plan));
end;
$$;

create function public.admin_set_subscription(target uuid, active boolean) returns void
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform private.require_admin();
  perform private.target_profile(target, 'subscription');
  update public.profiles set subscription_active = active where id = target;
  perform private.log_admin_action('set_subscription', target, case when active then 'active' else 'inactive' end);
end;
$$;

create function public.admin_ban_user(target uuid, reason text) returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  p public.profiles;
begin
  perform private.require_admin();
  if reason is null or char_length(btrim(reason, E' \t\r\n\f\v')) not between 5 and 500 then
    raise exception 'Ban reason must be at least 5 characters long (500 at most)' using errcode = '23514';
  end if;
  p := private.target_profile(target);
  if p.role = 'admin' then
    raise exception 'Admins cannot be banned' using errcode = 'PT403';
  end if;
  update public.profiles set banned = true, banned_reason = btrim(reason, E' \t\r\n\f\v'), banned_at = now() where id = target;
  perform private.log_admin_action('ban_user', target, btrim(reason));
end;
$$;

create function public.admin_unban_user(target uuid) returns void
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform private.require_admin();
  perform private.target_profile(target);
  update public.profiles set banned = false where id = target;
  perform private.log_admin_action('unban_user', target, null);
end;
$$;

create function public.admin_delete_user(target uuid) returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  p public.profiles;
begin
  perform private.require_admin();
  p := private.target_profile(target);
  if p.role = 'admin' then
    raise exception 'Admins cannot be deleted' using errcode = 'PT403';
  end if;
  perform private.log_admin_action('delete_user', target, p.email);
  delete from auth.users where id = target;
end;
$$;

create function public.admin_set_ticket_status(ticket uuid, new_status public.ticket_status) returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  t public.support_tickets;
begin
  perform private.require_admin();
  select * into t from public.support_tickets where id = ticket;
  if t.id is null then
    raise exception 'Ticket not found' using errcode = 'PT404';
  end if;
  update public.support_tickets set status = new_status where id = ticket;
  perform private.log_admin_action('set_ticket_status', t.user_id,
    format('#%s: %s -> %s', t.ticket_number, t.status, new_status));
end;
$$;

create function public.admin_stats() returns table (
  total_users bigint, active_subscriptions bigint, online_users bigint, recent_signups bigint,
  total_revenue bigint, banned_users bigint
)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    select count(*),
           count(*) filter (where p.subscription_active and p.plan <> 'none' and not p.banned),
           count(*) filter (where p.last_activity_at > now() - interval '5 minutes'),
           count(*) filter (where p.created_at > now() - interval '7 days'),
           coalesce(sum(public.plan_price_eur(p.plan)) filter (where p.subscription_active and not p.banned), 0)::bigint,
           count(*) filter (where p.banned)
    from public.profiles p;
end;
$$;

create function public.admin_live_visitors() returns table (
  id uuid, email text, plan public.plan, last_activity_at timestamptz
)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    select p.id, p.email, p.plan, p.last_activity_at from public.profiles p
    where p.last_activity_at > now() - interval '5 minutes'
    order by p.last_activity_at desc;
end;
$$;

create function public.admin_latest_alerts() returns setof public.alerts_sent
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  perform private.require_admin();
  return query select * from public.alerts_sent a order by a.created_at desc limit 50;
end;
$$;

-- Self-promotion with the shared secret in private.app_settings ('admin_setup_secret').
-- Compared as SHA-256 digests (fixed length, independent of where the inputs differ),
-- limited to 5 attempts per user per 15 minutes, every attempt logged.
create function public.promote_self(secret text) returns public.plan
  language plpgsql security definer
  set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
  stored text;
  recent integer;
  ok boolean;
begin
  if uid is null then
    raise exception 'You must be logged in to use this page.' using errcode = 'PT401';
  end if;
  if not private.is_active_user() then
    raise exception 'Your account cannot be promoted' using errcode = 'PT403';
  end if;
  select s.value into stored from private.app_settings s where s.key = 'admin_setup_secret';
  if coalesce(stored, '') = '' then
    raise exception 'Admin self-promotion is disabled' using errcode = 'PT403';
  end if;
  select count(*) into recent from private.promotion_attempts a
  where a.user_id = uid and not a.succeeded and a.attempted_at > now() - interval '15 minutes';
  if recent >= 5 then
    raise exception 'Too many attempts. Try again in 15 minutes.' using errcode = 'PT429';
  end if;
  ok := extensions.digest(coalesce(secret, ''), 'sha256') = extensions.digest(stored, 'sha256');
  insert into private.promotion_attempts (user_id, succeeded) values (uid, ok);
  insert into public.activity_logs (admin_id, action, target_user_id, target_user_email, details, ip_address)
  values (case when ok then uid end, case when ok then 'promote_self' else 'promote_self_failed' end,
          uid, (select p.email from public.profiles p where p.id = uid), null, private.request_ip());
  if not ok then
    return null;
  end if;
  update public.profiles set role = 'admin', plan = 'enterprise', subscription_active = true where id = uid;
  return 'enterprise'::public.plan;
end;
$$;
comment on function public.promote_self(text) is
  'Returns the new plan on success and null for a wrong secret (so the failed attempt stays recorded).';

revoke execute on function public.admin_set_plan(uuid, public.plan), public.admin_set_subscription(uuid, boolean),
  public.admin_ban_user(uuid, text), public.admin_unban_user(uuid), public.admin_delete_user(uuid),
  public.admin_set_ticket_status(uuid, public.ticket_status), public.admin_stats(), public.admin_live_visitors(),
  public.admin_latest_alerts(), public.promote_self(text) from public, anon;
grant execute on function public.admin_set_plan(uuid, public.plan), public.admin_set_subscription(uuid, boolean),
  public.admin_ban_user(uuid, text), public.admin_unban_user(uuid), public.admin_delete_user(uuid),
  public.admin_set_ticket_status(uuid, public.ticket_status), public.admin_stats(), public.admin_live_visitors(),
  public.admin_latest_alerts(), public.promote_self(text) to authenticated, service_role;

-- TRUNCATE bypasses RLS: no API role needs it.
revoke truncate on all tables in schema public from anon, authenticated;
