-- Live streams: private Supabase Realtime channels fed by Broadcast from Database
-- (supabase/functions/_shared/domain/realtime.ts holds the contract).
--   group:<group id>         chat changes (INSERT, UPDATE, DELETE of public.messages); members only
--   ticket:<ticket id>       replies (INSERT of public.ticket_messages) and status changes (UPDATE of
--                            public.support_tickets); the ticket's owner and admins only
--   market:movers:<minutes>  a scan's top movers per window (event 'movers'); active subscribers
--                            whose plan offers the window only
-- Realtime authorises a join by selecting probe rows of realtime.messages as the caller with
-- realtime.topic set, so read access is one select policy on realtime.messages. There is no
-- insert policy: no client broadcasts or tracks presence on these topics; writes come only from
-- the security definer functions below.
--
-- The topic is parsed inside the policy, not by helper functions: a policy runs with the caller's
-- rights, so a helper would have to be executable by authenticated, and the API roles may
-- execute only the caller-state and membership helpers of schema private. A malformed topic
-- matches no branch and is refused without an error (the uuid casts sit behind the patterns).

create policy "realtime: members, ticket parties and subscribers receive their topics" on realtime.messages
  for select to authenticated
  using (
    case
      -- group:<uuid>: active members of the group, broadcast and presence.
      when (select realtime.topic()) ~ '^group:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then
        extension in ('broadcast', 'presence')
        and (select private.is_active_user())
        and (select private.is_group_member(
          case when realtime.topic() ~ '^group:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
            then substr(realtime.topic(), 7)::uuid end))
      -- ticket:<uuid>: the ticket's owner while not banned, and admins, broadcast only.
      when (select realtime.topic()) ~ '^ticket:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then
        extension = 'broadcast'
        and (
          (select private.is_admin())
          or (
            (select private.is_active_user())
            and (select private.owns_ticket(
              case when realtime.topic() ~ '^ticket:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
                then substr(realtime.topic(), 8)::uuid end))
          )
        )
      -- market:movers:<minutes>: active subscribers, for the windows of their plan, broadcast only.
      when (select realtime.topic()) like 'market:movers:%' then
        extension = 'broadcast'
        and (select private.has_active_plan())
        and (select realtime.topic() = any (
          select 'market:movers:' || w::text from unnest(public.allowed_windows(private.current_plan())) as w))
      else false
    end
  );

-- Chat: every change of a message goes to its group's topic; the event is the operation.
create function private.broadcast_group_message() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform realtime.broadcast_changes(
    'group:' || coalesce(new.group_id, old.group_id), tg_op, tg_op, tg_table_name, tg_table_schema, new, old
  );
  return null;
end;
$$;
create trigger messages_broadcast after insert or update or delete on public.messages
  for each row execute function private.broadcast_group_message();

-- Ticket thread: every reply goes to its ticket's topic as an INSERT.
create function private.broadcast_ticket_message() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform realtime.broadcast_changes(
    'ticket:' || new.ticket_id, 'INSERT', 'INSERT', tg_table_name, tg_table_schema, new, null
  );
  return null;
end;
$$;
create trigger ticket_messages_broadcast after insert on public.ticket_messages
  for each row execute function private.broadcast_ticket_message();

-- Ticket status: a change of status goes to the ticket's topic as an UPDATE of the ticket row.
create function private.broadcast_ticket_status() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform realtime.broadcast_changes(
    'ticket:' || new.id, 'UPDATE', 'UPDATE', tg_table_name, tg_table_schema, new, old
  );
  return null;
end;
$$;
create trigger support_tickets_broadcast_status after update of status on public.support_tickets
  for each row when (old.status is distinct from new.status)
  execute function private.broadcast_ticket_status();

-- Movers: the scanner calls this once per scan (as the service role) with the scan's start.
-- For each window, the movers updated since then, shaped like movers_feed(window)'s rows,
-- strongest first, at most 100, in one 'movers' message on market:movers:<window>. Windows
-- without such movers send nothing. Returns the number of messages sent.
create function private.broadcast_movers(since timestamptz) returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  w integer;
  entries jsonb;
  sent integer := 0;
begin
  foreach w in array array[0, 5, 10, 15, 20, 25, 30] loop
    select jsonb_agg(to_jsonb(e) order by abs(e.pct) desc, e.ts desc, e.id desc) into entries
    from (
      select f.* from (
        select m.id, m.instrument_id, m.symbol, m.exchange, m.exchange_type, m.network, m.source, m.pool_url,
               m.price, m.price_3hour_ago,
               coalesce(case w
                 when 0 then m.pct_10sec when 5 then m.pct_5min when 10 then m.pct_10min
                 when 15 then m.pct_15min when 20 then m.pct_20min when 25 then m.pct_25min
                 else m.pct_30min end, m.pct) as pct,
               w as window_used, m.pct_3hour, m.volume_24h, m.ts
        from public.movers m
        where m.ts >= since
      ) f
      order by abs(f.pct) desc, f.ts desc, f.id desc
      limit 100
    ) e;
    if entries is not null then
      perform realtime.send(
        jsonb_build_object('window', w, 'scanned_at', now(), 'entries', entries), 'movers', 'market:movers:' || w, true
      );
      sent := sent + 1;
    end if;
  end loop;
  return sent;
end;
$$;

revoke execute on function private.broadcast_group_message(), private.broadcast_ticket_message(),
  private.broadcast_ticket_status(), private.broadcast_movers(timestamptz) from public, anon, authenticated;
grant execute on function private.broadcast_movers(timestamptz) to service_role;
