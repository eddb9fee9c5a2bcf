-- The send mark (`begin_outbox_sends`, decision 0031) is written before every Discord and
-- Telegram request: 10,000 row updates for a scan of 10,000 own webhooks. Profiled on the bench's
-- PostgreSQL 15 (pg_stat_statements, decision 0082) it cost as much as the claim and the
-- completion each, for two reasons:
--
-- 1. The in-flight index's predicate named `send_started_at`, so setting it changed an indexed
--    expression: every mark was a non-HOT update, a new tuple in every index of the outbox (its
--    key, the dedup key, the fair-order index, the in-flight index). The in-flight index now
--    holds every job being sent (`status = 'sending'`, a few claims' worth at most) and the
--    sweep filters the marked ones in it; the mark touches no indexed column and, with room left
--    on the page (fillfactor 75 for new pages), is a heap-only (HOT) update.
-- 2. `status = 'sending'` in the mark's update let the planner answer it from the fair-order
--    index (every due job: 10,000 entries per call after a scan of 10,000, 100,000 at 100,000)
--    ANDed with the key. The jobs are now found by their key only, one probe per id.
--
-- The rules do not change: a job is marked only while its worker's claim holds, and the mark is
-- committed before the request.
drop index if exists private.outbox_sending_idx;
create index outbox_sending_idx on private.outbox (next_attempt_at) where status = 'sending';

alter table private.outbox set (fillfactor = 75);

create or replace function public.begin_outbox_sends(worker text, job_ids bigint[], results jsonb default '[]'::jsonb)
returns setof bigint
language plpgsql security definer
set search_path = ''
as $$
begin
  if worker is null or char_length(worker) not between 1 and 100 then
    raise exception 'worker must name the worker (1-100 characters)' using errcode = '22023';
  end if;
  if results is not null and jsonb_typeof(results) = 'array' and jsonb_array_length(results) > 0 then
    perform public.complete_outbox_batch(worker, results);
  end if;
  -- By key, one probe per id: the status is compared with a value the planner cannot see into,
  -- so no partial index on the status (the fair order's: every due job) is walked instead.
  return query
    update private.outbox o set send_started_at = now()
    where o.id = any (coalesce(job_ids, '{}'::bigint[]))
      and o.status = (select 'sending'::text) and o.claimed_by = worker
      and o.next_attempt_at > now()
    returning o.id;
end;
$$;
