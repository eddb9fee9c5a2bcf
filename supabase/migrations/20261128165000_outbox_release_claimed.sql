-- Claiming the next batch while the current one is sent (issue 24, decisions 0049 point 3 and
-- 0066): a worker holds at most one batch claimed ahead. When its time budget ends before that
-- batch's turn, it hands the batch back instead of keeping it leased (its jobs would otherwise
-- wait for the lease to end, up to two leases).
--
-- public.release_outbox(worker, job_ids): the listed jobs this worker still holds and has not
-- started to send (status 'sending', its claim, lease not ended, no send mark) become pending
-- and due at once, with the claim's attempt undone. A job with a send mark is never handed back
-- (it may be on its way: decision 0031's in-doubt rule stays the only way out for it); a job whose
-- lease ended may already be another worker's and is left alone. Returns how many it handed back.
create or replace function public.release_outbox(worker text, job_ids bigint[])
returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  n integer;
begin
  if worker is null or char_length(worker) not between 1 and 100 then
    raise exception 'worker must name the worker (1-100 characters)' using errcode = '22023';
  end if;
  if job_ids is null or cardinality(job_ids) > 1000 then
    raise exception 'job_ids must list at most 1000 jobs' using errcode = '22023';
  end if;
  update private.outbox o
    set status = 'pending', claimed_by = null, next_attempt_at = now(),
        attempts = greatest(o.attempts - 1, 0)
  where o.id = any (release_outbox.job_ids) and o.status = 'sending'
    and o.claimed_by = release_outbox.worker and o.send_started_at is null
    and o.next_attempt_at > now();
  get diagnostics n = row_count;
  return n;
end;
$$;
comment on function public.release_outbox(text, bigint[]) is
  'Hands back claimed outbox jobs the worker has not started to send: pending and due at once (service role).';
revoke execute on function public.release_outbox(text, bigint[]) from public, anon, authenticated;
grant execute on function public.release_outbox(text, bigint[]) to service_role;
