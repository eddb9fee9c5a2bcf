-- Retention (issue 30, decision 0039, docs/retention.md): every table that grows with uptime is
-- pruned by one job, private.run_retention(), on the rules written in docs/retention.md.
--
--   strategy_signal_outcomes   31 days (the track record's longest period is 30 days)
--   strategy_signals           33 days (an outcome is recorded up to a day after its signal, and
--                              deleting a signal deletes its outcome)
--   private.outbox             finished jobs (sent, failed, cancelled) 30 days after they finished
--   alerts_sent                30 days
--   activity_logs              90 days
--   source_health              a venue not attempted for 7 days (the scanner no longer runs it)
--   order_books, funding_rates 7 days (market snapshots)
--   billing_events             400 days (Stripe's idempotency needs days; a year for audits)
--   private.promotion_attempts 30 days (the limit looks back one hour)
--   private.alert_state_marks  30 days after the last alert (cooldowns are hours)
--   private.alert_scans        30 days (a scan's enqueue is repeated within seconds, if at all)
--   private.alert_messages     31 days, once no outbox job points at it any more
--
-- price_history and movers stay pruned by ingest_scan on every scan (per-plan history and the
-- staleness window); user content (chat, tickets, reports, groups) stays until its owner or an
-- admin deletes it.
--
-- On a hosted project pg_cron runs the job every hour (guarded: where pg_cron is missing or not
-- preloaded nothing is scheduled); the local stack's runner (devstack/retention.ts) calls the
-- same function on the same schedule when no pg_cron job exists.

-- Indexes the deletes walk (the rest exist already: strategy_signals_computed_idx,
-- strategy_signal_outcomes_created_idx, activity_logs_created_idx, alerts_sent_created_idx).
create index outbox_finished_idx on private.outbox (coalesce(sent_at, created_at))
  where status in ('sent', 'failed', 'cancelled');
create index order_books_snapshot_idx on public.order_books (snapshot_at);
create index funding_rates_fetched_idx on public.funding_rates (fetched_at);
create index billing_events_received_idx on public.billing_events (received_at);
create index promotion_attempts_attempted_idx on private.promotion_attempts (attempted_at);
-- (alert_state_marks_age_idx and alert_messages_scanned_idx exist already.)
create index outbox_message_idx on private.outbox (message_id) where message_id is not null;

-- Deletes what the rules no longer keep, as of `at` (default now), and returns how many rows
-- each rule removed, e.g. {"strategy_signals": 29000, "activity_logs": 0, ...}.
create function private.run_retention(at timestamptz default now()) returns jsonb
  language plpgsql security definer
  set search_path = ''
as $$
declare
  removed jsonb := '{}'::jsonb;
  n bigint;
begin
  delete from public.strategy_signal_outcomes where created_at < at - interval '31 days';
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('strategy_signal_outcomes', n);

  delete from public.strategy_signals where computed_at < at - interval '33 days';
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('strategy_signals', n);

  delete from private.outbox
  where status in ('sent', 'failed', 'cancelled') and coalesce(sent_at, created_at) < at - interval '30 days';
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('outbox', n);

  delete from public.alerts_sent where created_at < at - interval '30 days';
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('alerts_sent', n);

  delete from public.activity_logs where created_at < at - interval '90 days';
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('activity_logs', n);

  delete from public.source_health where last_attempt_at < at - interval '7 days';
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('source_health', n);

  delete from public.order_books where snapshot_at < at - interval '7 days';
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('order_books', n);

  delete from public.funding_rates where fetched_at < at - interval '7 days';
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('funding_rates', n);

  delete from public.billing_events where received_at < at - interval '400 days';
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('billing_events', n);

  delete from private.promotion_attempts where attempted_at < at - interval '30 days';
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('promotion_attempts', n);

  delete from private.alert_state_marks where last_alert_at < at - interval '30 days';
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('alert_state_marks', n);

  delete from private.alert_scans where scanned_at < at - interval '30 days';
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('alert_scans', n);

  delete from private.alert_messages m
  where m.scanned_at < at - interval '31 days'
    and not exists (select 1 from private.outbox o where o.message_id = m.id);
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('alert_messages', n);

  return removed;
end;
$$;
comment on function private.run_retention(timestamptz) is
  'Deletes rows past their retention rule (docs/retention.md); returns the count per rule.';
revoke execute on function private.run_retention(timestamptz) from public, anon, authenticated;
grant execute on function private.run_retention(timestamptz) to service_role;

-- The hourly schedule on a hosted project. Only pg_cron is needed (the job is plain SQL). Any
-- failure (pg_cron not preloaded, another database than cron.database_name, no privilege)
-- leaves the schedule to the local runner and says so.
do $$
begin
  if exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_cron') then
    begin
      create extension if not exists pg_cron with schema pg_catalog;
      execute 'select cron.unschedule(j.jobid) from cron.job j where j.jobname = $1' using 'retention';
      execute 'select cron.schedule($1, $2, $3)' using 'retention', '17 * * * *',
        'select private.run_retention()';
    exception when others then
      raise notice 'retention: not scheduled with pg_cron (%); the local runner prunes instead', sqlerrm;
    end;
  end if;
end;
$$;
