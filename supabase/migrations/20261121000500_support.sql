-- Support tickets and their threads. Owners and admins read them; replies are refused on a
-- closed ticket; is_admin_reply is set by the database; status changes through the admin RPC.

create sequence public.support_ticket_number_seq as bigint start with 1001;

create table public.support_tickets (
  id uuid primary key default gen_random_uuid(),
  ticket_number bigint not null unique default nextval('public.support_ticket_number_seq'),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  subject text not null check (char_length(btrim(subject, E' \t\r\n\f\v')) between 5 and 100),
  content text not null check (char_length(btrim(content, E' \t\r\n\f\v')) between 10 and 2000),
  status public.ticket_status not null default 'open',
  priority public.ticket_priority not null default 'medium',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter sequence public.support_ticket_number_seq owned by public.support_tickets.ticket_number;
comment on table public.support_tickets is 'Support tickets with unique, increasing numbers.';
create index support_tickets_user_idx on public.support_tickets (user_id, created_at desc);

create table public.ticket_messages (
  id uuid primary key default gen_random_uuid(),
  ticket_id uuid not null references public.support_tickets (id) on delete cascade,
  sender_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  content text not null check (char_length(content) between 1 and 2000 and content ~ '\S'),
  is_admin_reply boolean not null default false,
  created_at timestamptz not null default now()
);
comment on table public.ticket_messages is 'Replies on a ticket; admin replies are flagged by the database.';
create index ticket_messages_ticket_idx on public.ticket_messages (ticket_id, created_at);

alter table public.support_tickets enable row level security;
alter table public.ticket_messages enable row level security;

create function private.owns_ticket(tid uuid) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (select 1 from public.support_tickets t where t.id = tid and t.user_id = (select auth.uid()))
$$;
revoke execute on function private.owns_ticket(uuid) from public;
grant execute on function private.owns_ticket(uuid) to authenticated, service_role;

create policy "tickets: owners and admins read" on public.support_tickets
  for select to authenticated
  using ((select private.is_admin()) or ((select private.is_active_user()) and user_id = (select auth.uid())));
create policy "tickets: active users open tickets" on public.support_tickets
  for insert to authenticated
  with check ((select private.is_active_user()) and user_id = (select auth.uid()));
create policy "tickets: admins delete" on public.support_tickets
  for delete to authenticated using ((select private.is_admin()));
revoke insert, update on public.support_tickets from anon, authenticated;
grant insert (id, user_id, subject, content, priority) on public.support_tickets to authenticated;

create trigger support_tickets_touch_updated_at before update on public.support_tickets
  for each row execute function private.touch_updated_at();

create policy "ticket messages: owners and admins read" on public.ticket_messages
  for select to authenticated
  using ((select private.is_admin()) or ((select private.is_active_user()) and (select private.owns_ticket(ticket_id))));
create policy "ticket messages: owners and admins reply" on public.ticket_messages
  for insert to authenticated
  with check (
    sender_id = (select auth.uid())
    and ((select private.is_admin()) or ((select private.is_active_user()) and (select private.owns_ticket(ticket_id))))
  );
revoke insert, update, delete on public.ticket_messages from anon, authenticated;
grant insert (id, ticket_id, sender_id, content) on public.ticket_messages to authenticated;

create function private.prepare_ticket_message() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  ticket_status public.ticket_status;
begin
  select t.status into ticket_status from public.support_tickets t where t.id = new.ticket_id for update;
  if ticket_status = 'closed' then
    raise exception 'This ticket is closed; replies are no longer possible' using errcode = 'PT409';
  end if;
  new.is_admin_reply := exists (select 1 from public.profiles p where p.id = new.sender_id and p.role = 'admin');
  update public.support_tickets set updated_at = now() where id = new.ticket_id;
  return new;
end;
$$;
create trigger ticket_messages_prepare before insert on public.ticket_messages
  for each row execute function private.prepare_ticket_message();
