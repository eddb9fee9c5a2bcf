-- Admin panel (issue 17, decision 0023): the user table at scale, the activity log with filters,
-- community reports with the reported message and the actions on them, and the live signals the
-- panel and the affected users need.
--
--   * admin_list_users: server-side search (e-mail or username, substring, case-insensitive),
--     filters (plan, banned, subscription), sorting and pagination, with the total count.
--     Substring search is served by pg_trgm GIN indexes where the extension is available
--     (PostgreSQL 15, Supabase, PGlite with its contrib bundle); without it the query still
--     works, with a sequential scan.
--   * admin_activity_logs: the audit log filtered by admin, action and target, with the admin's
--     e-mail and the IP address.
--   * user_reports gain the reported message (id and a snapshot of its text taken when the report
--     is filed, so deleting the message keeps the evidence), a review status and who reviewed it;
--     admin_reports lists them, admin_review_report dismisses or resolves one, admin_delete_message
--     deletes a chat message (and resolves the open reports on it). Every action is logged with IP.
--   * Realtime: `user:<id>` (the user alone) receives `profile_changed` when an admin (or billing)
--     changes their plan, subscription, role or ban, so open pages follow without a reload;
--     `admin:visitors` (admins only) receives `activity` when touch_activity records a user's
--     activity (at most once a minute per user), so Live Visitors updates live.

-- pg_trgm for substring search, where the platform ships it.
do $$
begin
  if exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_trgm') then
    create extension if not exists pg_trgm with schema extensions;
  end if;
end;
$$;

do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'pg_trgm') then
    execute 'create index profiles_email_trgm_idx on public.profiles using gin (lower(email) extensions.gin_trgm_ops)';
    execute 'create index profiles_username_trgm_idx on public.profiles using gin (lower(username) extensions.gin_trgm_ops)';
  end if;
end;
$$;
-- Sort orders of the user table (created_at and last_activity_at are indexed already).
create index profiles_email_sort_idx on public.profiles (email, id);
create index profiles_plan_idx on public.profiles (plan);
create index profiles_banned_idx on public.profiles (id) where banned;

-- The user table. `search` matches a substring of the e-mail or the username (case-insensitive;
-- % and _ are literal). Filters are ignored when null. At most 100 rows a page.
create function public.admin_list_users(
  search text default null,
  plan_filter public.plan default null,
  banned_filter boolean default null,
  subscription_filter boolean default null,
  sort_by text default 'created_at',
  sort_desc boolean default true,
  page_size integer default 25,
  page_offset integer default 0
) returns table (
  id uuid, email text, username text, role public.app_role, plan public.plan,
  subscription_active boolean, banned boolean, banned_reason text, created_at timestamptz,
  last_activity_at timestamptz, total_count bigint
)
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  pattern text;
  total bigint;
  conditions text := 'true';
  order_column text;
