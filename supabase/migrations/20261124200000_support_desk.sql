-- The admins' support desk (decision 0022):
--   * support_tickets.awaiting_admin: true while the latest word on a ticket is its owner's (a new
--     ticket, or a reply that is not an admin reply); an admin's reply, or an admin resolving or
--     closing the ticket, settles it. Kept by triggers, never by clients. Tickets that await an
--     admin and are not closed are the "unanswered" count of the header.
--   * ticket_notes: internal notes on a ticket, for admins only. A table of their own, not a flag
--     on ticket_messages: the owner's read paths (select on ticket_messages, the ticket:<id>
--     broadcast of every new reply) cannot carry a note by construction.
--   * canned_replies: the admins' shared library of saved answers.
--   * Two admin-only Realtime topics: ticket-notes:<ticket id> (notes as broadcast_changes) and
--     support:desk (event 'desk': which ticket changed, no content), so the desk and the header
--     count follow new tickets, replies and status changes live. Their policy is a policy of its
--     own on realtime.messages, so it composes with the others instead of replacing them.

-- ---------------------------------------------------------------------------------------------
-- Awaiting an admin
-- ---------------------------------------------------------------------------------------------
alter table public.support_tickets
  add column awaiting_admin boolean not null default true;
comment on column public.support_tickets.awaiting_admin is
  'True while the latest word is the owner''s (new ticket or owner reply); set by the database.';

-- Existing tickets: the latest reply decides. Backfilling is not activity, so updated_at stays.
alter table public.support_tickets disable trigger support_tickets_touch_updated_at;
update public.support_tickets t
set awaiting_admin = not coalesce((
  select m.is_admin_reply from public.ticket_messages m
  where m.ticket_id = t.id order by m.created_at desc, m.id desc limit 1
), false);
alter table public.support_tickets enable trigger support_tickets_touch_updated_at;

create index support_tickets_awaiting_idx on public.support_tickets (updated_at desc)
  where awaiting_admin and status <> 'closed';
create index support_tickets_activity_idx on public.support_tickets (updated_at desc);

create function private.track_ticket_awaiting() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  update public.support_tickets
  set awaiting_admin = not new.is_admin_reply
  where id = new.ticket_id and awaiting_admin is distinct from (not new.is_admin_reply);
  return null;
end;
$$;
create trigger ticket_messages_track_awaiting after insert on public.ticket_messages
  for each row execute function private.track_ticket_awaiting();

-- Resolving or closing a ticket answers it; the owner's next reply (on a resolved ticket) makes it
-- wait again.
create function private.settle_ticket_awaiting() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if new.status in ('resolved', 'closed') then
    new.awaiting_admin := false;
  end if;
  return new;
end;
$$;
create trigger support_tickets_settle_awaiting before update of status on public.support_tickets
  for each row when (old.status is distinct from new.status)
  execute function private.settle_ticket_awaiting();

-- ---------------------------------------------------------------------------------------------
-- Internal notes
-- ---------------------------------------------------------------------------------------------
create table public.ticket_notes (
  id uuid primary key default gen_random_uuid(),
  ticket_id uuid not null references public.support_tickets (id) on delete cascade,
  author_id uuid default auth.uid() references public.profiles (id) on delete set null,
  content text not null check (char_length(content) between 1 and 2000 and content ~ '\S'),
  created_at timestamptz not null default now()
);
comment on table public.ticket_notes is
  'Internal notes on a support ticket: written and read by admins only, never shown to the ticket''s owner.';
create index ticket_notes_ticket_idx on public.ticket_notes (ticket_id, created_at);
create index ticket_notes_author_idx on public.ticket_notes (author_id);

alter table public.ticket_notes enable row level security;

create policy "ticket notes: admins read" on public.ticket_notes
  for select to authenticated using ((select private.is_admin()));
create policy "ticket notes: admins write their own" on public.ticket_notes
  for insert to authenticated
  with check ((select private.is_admin()) and author_id = (select auth.uid()));
create policy "ticket notes: authors delete their own" on public.ticket_notes
  for delete to authenticated
  using ((select private.is_admin()) and author_id = (select auth.uid()));

revoke all on public.ticket_notes from anon, authenticated;
grant select, delete on public.ticket_notes to authenticated;
grant insert (id, ticket_id, content) on public.ticket_notes to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Canned replies
-- ---------------------------------------------------------------------------------------------
create table public.canned_replies (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(btrim(title, E' \t\r\n\f\v')) between 1 and 80),
  content text not null check (char_length(content) between 1 and 2000 and content ~ '\S'),
  created_by uuid default auth.uid() references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.canned_replies is
  'Saved answers the admins share and insert into a ticket reply with one click.';
create unique index canned_replies_title_key on public.canned_replies (lower(btrim(title, E' \t\r\n\f\v')));
create index canned_replies_created_by_idx on public.canned_replies (created_by);

alter table public.canned_replies enable row level security;

create policy "canned replies: admins read" on public.canned_replies
  for select to authenticated using ((select private.is_admin()));
create policy "canned replies: admins add" on public.canned_replies
  for insert to authenticated
  with check ((select private.is_admin()) and created_by = (select auth.uid()));
create policy "canned replies: admins edit" on public.canned_replies
  for update to authenticated
  using ((select private.is_admin())) with check ((select private.is_admin()));
create policy "canned replies: admins delete" on public.canned_replies
  for delete to authenticated using ((select private.is_admin()));

revoke all on public.canned_replies from anon, authenticated;
grant select, delete on public.canned_replies to authenticated;
grant insert (id, title, content) on public.canned_replies to authenticated;
grant update (title, content) on public.canned_replies to authenticated;

create trigger canned_replies_touch_updated_at before update on public.canned_replies
  for each row execute function private.touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Admin-only live topics
-- ---------------------------------------------------------------------------------------------
create policy "realtime: admins receive the support desk and ticket notes" on realtime.messages
  for select to authenticated
  using (
    extension = 'broadcast'
    and (select realtime.topic()) ~ '^(support:desk|ticket-notes:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$'
    and (select private.is_admin())
  );

-- Notes go to ticket-notes:<ticket id> as INSERT / DELETE (the row as stored).
create function private.broadcast_ticket_note() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform realtime.broadcast_changes(
    'ticket-notes:' || coalesce(new.ticket_id, old.ticket_id), tg_op, tg_op, tg_table_name, tg_table_schema, new, old
  );
  return null;
end;
$$;
create trigger ticket_notes_broadcast after insert or delete on public.ticket_notes
  for each row execute function private.broadcast_ticket_note();

-- The desk: which ticket changed and how, without its content (the desk refetches what it shows).
create function private.broadcast_support_desk() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform realtime.send(
    jsonb_build_object('ticket_id', coalesce(new.id, old.id), 'operation', tg_op),
    'desk', 'support:desk', true
  );
  return null;
end;
$$;
create trigger support_tickets_broadcast_desk after insert or delete on public.support_tickets
  for each row execute function private.broadcast_support_desk();
create trigger support_tickets_broadcast_desk_update after update on public.support_tickets
  for each row
  when (old.status is distinct from new.status or old.priority is distinct from new.priority
        or old.awaiting_admin is distinct from new.awaiting_admin or old.updated_at is distinct from new.updated_at)
  execute function private.broadcast_support_desk();

revoke execute on function private.track_ticket_awaiting(), private.settle_ticket_awaiting(), private.broadcast_ticket_note(),
  private.broadcast_support_desk() from public, anon, authenticated;
