-- Chat GIF uploads get a per-user write limit like the other social writes (issue 30, decision
-- 0040): an upload first reserves its object name through `public.reserve_chat_gif(group)`, which
-- counts the write (429 with Retry-After past the limit, through PostgREST) and returns the name;
-- the chat-gifs bucket's insert policy accepts only a name the caller reserved in the last
-- 10 minutes. So the limit holds for the chat-gif function, /api and a client that talks to
-- Storage directly alike: no reservation, no upload.
--
--   kind         per    user           admin
--   gif_upload   user   20 / 10 min    100 / 10 min

alter table private.write_events drop constraint write_events_kind_check;
alter table private.write_events add constraint write_events_kind_check
  check (kind in ('chat_message', 'group_create', 'report', 'ticket_create', 'ticket_reply', 'gif_upload'));

create or replace function private.write_limit(kind text, admin boolean, out max_writes integer, out window_seconds integer)
  language sql immutable
  set search_path = ''
as $$
  select case kind
           when 'chat_message' then case when admin then 30 else 10 end
           when 'group_create' then case when admin then 100 else 10 end
           when 'report' then case when admin then 200 else 20 end
           when 'ticket_create' then case when admin then 100 else 10 end
           when 'ticket_reply' then case when admin then 120 else 20 end
           when 'gif_upload' then case when admin then 100 else 20 end
         end,
         case kind
           when 'chat_message' then 10
           when 'group_create' then 3600
           when 'report' then 3600
           when 'ticket_create' then 3600
           when 'ticket_reply' then 60
           when 'gif_upload' then 600
         end
$$;

create or replace function private.count_write(kind text, scope uuid default null) returns void
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
      when 'gif_upload' then 'You''re uploading GIFs too fast'
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

-- Object names reserved for an upload: kept 10 minutes (pruned by every reservation).
create table private.chat_gif_reservations (
  name text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default clock_timestamp()
);
comment on table private.chat_gif_reservations is 'Chat GIF object names reserved by reserve_chat_gif; the bucket accepts an upload only under a name its uploader reserved in the last 10 minutes.';
create index chat_gif_reservations_created_idx on private.chat_gif_reservations (created_at);
alter table private.chat_gif_reservations enable row level security;
revoke all on private.chat_gif_reservations from anon, authenticated;

-- Reserves the name of one GIF upload into `group_id` for the caller, counting it against the
-- caller's GIF upload limit: `<group>/<caller>/<uuid>.gif`. Errors: 42501 without a session or
-- for a banned user or a non-member, and the write limit's PGRST 429.
create function public.reserve_chat_gif(group_id uuid) returns text
  language plpgsql security definer
  set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
  object_name text;
begin
  if uid is null or not private.is_active_user() then
    raise exception 'Please log in again.' using errcode = '42501';
  end if;
  if not private.is_group_member(reserve_chat_gif.group_id) then
    raise exception 'Only members of this group can send GIFs to it.' using errcode = '42501';
  end if;
  perform private.count_write('gif_upload');
  delete from private.chat_gif_reservations r
  where r.created_at < clock_timestamp() - interval '10 minutes';
  object_name := reserve_chat_gif.group_id::text || '/' || uid::text || '/' || gen_random_uuid()::text || '.gif';
  insert into private.chat_gif_reservations (name, user_id) values (object_name, uid);
  return object_name;
end;
$$;
revoke execute on function public.reserve_chat_gif(uuid) from public, anon;
grant execute on function public.reserve_chat_gif(uuid) to authenticated;

-- Whether the caller reserved this object name within the last 10 minutes.
create function private.chat_gif_reserved(object_name text) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (
    select 1 from private.chat_gif_reservations r
    where r.name = object_name
      and r.user_id = (select auth.uid())
      and r.created_at > clock_timestamp() - interval '10 minutes'
  )
$$;
revoke execute on function private.chat_gif_reserved(text) from public, anon;
grant execute on function private.chat_gif_reserved(text) to authenticated;

drop policy "chat-gifs: members upload into their own folder of the group" on storage.objects;
create policy "chat-gifs: members upload reserved names into their own folder of the group" on storage.objects
  for insert to authenticated
  with check (
    bucket_id = 'chat-gifs'
    and (select private.is_active_user())
    and private.chat_gif_group(name) is not null
    and split_part(name, '/', 2) = (select auth.uid())::text
    and private.is_group_member(private.chat_gif_group(name))
    and private.chat_gif_reserved(name)
  );