begin
  perform private.require_admin();
  if page_size is null or page_size not between 1 and 100 then
    raise exception 'page_size must be between 1 and 100' using errcode = '22023';
  end if;
  if page_offset is null or page_offset < 0 then
    raise exception 'page_offset must be 0 or more' using errcode = '22023';
  end if;
  if char_length(search) > 100 then
    raise exception 'The search text is at most 100 characters long' using errcode = '22023';
  end if;
  order_column := case coalesce(sort_by, 'created_at')
    when 'email' then 'p.email'
    when 'created_at' then 'p.created_at'
    when 'last_activity_at' then 'p.last_activity_at'
    when 'plan' then 'p.plan'
  end;
  if order_column is null then
    raise exception 'sort_by must be one of email, created_at, last_activity_at, plan' using errcode = '22023';
  end if;

  pattern := nullif(btrim(coalesce(search, '')), '');
  if pattern is not null then
    pattern := '%' || replace(replace(replace(lower(pattern), '\', '\\'), '%', '\%'), '_', '\_') || '%';
    conditions := conditions || ' and (lower(p.email) like $1 or lower(p.username) like $1)';
  end if;
  if plan_filter is not null then
    conditions := conditions || ' and p.plan = $2';
  end if;
  if banned_filter is not null then
    conditions := conditions || ' and p.banned = $3';
  end if;
  if subscription_filter is not null then
    conditions := conditions || ' and p.subscription_active = $4';
  end if;

  execute format('select count(*) from public.profiles p where %s', conditions)
    into total using pattern, plan_filter, banned_filter, subscription_filter;

  return query execute format(
    'select p.id, p.email, p.username, p.role, p.plan, p.subscription_active, p.banned, p.banned_reason,
            p.created_at, p.last_activity_at, $5::bigint
     from public.profiles p where %s
     order by %s %s nulls last, p.id %s
     limit $6 offset $7',
    conditions, order_column, case when sort_desc then 'desc' else 'asc' end,
    case when sort_desc then 'desc' else 'asc' end)
    using pattern, plan_filter, banned_filter, subscription_filter, total, page_size, page_offset;
end;
$$;
comment on function public.admin_list_users(text, public.plan, boolean, boolean, text, boolean, integer, integer) is
  'Admins: one page of users (search by e-mail or username, filters, sort), each row with the total count.';

-- The audit log, newest first, filtered by the admin's e-mail (substring), the action (exact)
-- and the target's e-mail (substring). At most 1000 rows.
create function public.admin_activity_logs(
  admin_filter text default null,
  action_filter text default null,
  target_filter text default null,
  max_rows integer default 100
) returns table (
  id uuid, action text, admin_id uuid, admin_email text, target_user_id uuid, target_user_email text,
  details text, ip_address text, created_at timestamptz
)
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  admin_pattern text := nullif(btrim(coalesce(admin_filter, '')), '');
  target_pattern text := nullif(btrim(coalesce(target_filter, '')), '');
  wanted_action text := nullif(btrim(coalesce(action_filter, '')), '');
begin
  perform private.require_admin();
  if max_rows is null or max_rows not between 1 and 1000 then
    raise exception 'max_rows must be between 1 and 1000' using errcode = '22023';
  end if;
  if char_length(admin_filter) > 100 or char_length(target_filter) > 100 or char_length(action_filter) > 64 then
    raise exception 'Filters are at most 100 characters long' using errcode = '22023';
  end if;
  admin_pattern := '%' || replace(replace(replace(lower(admin_pattern), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  target_pattern := '%' || replace(replace(replace(lower(target_pattern), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  return query
    select l.id, l.action, l.admin_id, a.email, l.target_user_id, l.target_user_email, l.details,
           host(l.ip_address), l.created_at
    from public.activity_logs l
    left join public.profiles a on a.id = l.admin_id
    where (admin_pattern is null or lower(a.email) like admin_pattern)
      and (wanted_action is null or l.action = wanted_action)
      and (target_pattern is null or lower(l.target_user_email) like target_pattern)
    order by l.created_at desc, l.id desc
    limit max_rows;
end;
$$;
comment on function public.admin_activity_logs(text, text, text, integer) is
  'Admins: the audit log (admin, action, target, details, IP), newest first, filtered.';

-- Reports: the reported message, a snapshot of its text, and the review.
alter table public.user_reports
  add column message_id uuid references public.messages (id) on delete set null,
  add column message_content text,
  add column status text not null default 'open'
    constraint user_reports_status_values check (status in ('open', 'dismissed', 'resolved')),
  add column reviewed_by uuid references public.profiles (id) on delete set null,
  add column reviewed_at timestamptz;
comment on column public.user_reports.message_content is
  'The reported message''s text when the report was filed; kept when the message is deleted.';
create index user_reports_open_idx on public.user_reports (created_at desc) where status = 'open';
create index user_reports_message_idx on public.user_reports (message_id);
grant insert (message_id) on public.user_reports to authenticated;

-- A reported message must be the reported user's and readable by the reporter; its text is kept.
create function private.user_reports_snapshot_message() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  m public.messages;
begin
  new.status := 'open';
  new.reviewed_by := null;
  new.reviewed_at := null;
  new.message_content := null;
  if new.message_id is not null then
    select * into m from public.messages where id = new.message_id;
    if m.id is null or m.sender_id <> new.reported_id
       or not exists (select 1 from public.group_members g
                      where g.group_id = m.group_id and g.user_id = new.reporter_id) then
      raise exception 'The reported message is not one of the reported user''s messages in your groups'
        using errcode = '23514';
    end if;
    new.message_content := m.content;
  end if;
  return new;
end;
$$;
create trigger user_reports_snapshot_message before insert on public.user_reports
  for each row execute function private.user_reports_snapshot_message();

create function public.admin_reports(status_filter text default 'open', max_rows integer default 100)
returns table (
  id uuid, reason public.report_reason, description text, status text, created_at timestamptz,
  reviewed_at timestamptz, reporter_id uuid, reporter_email text, reported_id uuid, reported_email text,
  reported_role public.app_role, reported_banned boolean, message_id uuid, message_content text,
  message_deleted boolean, group_id uuid, group_name text
)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  perform private.require_admin();
  if status_filter is not null and status_filter not in ('open', 'dismissed', 'resolved') then
    raise exception 'status_filter must be open, dismissed, resolved or null (all)' using errcode = '22023';
  end if;
  if max_rows is null or max_rows not between 1 and 500 then
    raise exception 'max_rows must be between 1 and 500' using errcode = '22023';
  end if;
  return query
    select r.id, r.reason, r.description, r.status, r.created_at, r.reviewed_at,
           r.reporter_id, reporter.email, r.reported_id, reported.email, reported.role, reported.banned,
           r.message_id, coalesce(m.content, r.message_content),
           (r.message_content is not null and m.id is null), g.id, g.name
    from public.user_reports r
    join public.profiles reporter on reporter.id = r.reporter_id
    join public.profiles reported on reported.id = r.reported_id
    left join public.messages m on m.id = r.message_id
    left join public.groups g on g.id = m.group_id
    where status_filter is null or r.status = status_filter
    order by r.created_at desc, r.id desc
    limit max_rows;
end;
$$;
comment on function public.admin_reports(text, integer) is
  'Admins: community reports with the reporter, the reported user and the reported message.';

create function public.admin_review_report(report uuid, outcome text) returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  r public.user_reports;
begin
  perform private.require_admin();
  if outcome is null or outcome not in ('dismissed', 'resolved') then
    raise exception 'outcome must be dismissed or resolved' using errcode = '22023';
  end if;
  select * into r from public.user_reports where id = report;
  if r.id is null then
    raise exception 'Report not found' using errcode = 'PT404';
  end if;
  update public.user_reports set status = outcome, reviewed_by = (select auth.uid()), reviewed_at = now()
  where id = report;
  perform private.log_admin_action(case outcome when 'dismissed' then 'dismiss_report' else 'resolve_report' end,
    r.reported_id, format('%s report: %s -> %s', r.reason, r.status, outcome));
end;
$$;

create function public.admin_delete_message(message uuid) returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  m public.messages;
begin
  perform private.require_admin();
  select * into m from public.messages where id = message;
  if m.id is null then
    raise exception 'Message not found' using errcode = 'PT404';
  end if;
  update public.user_reports set status = 'resolved', reviewed_by = (select auth.uid()), reviewed_at = now()
  where message_id = message and status = 'open';
  delete from public.messages where id = message;
  perform private.log_admin_action('delete_message', m.sender_id, left(m.content, 200));
end;
$$;

revoke execute on function public.admin_list_users(text, public.plan, boolean, boolean, text, boolean, integer, integer),
  public.admin_activity_logs(text, text, text, integer), public.admin_reports(text, integer),
  public.admin_review_report(uuid, text), public.admin_delete_message(uuid) from public, anon;
grant execute on function public.admin_list_users(text, public.plan, boolean, boolean, text, boolean, integer, integer),
  public.admin_activity_logs(text, text, text, integer), public.admin_reports(text, integer),
  public.admin_review_report(uuid, text), public.admin_delete_message(uuid) to authenticated, service_role;
revoke execute on function private.user_reports_snapshot_message() from public, anon, authenticated;

-- Realtime: a user's own topic and the admins' visitors topic (broadcast only, no client writes).
create policy "realtime: users receive their own topic, admins the admin topics" on realtime.messages
  for select to authenticated
  using (
    extension = 'broadcast'
    and (
      (select realtime.topic()) = 'user:' || (select auth.uid())::text
      or ((select realtime.topic()) = 'admin:visitors' and (select private.is_admin()))
    )
  );

create function private.broadcast_profile_changed() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform realtime.send(
    jsonb_build_object('plan', new.plan, 'subscription_active', new.subscription_active,
                       'banned', new.banned, 'role', new.role),
    'profile_changed', 'user:' || new.id::text, true);
  return null;
end;
$$;
create trigger profiles_broadcast_changed
  after update of plan, subscription_active, banned, role on public.profiles
  for each row
  when ((old.plan, old.subscription_active, old.banned, old.role)
        is distinct from (new.plan, new.subscription_active, new.banned, new.role))
  execute function private.broadcast_profile_changed();
revoke execute on function private.broadcast_profile_changed() from public, anon, authenticated;

-- Activity heartbeat: at most one write a minute per user; each write tells the admins' panel.
create or replace function public.touch_activity() returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
begin
  update public.profiles set last_activity_at = now()
  where id = uid
    and not banned
    and (last_activity_at is null or last_activity_at < now() - interval '1 minute');
  if found then
    perform realtime.send(jsonb_build_object('user_id', uid), 'activity', 'admin:visitors', true);
  end if;
end;
$$;
revoke execute on function public.touch_activity() from public, anon;
grant execute on function public.touch_activity() to authenticated;
