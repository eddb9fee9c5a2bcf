-- Priority support (issue 27, decision 0036).
--
-- Each ticket records, when it is opened, the plan it is served under (the owner's active plan,
-- 'none' without one) and the time its first answer is due: Enterprise 1 hour around the clock,
-- Pro 4 hours, Basic 24 hours, free 72 hours (public.support_response_target). An admin's first
-- reply stamps first_response_at. Breached: no first answer by the due time (while the ticket is
-- open or in progress), or a first answer after it.
--
-- The desk orders by desk_rank (the plan's priority while the ticket waits for an admin and is
-- not resolved or closed, −1 otherwise), then by desk_waiting_since (oldest first), then by the
-- newest activity: both are generated columns so the desk's PostgREST query can sort by them.
--
-- Enterprise tickets past their target without an answer e-mail every admin once, through the
-- outbox (kind 'ticket_overdue', channel 'email', one job per admin, as ticket e-mails are
-- enqueued in 20261124000000_alert_delivery.sql). private.escalate_overdue_tickets() does it; on a
-- hosted project pg_cron runs it every minute, locally the stack's cron runner calls
-- public.run_support_escalation() (service role only).

create function public.support_response_target(plan public.plan)
returns interval
  language sql immutable
  set search_path = ''
as $$
  select case plan
    when 'enterprise' then interval '1 hour'
    when 'pro' then interval '4 hours'
    when 'basic' then interval '24 hours'
    else interval '72 hours'
  end;
$$;
comment on function public.support_response_target(public.plan) is
  'How long the first answer to a ticket may take, per plan (decision 0036).';
grant execute on function public.support_response_target(public.plan) to anon, authenticated, service_role;

alter table public.support_tickets
  add column support_plan public.plan not null default 'none',
  add column response_due_at timestamptz,
  add column first_response_at timestamptz,
  add column overdue_notified_at timestamptz;
comment on column public.support_tickets.support_plan is 'The owner''s active plan when the ticket was opened; sets its priority and target.';
comment on column public.support_tickets.response_due_at is 'When the first answer is due (created_at + the plan''s target).';
comment on column public.support_tickets.first_response_at is 'The first admin reply''s time; set by the database.';
comment on column public.support_tickets.overdue_notified_at is 'When the admins were e-mailed that this Enterprise ticket passed its target.';

-- Existing tickets: the owner's plan now, the first admin reply so far. Not activity: updated_at stays.
alter table public.support_tickets disable trigger support_tickets_touch_updated_at;
update public.support_tickets t
set support_plan = coalesce((select case when p.subscription_active and not p.banned then p.plan else 'none' end
                             from public.profiles p where p.id = t.user_id), 'none'),
    first_response_at = (select min(m.created_at) from public.ticket_messages m
                         where m.ticket_id = t.id and m.is_admin_reply);
update public.support_tickets t
set response_due_at = t.created_at + public.support_response_target(t.support_plan),
    -- Old breaches are not news: only tickets that pass their target from now on e-mail the admins.
    overdue_notified_at = case when t.created_at + public.support_response_target(t.support_plan) < now() then now() end;
alter table public.support_tickets enable trigger support_tickets_touch_updated_at;
-- The insert trigger always sets it; the default (the longest target) only keeps clients' insert
-- types free of a column they may not write.
alter table public.support_tickets alter column response_due_at set default now() + interval '72 hours';
alter table public.support_tickets alter column response_due_at set not null;

alter table public.support_tickets
  add column desk_rank smallint generated always as (
    case when awaiting_admin and status in ('open', 'in_progress') then
      case support_plan when 'enterprise' then 3 when 'pro' then 2 when 'basic' then 1 else 0 end
    else -1 end
  ) stored,
  add column desk_waiting_since timestamptz generated always as (
    case when awaiting_admin and status in ('open', 'in_progress') then created_at end
  ) stored;
comment on column public.support_tickets.desk_rank is
  'The desk''s order: the plan''s priority (3 Enterprise … 0 free) while the ticket waits for an admin, else −1.';
create index support_tickets_desk_idx on public.support_tickets (desk_rank desc, desk_waiting_since, updated_at desc);

-- The plan and the due time are the database's, whatever a client sends.
create function private.set_ticket_support_plan() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  new.support_plan := coalesce((select case when p.subscription_active and not p.banned then p.plan else 'none' end
                                from public.profiles p where p.id = new.user_id), 'none');
  new.response_due_at := new.created_at + public.support_response_target(new.support_plan);
  new.first_response_at := null;
  new.overdue_notified_at := null;
  return new;
end;
$$;
revoke execute on function private.set_ticket_support_plan() from public, anon, authenticated;
create trigger support_tickets_set_support_plan before insert on public.support_tickets
  for each row execute function private.set_ticket_support_plan();

create function private.stamp_first_response() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  update public.support_tickets t set first_response_at = new.created_at
  where t.id = new.ticket_id and t.first_response_at is null;
  return null;
end;
$$;
revoke execute on function private.stamp_first_response() from public, anon, authenticated;
create trigger ticket_messages_stamp_first_response after insert on public.ticket_messages
  for each row when (new.is_admin_reply) execute function private.stamp_first_response();

-- ---------------------------------------------------------------------------------------------
-- Enterprise tickets past their target: e-mail the admins once
-- ---------------------------------------------------------------------------------------------
create function private.escalate_overdue_tickets() returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  n integer := 0;
  t record;
begin
  for t in
    update public.support_tickets s set overdue_notified_at = now()
    where s.support_plan = 'enterprise' and s.first_response_at is null
      and s.status in ('open', 'in_progress') and s.overdue_notified_at is null
      and s.response_due_at < now()
    returning s.id, s.ticket_number, s.subject, s.status, s.created_at, s.response_due_at, s.user_id
  loop
    insert into private.outbox (kind, channel, user_id, dedup_key, payload)
    select 'ticket_overdue', 'email', a.id, 'ticket-overdue:' || t.id || ':' || a.id,
           jsonb_build_object('ticketId', t.id, 'ticketNumber', t.ticket_number, 'subject', t.subject,
                              'status', t.status, 'plan', 'enterprise',
                              'createdAt', t.created_at, 'dueAt', t.response_due_at)
    from public.profiles a
    where a.role = 'admin' and not a.banned
    on conflict (dedup_key) do nothing;
    n := n + 1;
  end loop;
  if n > 0 then
    perform pg_catalog.pg_notify('outbox', '1');
  end if;
  return n;
end;
$$;
revoke execute on function private.escalate_overdue_tickets() from public, anon, authenticated;
grant execute on function private.escalate_overdue_tickets() to service_role;

create function public.run_support_escalation() returns integer
  language sql security definer
  set search_path = ''
as $$
  select private.escalate_overdue_tickets();
$$;
comment on function public.run_support_escalation() is
  'E-mails the admins (outbox) about Enterprise tickets past their first-response target; service role only.';
revoke execute on function public.run_support_escalation() from public, anon, authenticated;
grant execute on function public.run_support_escalation() to service_role;

do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'pg_cron') then
    begin
      execute 'select cron.unschedule(j.jobid) from cron.job j where j.jobname = $1' using 'support-escalation';
      execute 'select cron.schedule($1, $2, $3)' using 'support-escalation', '* * * * *', 'select private.escalate_overdue_tickets()';
    exception when others then
      raise notice 'The support escalation is not scheduled: % (%)', sqlerrm, sqlstate;
    end;
  end if;
end;
$$;
