-- The outbox's hot functions read it by index whatever the planner last saw (issue 24,
-- decision 0112).
--
-- `claim_outbox` opens with two sweeps (leases ended after a mark: in doubt; before one:
-- pending again), statements without parameters, so PL/pgSQL plans them once per connection and
-- keeps that plan until the table's statistics change. A connection that first claimed while the
-- outbox was empty or small kept a sequential scan, and a scan's burst of jobs does not change
-- the statistics before autovacuum's next round (a minute at the soonest): `auto_explain` on the
-- delivery bench at 100,000 jobs showed both sweeps reading all 100,000 rows on every claim,
-- 70-100 ms each and 0 rows found: 13.4 s of execution over the case's 188 claims. The in-flight
-- index (`outbox_sending_idx`: jobs being sent, by lease end) answers them from a few entries.
--
-- The claim, the send marks and the completions find every row they touch through an index (the
-- fair order, the in-flight index, the key), so the planner is told not to scan the table in
-- them: a plan kept from a small outbox can then not read a large one row by row.
alter function public.claim_outbox(text, integer, integer, text) set enable_seqscan = off;
alter function public.begin_outbox_sends(text, bigint[], jsonb) set enable_seqscan = off;
alter function public.complete_outbox_batch(text, jsonb) set enable_seqscan = off;
