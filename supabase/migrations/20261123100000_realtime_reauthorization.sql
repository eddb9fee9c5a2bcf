-- Revoked access stops streaming (issue 12, decision 0016).
--
-- Realtime authorises a private channel when it is joined (and when the client pushes a new
-- access token), not per message. So when who may read a topic changes, this migration says so:
--   1. After a change of a profile's plan, subscription_active, banned or role, after a profile
--      is deleted, and after a group_members row is deleted or moved, the affected user's id is
--      sent with realtime.send on the private control topic `system:authorization` (event
--      `authorization_changed`, payload {user_id}). No policy lets a client join that topic.
--      The local Realtime stand-in listens to it and re-runs the join check for that user's
--      open private channels, closing those now refused within the same commit order as the
--      broadcasts. Hosted Realtime ignores it (nobody is subscribed); there the bound is the
--      access token's lifetime (supabase/config.toml, [auth] jwt_expiry).
--   2. A ban ends the user's sessions (auth.sessions, whose refresh tokens cascade), so a banned
--      user cannot refresh an access token: on hosted Supabase open channels close at the
--      latest when the current token expires.

create function private.notify_authorization_changed(target uuid) returns void
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if target is null then
    return;
  end if;
  perform realtime.send(
    jsonb_build_object('user_id', target), 'authorization_changed', 'system:authorization', true
  );
end;
$$;
comment on function private.notify_authorization_changed(uuid) is
  'Tells Realtime that what a user may read changed (control topic system:authorization).';

create function private.profiles_authorization_changed() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform private.notify_authorization_changed(coalesce(new.id, old.id));
  return null;
end;
$$;

create trigger profiles_authorization_changed
  after update of plan, subscription_active, banned, role on public.profiles
  for each row
  when ((old.plan, old.subscription_active, old.banned, old.role)
        is distinct from (new.plan, new.subscription_active, new.banned, new.role))
  execute function private.profiles_authorization_changed();
create trigger profiles_deleted_authorization_changed
  after delete on public.profiles
  for each row execute function private.profiles_authorization_changed();

create function private.group_members_authorization_changed() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform private.notify_authorization_changed(old.user_id);
  return null;
end;
$$;

create trigger group_members_authorization_changed
  after delete on public.group_members
  for each row execute function private.group_members_authorization_changed();
create trigger group_members_moved_authorization_changed
  after update of group_id, user_id on public.group_members
  for each row
  when ((old.group_id, old.user_id) is distinct from (new.group_id, new.user_id))
  execute function private.group_members_authorization_changed();

-- A ban ends every session of the user: refresh tokens die with them (on delete cascade).
create function private.end_banned_user_sessions() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if to_regclass('auth.sessions') is not null then
    execute 'delete from auth.sessions where user_id = $1' using new.id;
  end if;
  return null;
exception
  -- A platform that does not let the migration owner end sessions must not block the ban:
  -- the access token's lifetime still bounds the banned user's access.
  when insufficient_privilege then
    raise warning 'Could not end the sessions of banned user %: %', new.id, sqlerrm;
    return null;
end;
$$;
comment on function private.end_banned_user_sessions() is
  'Signs a banned user out everywhere: deletes their auth sessions (and so their refresh tokens).';

create trigger profiles_ban_ends_sessions
  after update of banned on public.profiles
  for each row when (new.banned and not old.banned)
  execute function private.end_banned_user_sessions();

revoke execute on function private.notify_authorization_changed(uuid),
  private.profiles_authorization_changed(), private.group_members_authorization_changed(),
  private.end_banned_user_sessions() from public, anon, authenticated;
