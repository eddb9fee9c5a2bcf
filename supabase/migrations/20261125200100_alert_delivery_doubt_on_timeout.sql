-- A request without an idempotency key that timed out may have arrived (decision 0031): the
-- worker records the job as in_doubt instead of retrying it. Only the claiming worker may.
create or replace function public.doubt_outbox(job_id bigint, worker text, error text)
returns boolean
  language plpgsql security definer
  set search_path = ''
as $$
begin
  update private.outbox o
    set status = 'in_doubt',
        last_error = left('No answer in time; it may have arrived, so it is not sent again: ' || coalesce(error, 'unknown error'), 500)
  where o.id = job_id and o.claimed_by = worker and o.status = 'sending' and o.send_started_at is not null;
  return found;
end;
$$;
revoke execute on function public.doubt_outbox(bigint, text, text) from public, anon, authenticated;
grant execute on function public.doubt_outbox(bigint, text, text) to service_role;
