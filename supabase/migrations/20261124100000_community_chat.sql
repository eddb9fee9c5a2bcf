-- Community chat (issue 15, decision 0021): what the groups and chat screens need on top of
-- migration 20261121000400.
--
-- 1. Who: any signed-in, non-banned user (private.is_active_user), not only enterprise
--    subscribers; the policies of 20261121000400 already say so and stay.
-- 2. Moderation: a group's admins (its creator, and whom they promote) may delete any message
--    of their group; removing members was already theirs. A removed member's Realtime join is
--    re-checked at once (migration 20261123100000).
-- 3. Reading: group_messages() pages a group's history newest first by the cursor
--    (created_at, id), with each sender's public face (name, avatar, plan badge), for members
--    only and without the senders the caller blocked. group_member_profiles() gives the same
--    face for a group's members (live messages, presence, the member list). list_groups()
--    gives the caller's groups and the public ones with their member counts. blocked_users()
--    lists the caller's blocks with names, for lifting them from the profile.
--    Other users' e-mail addresses are never returned: a sender without a username is named by
--    the part of their address before the "@".
-- 4. Presence: members may track presence (online, typing) on group:<id>; there is still no
--    client broadcast, so nobody can forge a message event.
-- 5. GIFs: the private Storage bucket chat-gifs, GIF only, at most 2 MB per object, objects at
--    <group id>/<sender id>/<uuid>.gif. Members of the group read (signed URLs are created
--    from that right), only the sender writes and deletes, nobody overwrites.

-- 2. Moderation ------------------------------------------------------------------------------

drop policy "messages: senders delete their own" on public.messages;
create policy "messages: senders delete their own, group admins any of the group" on public.messages
  for delete to authenticated
  using (
    (select private.is_active_user())
    and (sender_id = (select auth.uid()) or (select private.is_group_admin(group_id)))
  );

-- Pages run on (group_id, created_at desc, id desc); the old index has no id.
create index messages_group_created_id_idx on public.messages (group_id, created_at desc, id desc);
drop index public.messages_group_created_idx;
create index user_blocks_blocker_idx on public.user_blocks (blocker_id, blocked_id);

-- 3. Reading ---------------------------------------------------------------------------------

-- A user's name as others see it: the username, else the e-mail's local part.
create function private.public_name(p public.profiles) returns text
  language sql immutable
  set search_path = ''
as $$
  select coalesce(p.username, nullif(split_part(p.email, '@', 1), ''))
$$;

-- The plan badge others see: the plan while the subscription is active and the user not banned.
create function private.public_plan(p public.profiles) returns public.plan
  language sql immutable
  set search_path = ''
as $$
  select case when p.subscription_active and not p.banned then p.plan else 'none'::public.plan end
$$;

revoke execute on function private.public_name(public.profiles), private.public_plan(public.profiles)
  from public, anon, authenticated;

create function public.group_messages(
  p_group_id uuid,
  p_before_created_at timestamptz default null,
  p_before_id uuid default null,
  p_after_created_at timestamptz default null,
  p_after_id uuid default null,
  p_limit integer default 50
) returns table (
  id uuid,
  group_id uuid,
  sender_id uuid,
  content text,
  attachment_type public.attachment_type,
  attachment_url text,
  created_at timestamptz,
  updated_at timestamptz,
  sender_name text,
  sender_avatar_url text,
  sender_plan public.plan
)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  if not private.is_active_user() then
    raise exception 'Your account cannot read group chats' using errcode = 'PT403';
  end if;
  if not private.is_group_member(p_group_id) then
    raise exception 'You are not a member of this group' using errcode = 'PT403', detail = 'not_a_member';
  end if;
  if p_limit is null or p_limit < 1 or p_limit > 200 then
    raise exception 'p_limit must be between 1 and 200' using errcode = '22023';
  end if;
  if (p_before_created_at is null) <> (p_before_id is null)
     or (p_after_created_at is null) <> (p_after_id is null) then
    raise exception 'A cursor needs both created_at and id' using errcode = '22023';
  end if;

  -- Newest first; with an "after" cursor (catching up after a reconnect), oldest first so
  -- that pages follow each other without a gap.
  return query
    select m.id, m.group_id, m.sender_id, m.content, m.attachment_type, m.attachment_url,
           m.created_at, m.updated_at,
           private.public_name(p), p.avatar_url, private.public_plan(p)
    from public.messages m
    join public.profiles p on p.id = m.sender_id
    where m.group_id = p_group_id
      and (p_before_created_at is null or (m.created_at, m.id) < (p_before_created_at, p_before_id))
      and (p_after_created_at is null or (m.created_at, m.id) > (p_after_created_at, p_after_id))
      and not exists (select 1 from public.user_blocks b
                      where b.blocker_id = (select auth.uid()) and b.blocked_id = m.sender_id)
    order by
      case when p_after_created_at is null then m.created_at end desc,
      case when p_after_created_at is null then m.id end desc,
      m.created_at asc, m.id asc
    limit p_limit;
end;
$$;
comment on function public.group_messages(uuid, timestamptz, uuid, timestamptz, uuid, integer) is
  'A page of a group''s messages with their senders'' public names, avatars and plans; members only, blocked senders left out.';

