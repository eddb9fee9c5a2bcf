-- The outbox's due index served the first claim (ordered by next_attempt_at); claims order by
-- (created_at, seq, id) since decision 0031 (outbox_fair_idx). Its only reader left is the sweep
-- at the start of every claim_outbox that turns jobs whose lease ended mid-send into in_doubt
-- (`status = 'sending' and next_attempt_at <= now() and send_started_at is not null`), and for
-- it the index walked every due pending job too: 30,000 entries per claim right after a scan of
-- 10,000 subscribers on three channels. A partial index on the jobs being sent holds only the
-- ones in flight, and new jobs (pending) no longer pay for an index on insert (issue 24,
-- decision 0049).
create index if not exists outbox_sending_idx on private.outbox (next_attempt_at)
  where status = 'sending' and send_started_at is not null;
drop index if exists private.outbox_due_idx;
