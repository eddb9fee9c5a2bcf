-- Community: groups, memberships, chat messages, user blocks and reports.
-- Public groups are listed to signed-in users, private ones to their members; members read and
-- write messages; users edit and delete only their own messages; a blocker no longer sees the
-- blocked user's messages. Banned users read and write nothing here.

create table public.groups (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name, E' \t\r\n\f\v')) between 3 and 50),
  description text check (description is null or char_length(description) <= 200),
  is_public boolean not null default true,
  invite_code uuid not null unique default gen_random_uuid(),
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now()
);
comment on table public.groups is 'Community groups; private ones are joined with an invite code.';
create index groups_created_by_idx on public.groups (created_by);

create table public.group_members (
  id uuid primary key default gen_random_uuid(),
  group_id uuid not null references public.groups (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  role public.group_role not null default 'member',
  joined_at timestamptz not null default now(),
  unique (group_id, user_id)
);
comment on table public.group_members is 'Who belongs to which group, and as what.';
create index group_members_user_idx on public.group_members (user_id);

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  group_id uuid not null references public.groups (id) on delete cascade,
  sender_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  content text not null check (char_length(content) between 1 and 2000 and content ~ '\S'),
  attachment_type public.attachment_type not null default 'none',
  attachment_url text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint messages_attachment_consistent check (
    (attachment_type = 'none' and attachment_url is null)
    or (attachment_type = 'gif' and attachment_url is not null and attachment_url ~ '^https?://')
  )
);
comment on table public.messages is 'Group chat messages (text, optionally one GIF).';
create index messages_group_created_idx on public.messages (group_id, created_at);
create index messages_sender_idx on public.messages (sender_id);

create table public.user_blocks (
  id uuid primary key default gen_random_uuid(),
  blocker_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  blocked_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  unique (blocker_id, blocked_id),
  check (blocker_id <> blocked_id)
);
comment on table public.user_blocks is 'A user hides another user''s messages from themselves.';
create index user_blocks_blocked_idx on public.user_blocks (blocked_id);

create table public.user_reports (
  id uuid primary key default gen_random_uuid(),
  reporter_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  reported_id uuid not null references public.profiles (id) on delete cascade,
  reason public.report_reason not null,
  description text check (description is null or char_length(description) <= 1000),
  created_at timestamptz not null default now(),
  unique (reporter_id, reported_id, reason),
  check (reporter_id <> reported_id)
);
comment on table public.user_reports is 'Reports of users, reviewed by admins.';
create index user_reports_reported_idx on public.user_reports (reported_id);

alter table public.groups enable row level security;
alter table public.group_members enable row level security;
alter table public.messages enable row level security;
alter table public.user_blocks enable row level security;
alter table public.user_reports enable row level security;

create function private.is_group_member(gid uuid) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (select 1 from public.group_members m where m.group_id = gid and m.user_id = (select auth.uid()))
$$;

create function private.is_group_admin(gid uuid) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (select 1 from public.group_members m
                 where m.group_id = gid and m.user_id = (select auth.uid()) and m.role = 'admin')
$$;

create function private.group_is_public(gid uuid) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select coalesce((select g.is_public from public.groups g where g.id = gid), false)
$$;

revoke execute on all functions in schema private from public;
grant execute on function private.is_group_member(uuid), private.is_group_admin(uuid),
  private.group_is_public(uuid) to authenticated, service_role;

-- groups
create policy "groups: active users see public groups and their own" on public.groups
  for select to authenticated
  using (
    (select private.is_active_user())
    and (is_public or created_by = (select auth.uid()) or (select private.is_group_member(id)))
  );
create policy "groups: active users create groups" on public.groups
  for insert to authenticated
  with check ((select private.is_active_user()) and created_by = (select auth.uid()));
create policy "groups: group admins update" on public.groups
  for update to authenticated
  using ((select private.is_active_user()) and (select private.is_group_admin(id)));
create policy "groups: group admins delete" on public.groups
  for delete to authenticated
  using ((select private.is_active_user()) and (select private.is_group_admin(id)));
revoke insert, update on public.groups from anon, authenticated;
grant insert (id, name, description, is_public, created_by) on public.groups to authenticated;
grant update (name, description, is_public) on public.groups to authenticated;

-- The creator becomes the group's admin.
create function private.add_group_creator() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if new.created_by is not null then
    insert into public.group_members (group_id, user_id, role) values (new.id, new.created_by, 'admin')
    on conflict (group_id, user_id) do nothing;
  end if;
  return new;