create function public.group_member_profiles(p_group_id uuid) returns table (
  user_id uuid,
  role public.group_role,
  joined_at timestamptz,
  name text,
  avatar_url text,
  plan public.plan
)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  if not private.is_active_user() or not private.is_group_member(p_group_id) then
    raise exception 'You are not a member of this group' using errcode = 'PT403', detail = 'not_a_member';
  end if;
  return query
    select m.user_id, m.role, m.joined_at, private.public_name(p), p.avatar_url, private.public_plan(p)
    from public.group_members m
    join public.profiles p on p.id = m.user_id
    where m.group_id = p_group_id
    order by m.role, m.joined_at, m.user_id;
end;
$$;
comment on function public.group_member_profiles(uuid) is
  'The members of a group with their public names, avatars and plans; members only.';

create function public.list_groups() returns table (
  id uuid,
  name text,
  description text,
  is_public boolean,
  created_at timestamptz,
  member_count integer,
  my_role public.group_role,
  invite_code uuid
)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  if not private.is_active_user() then
    raise exception 'Your account cannot use groups' using errcode = 'PT403';
  end if;
  return query
    select g.id, g.name, g.description, g.is_public, g.created_at,
           (select count(*)::integer from public.group_members c where c.group_id = g.id),
           mine.role,
           case when mine.role is not null then g.invite_code end
    from public.groups g
    left join public.group_members mine on mine.group_id = g.id and mine.user_id = (select auth.uid())
    where g.is_public or mine.role is not null
    order by g.created_at desc, g.id;
end;
$$;
comment on function public.list_groups() is
  'The caller''s groups and the public groups, with member counts; the invite code only for members.';

create function public.blocked_users() returns table (
  blocked_id uuid,
  name text,
  avatar_url text,
  created_at timestamptz
)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  if not private.is_active_user() then
    raise exception 'Your account cannot manage blocks' using errcode = 'PT403';
  end if;
  return query
    select b.blocked_id, private.public_name(p), p.avatar_url, b.created_at
    from public.user_blocks b
    join public.profiles p on p.id = b.blocked_id
    where b.blocker_id = (select auth.uid())
    order by b.created_at desc, b.blocked_id;
end;
$$;
comment on function public.blocked_users() is 'The users the caller blocked, with their public names.';

revoke execute on function public.group_messages(uuid, timestamptz, uuid, timestamptz, uuid, integer),
  public.group_member_profiles(uuid), public.list_groups(), public.blocked_users() from public, anon;
grant execute on function public.group_messages(uuid, timestamptz, uuid, timestamptz, uuid, integer),
  public.group_member_profiles(uuid), public.list_groups(), public.blocked_users() to authenticated;

-- 4. Presence --------------------------------------------------------------------------------

create policy "realtime: group members track presence" on realtime.messages
  for insert to authenticated
  with check (
    extension = 'presence'
    and (select realtime.topic()) ~ '^group:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
    and (select private.is_active_user())
    and (select private.is_group_member(
      case when realtime.topic() ~ '^group:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
        then substr(realtime.topic(), 7)::uuid end))
  );

-- 5. GIFs ------------------------------------------------------------------------------------

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('chat-gifs', 'chat-gifs', false, 2097152, array['image/gif'])
on conflict (id) do update
  set public = excluded.public, file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- The group of a chat-gifs object name `<group>/<sender>/<uuid>.gif`, else null.
create function private.chat_gif_group(object_name text) returns uuid
  language sql immutable
  set search_path = ''
as $$
  select case
    when object_name ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.gif$'
    then split_part(object_name, '/', 1)::uuid
  end
$$;
revoke execute on function private.chat_gif_group(text) from public, anon;
grant execute on function private.chat_gif_group(text) to authenticated, service_role;

-- One permissive policy per table, command and role: the avatars bucket's select and delete
-- policies (20261123100100, 20261121000000) become one per command covering both buckets,
-- their avatars branch unchanged.
drop policy "avatars: users read their own folder" on storage.objects;
drop policy "avatars: users delete their files" on storage.objects;

create policy "storage: own avatar folder, chat GIFs of the caller's groups" on storage.objects
  for select to authenticated
  using (
    case bucket_id
      when 'avatars' then (storage.foldername(name))[1] = (select auth.uid())::text
      when 'chat-gifs' then
        (select private.is_active_user())
        and private.is_group_member(private.chat_gif_group(name))
      else false
    end
  );
create policy "chat-gifs: members upload into their own folder of the group" on storage.objects
  for insert to authenticated
  with check (
    bucket_id = 'chat-gifs'
    and (select private.is_active_user())
    and private.chat_gif_group(name) is not null
    and split_part(name, '/', 2) = (select auth.uid())::text
    and private.is_group_member(private.chat_gif_group(name))
  );
create policy "storage: own avatar files, own chat GIFs" on storage.objects
  for delete to authenticated
  using (
    case bucket_id
      when 'avatars' then (storage.foldername(name))[1] = (select auth.uid())::text
      when 'chat-gifs' then
        (select private.is_active_user())
        and private.chat_gif_group(name) is not null
        and split_part(name, '/', 2) = (select auth.uid())::text
      else false
    end
  );
