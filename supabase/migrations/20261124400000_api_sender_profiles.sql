-- Who wrote a chat message or a ticket reply, for the /api layer's `sender { … }` objects
-- (specification section 3: chat message sender {id, username, email, profilePicture, plan};
-- ticket message sender {username, email, profilePicture}). Profiles are readable only by their
-- owner and by admins (migration 20261121000200), so a member could not see a fellow member's
-- name or avatar. These two functions answer exactly that, and nothing more (decision 0024):
--   group_senders(gid)  for an active member of the group: the group's members and everyone
--                       who still has a message in it;
--   ticket_senders(tid) for the ticket's owner (while not banned) and admins: the owner and
--                       everyone who replied on it.
-- E-mail addresses stay private: a row carries the e-mail only for the caller's own profile, or
-- when the caller is an admin. The plan is the plan shown as a badge: the paid plan while the
-- subscription is active and the account not banned, else 'none'.

create function public.group_senders(gid uuid)
  returns table (id uuid, username text, avatar_url text, plan public.plan, email text)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  if gid is null or not (private.is_active_user() and private.is_group_member(gid)) then
    raise exception 'Join the group to read its messages' using errcode = 'PT403';
  end if;
  return query
    select p.id, p.username, p.avatar_url,
           case when p.subscription_active and not p.banned then p.plan else 'none'::public.plan end,
           case when p.id = (select auth.uid()) or private.is_admin() then p.email end
    from public.profiles p
    where p.id in (select m.user_id from public.group_members m where m.group_id = gid
                   union
                   select g.sender_id from public.messages g where g.group_id = gid);
end;
$$;
comment on function public.group_senders(uuid) is
  'Names, avatars and plan badges of a group''s members and message senders, for its active members; e-mail only for self or admins.';

create function public.ticket_senders(tid uuid)
  returns table (id uuid, username text, avatar_url text, email text, is_admin boolean)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  if tid is null or not (private.is_admin() or (private.is_active_user() and private.owns_ticket(tid))) then
    raise exception 'Ticket not found' using errcode = 'PT404';
  end if;
  return query
    select p.id, p.username, p.avatar_url,
           case when p.id = (select auth.uid()) or private.is_admin() then p.email end,
           p.role = 'admin'
    from public.profiles p
    where p.id in (select t.user_id from public.support_tickets t where t.id = tid
                   union
                   select m.sender_id from public.ticket_messages m where m.ticket_id = tid);
end;
$$;
comment on function public.ticket_senders(uuid) is
  'Names and avatars of a ticket''s owner and repliers, for the owner and admins; e-mail only for self or admins.';

revoke execute on function public.group_senders(uuid), public.ticket_senders(uuid) from public, anon;
grant execute on function public.group_senders(uuid), public.ticket_senders(uuid) to authenticated;