end;
$$;
create trigger groups_add_creator after insert on public.groups
  for each row execute function private.add_group_creator();

-- group_members
create policy "members: members see fellow members" on public.group_members
  for select to authenticated
  using ((select private.is_active_user()) and (user_id = (select auth.uid()) or (select private.is_group_member(group_id))));
create policy "members: users join public groups as members" on public.group_members
  for insert to authenticated
  with check (
    (select private.is_active_user()) and user_id = (select auth.uid()) and role = 'member'
    and (select private.group_is_public(group_id))
  );
create policy "members: users leave, group admins remove" on public.group_members
  for delete to authenticated
  using ((select private.is_active_user()) and (user_id = (select auth.uid()) or (select private.is_group_admin(group_id))));
create policy "members: group admins change roles" on public.group_members
  for update to authenticated
  using ((select private.is_active_user()) and (select private.is_group_admin(group_id)));
revoke insert, update on public.group_members from anon, authenticated;
grant insert (id, group_id, user_id, role) on public.group_members to authenticated;
grant update (role) on public.group_members to authenticated;

-- Join a private (or public) group with its invite code.
create function public.join_group_by_invite(code uuid) returns uuid
  language plpgsql security definer
  set search_path = ''
as $$
declare
  gid uuid;
begin
  if not private.is_active_user() then
    raise exception 'Your account cannot join groups' using errcode = 'PT403';
  end if;
  select g.id into gid from public.groups g where g.invite_code = code;
  if gid is null then
    raise exception 'Invite code not found' using errcode = 'PT404';
  end if;
  insert into public.group_members (group_id, user_id) values (gid, (select auth.uid()))
  on conflict (group_id, user_id) do nothing;
  return gid;
end;
$$;
revoke execute on function public.join_group_by_invite(uuid) from public, anon;
grant execute on function public.join_group_by_invite(uuid) to authenticated;

-- messages
create policy "messages: members read, minus users they blocked" on public.messages
  for select to authenticated
  using (
    (select private.is_active_user()) and (select private.is_group_member(group_id))
    and not exists (select 1 from public.user_blocks b
                    where b.blocker_id = (select auth.uid()) and b.blocked_id = messages.sender_id)
  );
create policy "messages: members write as themselves" on public.messages
  for insert to authenticated
  with check (
    (select private.is_active_user()) and sender_id = (select auth.uid())
    and (select private.is_group_member(group_id))
  );
create policy "messages: senders edit their own" on public.messages
  for update to authenticated
  using ((select private.is_active_user()) and sender_id = (select auth.uid()))
  with check (sender_id = (select auth.uid()));
create policy "messages: senders delete their own" on public.messages
  for delete to authenticated
  using ((select private.is_active_user()) and sender_id = (select auth.uid()));
revoke insert, update on public.messages from anon, authenticated;
grant insert (id, group_id, sender_id, content, attachment_type, attachment_url) on public.messages to authenticated;
grant update (content) on public.messages to authenticated;

create trigger messages_touch_updated_at before update on public.messages
  for each row execute function private.touch_updated_at();

-- user_blocks
create policy "blocks: users see their own blocks" on public.user_blocks
  for select to authenticated using ((select private.is_active_user()) and blocker_id = (select auth.uid()));
create policy "blocks: users block others" on public.user_blocks
  for insert to authenticated with check ((select private.is_active_user()) and blocker_id = (select auth.uid()));
create policy "blocks: users unblock" on public.user_blocks
  for delete to authenticated using ((select private.is_active_user()) and blocker_id = (select auth.uid()));
revoke insert, update on public.user_blocks from anon, authenticated;
grant insert (id, blocker_id, blocked_id) on public.user_blocks to authenticated;

-- user_reports
create policy "reports: reporters and admins read" on public.user_reports
  for select to authenticated
  using ((select private.is_admin()) or ((select private.is_active_user()) and reporter_id = (select auth.uid())));
create policy "reports: users report others" on public.user_reports
  for insert to authenticated with check ((select private.is_active_user()) and reporter_id = (select auth.uid()));
create policy "reports: admins delete" on public.user_reports
  for delete to authenticated using ((select private.is_admin()));
revoke insert, update on public.user_reports from anon, authenticated;
grant insert (id, reporter_id, reported_id, reason, description) on public.user_reports to authenticated;
