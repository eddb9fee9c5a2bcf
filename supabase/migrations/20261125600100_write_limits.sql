-- Per-user limits on social writes (issue 30, decision 0040): chat messages, group creation,
-- reports, tickets and ticket replies are counted per user in private.write_events by a before
-- insert trigger; past the limit the insert is refused with HTTP 429 and `Retry-After` through
-- PostgREST's RAISE SQLSTATE 'PGRST' contract:
--   message = {"code":"PT429","message":"…","details":"retry-after=N","hint":"…"}
--   detail  = {"status":429,"headers":{"Retry-After":"N"}}
-- Admins have higher limits but are not exempt. Writes without a signed-in user (the service
-- role, migrations, seeds) are not counted.
--
--   kind           per               user          admin
--   chat_message   user and group    10 / 10 s     30 / 10 s
--   group_create   user              10 / hour     100 / hour
--   report         user              20 / hour     200 / hour
--   ticket_create  user              10 / hour     100 / hour
--   ticket_reply   user              20 / minute   120 / minute
--
-- The table prunes itself: each count first drops the caller's events of that kind that have left
-- the window, so it holds at most one window's writes per user, kind and group.

create table private.write_events (
  user_id uuid not null,
  kind text not null check (kind in ('chat_message', 'group_create', 'report', 'ticket_create', 'ticket_reply')),
  scope uuid,
  at timestamptz not null default clock_timestamp()
);
comment on table private.write_events is 'Recent social writes per user, counted by the write limits (only the current window is kept).';
create index write_events_user_kind_idx on private.write_events (user_id, kind, scope, at desc);
alter table private.write_events enable row level security;
revoke all on private.write_events from anon, authenticated;

-- The limit for a kind: how many writes in what window, for an admin or a user.
create function private.write_limit(kind text, admin boolean, out max_writes integer, out window_seconds integer)
  language sql immutable
  set search_path = ''
as $$
  select case kind
           when 'chat_message' then case when admin then 30 else 10 end
           when 'group_create' then case when admin then 100 else 10 end
           when 'report' then case when admin then 200 else 20 end
           when 'ticket_create' then case when admin then 100 else 10 end
           when 'ticket_reply' then case when admin then 120 else 20 end
         end,
         case kind
           when 'chat_message' then 10
           when 'group_create' then 3600
           when 'report' then 3600
           when 'ticket_create' then 3600
           when 'ticket_reply' then 60
         end
$$;
revoke execute on function private.write_limit(text, boolean) from public, anon, authenticated;

-- Counts one write of `kind` (in `scope`) for the caller, or refuses it with 429 past the limit.
create function private.count_write(kind text, scope uuid default null) returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
  lim record;
  recent integer;
  oldest timestamptz;
  wait_s integer;
  what text;
begin
  if uid is null then
    return;
  end if;
  select * into lim from private.write_limit(kind, private.is_admin());
  -- One writer per user and kind at a time, so two parallel inserts cannot both take the last slot.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext(uid::text || '/' || kind));
  delete from private.write_events e
  where e.user_id = uid and e.kind = count_write.kind
    and e.at <= clock_timestamp() - pg_catalog.make_interval(secs => lim.window_seconds);
  select count(*), min(e.at) into recent, oldest
  from (select e.at from private.write_events e
        where e.user_id = uid and e.kind = count_write.kind
          and e.scope is not distinct from count_write.scope
          and e.at > clock_timestamp() - pg_catalog.make_interval(secs => lim.window_seconds)
        order by e.at desc
        limit lim.max_writes) e;
  if recent >= lim.max_writes then
    wait_s := greatest(1, ceil(extract(epoch from
      oldest + pg_catalog.make_interval(secs => lim.window_seconds) - clock_timestamp()))::integer);
    what := case kind
      when 'chat_message' then 'You''re sending messages too fast'
      when 'group_create' then 'You''re creating groups too fast'
      when 'report' then 'You''re sending reports too fast'
      when 'ticket_create' then 'You''re opening tickets too fast'
      else 'You''re replying too fast' end;
    raise sqlstate 'PGRST' using
      message = pg_catalog.json_build_object(
        'code', 'PT429',
        'message', what || ' — try again in ' || wait_s || ' s',
        'details', 'retry-after=' || wait_s,
        'hint', kind)::text,
      detail = pg_catalog.json_build_object(
        'status', 429,
        'headers', pg_catalog.json_build_object('Retry-After', wait_s::text))::text;
  end if;
  insert into private.write_events (user_id, kind, scope) values (uid, kind, scope);
end;
$$;
revoke execute on function private.count_write(text, uuid) from public, anon, authenticated;

create function private.limit_social_write() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  case tg_table_name
    when 'messages' then perform private.count_write('chat_message', new.group_id);
    when 'groups' then perform private.count_write('group_create');
    when 'user_reports' then perform private.count_write('report');
    when 'support_tickets' then perform private.count_write('ticket_create');
    when 'ticket_messages' then perform private.count_write('ticket_reply');
  end case;
  return new;
end;
$$;
revoke execute on function private.limit_social_write() from public, anon, authenticated;

create trigger messages_write_limit before insert on public.messages
  for each row execute function private.limit_social_write();
create trigger groups_write_limit before insert on public.groups
  for each row execute function private.limit_social_write();
create trigger user_reports_write_limit before insert on public.user_reports
  for each row execute function private.limit_social_write();
create trigger support_tickets_write_limit before insert on public.support_tickets
  for each row execute function private.limit_social_write();
create trigger ticket_messages_write_limit before insert on public.ticket_messages
  for each row execute function private.limit_social_write();
