-- Plan changes count in the write-limit mechanism (issue 30, decision 0040): their attempts go to
-- private.write_events (kind 'plan_change') instead of a table of their own, so one table, one
-- index and one pruning pattern hold every per-user limit. The limit is unchanged: 5 changes an
-- hour per user, answered by the change-plan function with 429 too_many_plan_changes and
-- Retry-After. Unlike the social writes (private.count_write, keyed on auth.uid()), the caller
-- here is the change-plan function with the service role, for the user it names.

alter table private.write_events drop constraint write_events_kind_check;
alter table private.write_events add constraint write_events_kind_check
  check (kind in ('chat_message', 'group_create', 'report', 'ticket_create', 'ticket_reply',
                  'gif_upload', 'plan_change'));

-- Attempts counted in the last hour move over, so nobody gets a fresh hour from the upgrade.
insert into private.write_events (user_id, kind, scope, at)
select a.user_id, 'plan_change', null, a.at
from private.plan_change_attempts a
where a.at > clock_timestamp() - interval '1 hour';

-- 0 when the user may change plans now (the attempt is counted), else the seconds until a slot
-- frees. Called by the change-plan function with the service role; no API role may call it.
create or replace function public.take_plan_change_slot(target uuid)
  returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  max_changes constant integer := 5;
  window_length constant interval := interval '1 hour';
  recent integer;
  oldest timestamptz;
begin
  if target is null then
    raise exception 'take_plan_change_slot: target is required' using errcode = '22004';
  end if;
  -- One caller per user and kind at a time (the lock private.count_write takes for its kinds),
  -- so two concurrent requests cannot both take the last slot.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext(target::text || '/plan_change'));
  delete from private.write_events e
    where e.user_id = target and e.kind = 'plan_change'
      and e.at <= clock_timestamp() - window_length;
  select count(*), min(e.at) into recent, oldest
    from private.write_events e
    where e.user_id = target and e.kind = 'plan_change' and e.scope is null;
  if recent >= max_changes then
    return greatest(1, ceil(extract(epoch from (oldest + window_length - clock_timestamp())))::integer);
  end if;
  insert into private.write_events (user_id, kind, scope) values (target, 'plan_change', null);
  return 0;
end;
$$;
comment on function public.take_plan_change_slot(uuid) is
  'Rate limit of plan changes (5 per hour per user, counted in private.write_events): 0 = allowed and counted, else seconds to wait.';
revoke all on function public.take_plan_change_slot(uuid) from public, anon, authenticated;
grant execute on function public.take_plan_change_slot(uuid) to service_role;

drop table private.plan_change_attempts;
