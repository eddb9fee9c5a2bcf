-- A completed alert no longer pays for two checks per row (issue 24, decision 0116).
--
-- A perf profile of PostgreSQL over the 100,000 × 20 delivery bench put 6.4 % of its CPU in the
-- foreign-key check of `alerts_sent.user_id` (one `select … for key share` per recorded alert,
-- which also locks the profile's row and writes WAL for that lock) and 4.9 % in the regular
-- expression of the outbox's `kind` check, which every update of a job evaluates again (claim,
-- send mark, completion). Without both, the case took 15.5 s instead of 17.1 s.
--
-- 1. `alerts_sent.user_id` loses its foreign key, as the outbox's did (decision 0052):
--    * its rows are written only by `complete_outbox_batch` (security definer), from jobs that a
--      deleted user no longer has: deleting a profile deletes its jobs (`profiles_delete_outbox`),
--      and that delete waits for a completion that holds the job, or the completion finds the
--      job gone and records nothing;
--    * no role may write the table any more (users never could; now the service role cannot
--      either), so no other writer can name a user that does not exist;
--    * ON DELETE SET NULL is kept by a statement trigger on `profiles` that runs after
--      `profiles_delete_outbox` (triggers of one event run in name order): when it waited for a
--      completion, that completion's rows are committed, and this trigger's update sees them.
-- 2. The outbox's `kind` check says the same without a regular expression: 1 to 40 characters
--    from a–z and `_`, the first one not `_`.

-- ---------------------------------------------------------------------------------------------
-- 1. alerts_sent.user_id without a per-row check
-- ---------------------------------------------------------------------------------------------
alter table public.alerts_sent drop constraint alerts_sent_user_id_fkey;
revoke insert, update on public.alerts_sent from anon, authenticated, service_role;

create function private.profiles_forget_alerts_sent() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  update public.alerts_sent a set user_id = null where a.user_id in (select g.id from gone g);
  return null;
end;
$$;
revoke execute on function private.profiles_forget_alerts_sent() from public, anon, authenticated;
comment on function private.profiles_forget_alerts_sent() is
  'After each delete statement on public.profiles: the deleted users'' alerts stay, without their user (the former foreign key''s ON DELETE SET NULL, decision 0116).';

-- Named to run after profiles_delete_outbox (see 1. above).
create trigger profiles_forget_alerts_sent
  after delete on public.profiles
  referencing old table as gone
  for each statement execute function private.profiles_forget_alerts_sent();

comment on column public.alerts_sent.user_id is
  'The user the alert went to; null once that user is deleted. Written only by complete_outbox_batch, from the user''s own job (decision 0116).';

-- ---------------------------------------------------------------------------------------------
-- 2. The outbox's kind check without a regular expression
-- ---------------------------------------------------------------------------------------------
alter table private.outbox drop constraint outbox_kind_check;
alter table private.outbox add constraint outbox_kind_check check (
  char_length(kind) between 1 and 40
  and ltrim(kind, 'abcdefghijklmnopqrstuvwxyz_') = ''
  and left(kind, 1) <> '_'
);
