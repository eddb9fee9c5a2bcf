-- The outbox's insert path, cheaper (issue 24: enqueue ≤ 1 s at 10,000 × 200; decision 0052).
--
-- enqueue_alerts writes one job per user, channel and message (30,000 rows at 10,000
-- subscribers with three channels each). Measured with auto_explain (decision 0049) and on PGlite
-- (decision 0052), the rows' writing was about 80 % of the call; two parts of it go here:
--
-- 1. The foreign key outbox.user_id → profiles (on delete cascade) checked every row on its own
--    (RI trigger: one look-up and one row lock per job, 30,000 per scan, about a quarter of the
--    insert). It becomes one check per statement: an after-insert trigger with a transition table
--    locks the statement's distinct users `for key share` (what the foreign key took per row, so
--    a concurrent delete of a profile still waits for the jobs' transaction) and raises 23503 —
--    the foreign key's SQLSTATE — when one of them has no profile. The cascade is kept by an
--    after-delete statement trigger on profiles. A change of a job's user_id (nothing does it) is
--    checked per row.
-- 2. outbox_message_idx (message_id): its one reader is retention's `not exists` over a month-old
--    message, which a hash anti-join answers without it; one index less on every job's insert.
--    The remaining indexes each have a reader on the hot path: the primary key, dedup_key (the
--    second guard against a repeated scan), outbox_fair_idx (the claim's order).

-- ---------------------------------------------------------------------------------------------
-- 1. The user reference, checked per statement
-- ---------------------------------------------------------------------------------------------
alter table private.outbox drop constraint outbox_user_id_fkey;

create function private.outbox_users_exist() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  missing uuid;
begin
  -- Key-share locks on the referenced profiles, as the foreign key took them per row: a delete
  -- of one of them waits until these jobs are committed, then removes them
  -- (profiles_delete_outbox).
  perform 1 from public.profiles p
  where p.id in (select distinct j.user_id from new_jobs j where j.user_id is not null)
  for key share of p;
  select j.user_id into missing
  from new_jobs j
  where j.user_id is not null
    and not exists (select 1 from public.profiles p where p.id = j.user_id)
  limit 1;
  if missing is not null then
    raise exception 'outbox job for a user without a profile (%)', missing
      using errcode = '23503', constraint = 'outbox_user_id_exists';
  end if;
  return null;
end;
$$;
revoke execute on function private.outbox_users_exist() from public, anon, authenticated;
comment on function private.outbox_users_exist() is
  'After each insert statement on private.outbox: every job''s user has a profile (23503), locked for key share (decision 0052).';

create trigger outbox_users_exist
  after insert on private.outbox
  referencing new table as new_jobs
  for each statement execute function private.outbox_users_exist();

create function private.outbox_user_exists() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform 1 from public.profiles p where p.id = new.user_id for key share of p;
  if not found then
    raise exception 'outbox job for a user without a profile (%)', new.user_id
      using errcode = '23503', constraint = 'outbox_user_id_exists';
  end if;
  return null;
end;
$$;
revoke execute on function private.outbox_user_exists() from public, anon, authenticated;

create trigger outbox_user_exists
  after update of user_id on private.outbox
  for each row when (new.user_id is not null and new.user_id is distinct from old.user_id)
  execute function private.outbox_user_exists();

create function private.profiles_delete_outbox() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  delete from private.outbox o where o.user_id in (select g.id from gone g);
  return null;
end;
$$;
revoke execute on function private.profiles_delete_outbox() from public, anon, authenticated;
comment on function private.profiles_delete_outbox() is
  'After each delete statement on public.profiles: the deleted users'' outbox jobs go too (the cascade of the former foreign key, decision 0052).';

create trigger profiles_delete_outbox
  after delete on public.profiles
  referencing old table as gone
  for each statement execute function private.profiles_delete_outbox();

-- ---------------------------------------------------------------------------------------------
-- 2. One index less on the insert path
-- ---------------------------------------------------------------------------------------------
drop index private.outbox_message_idx;
