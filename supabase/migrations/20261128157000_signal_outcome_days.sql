-- The track record from a daily rollup (issue 30, decision 0058). signal_track_record('30d') read
-- every outcome of the last 30 days on each call, so its cost grew with the outcomes table (the
-- month bench: p95 ×6 from day 1 to day 30 on PostgreSQL 15). Closed UTC days are now rolled up
-- into private.signal_outcome_days, one row per day, strategy, horizon, return and verdict with
-- the number of outcomes that share them; the track record reads those rows for the whole days
-- inside its period and the raw outcomes only for the two partial days at its ends (and for any
-- day not rolled up yet). The figures are the same as before, the median included: the rollup
-- keeps every distinct return with its count, so the weighted median is the exact one.
--
--   private.signal_outcome_days     the rollup (31 days, like the outcomes: run_retention)
--   private.signal_outcome_rollup   one row: every UTC day before `rolled_until` is rolled up
--   private.roll_signal_outcomes(at) rolls up the days closed an hour before `at`; called by
--                                   private.run_retention (hourly: pg_cron or the local runner)
--   a statement trigger on the outcomes moves `rolled_until` back when a row of a rolled-up day
--   is inserted, changed or deleted, so a late or corrected outcome is never missed; the next
--   run rolls that day up again.
--
-- Redefined here: public.signal_track_record (same signature, same results) and
-- private.run_retention (the rules of 20261125600000 unchanged, plus the rollup's).

create table private.signal_outcome_days (
  day date not null,
  strategy public.strategy not null,
  horizon_hours integer not null,
  ret numeric,
  was_correct boolean not null,
  outcomes integer not null check (outcomes > 0)
);
comment on table private.signal_outcome_days is
  'Signal outcomes per UTC day, strategy, horizon (hours), return of following the signal (null: neutral) and verdict, with their count; read by signal_track_record.';
create index signal_outcome_days_day_idx on private.signal_outcome_days (day);

create table private.signal_outcome_rollup (
  id boolean primary key default true check (id),
  rolled_until date not null
);
comment on table private.signal_outcome_rollup is
  'One row: every UTC day before rolled_until is in private.signal_outcome_days.';

-- Read like the outcomes themselves: subscribers, through row-level security.
alter table private.signal_outcome_days enable row level security;
alter table private.signal_outcome_rollup enable row level security;
revoke all on private.signal_outcome_days, private.signal_outcome_rollup from public, anon, authenticated;
grant select on private.signal_outcome_days, private.signal_outcome_rollup to authenticated;
create policy "signal outcome days: subscribers read" on private.signal_outcome_days
  for select to authenticated using ((select private.has_active_plan()));
create policy "signal outcome rollup: subscribers read" on private.signal_outcome_rollup
  for select to authenticated using ((select private.has_active_plan()));

-- Rolls up every UTC day that ended at least an hour before `at` (an outcome is stamped with the
-- time it was recorded, so a closed day gets no new rows) and is not rolled up yet. Days older
-- than 31 days before `at` are skipped: no period reaches them. Returns the days rolled up.
create function private.roll_signal_outcomes(at timestamptz default now()) returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  upto date := ((at - interval '1 hour') at time zone 'UTC')::date;
  oldest date := ((at - interval '31 days') at time zone 'UTC')::date;
  from_day date;
begin
  select r.rolled_until into from_day from private.signal_outcome_rollup r for update;
  from_day := greatest(coalesce(from_day, oldest), oldest);
  if from_day >= upto then
    return 0;
  end if;
  delete from private.signal_outcome_days d where d.day >= from_day and d.day < upto;
  insert into private.signal_outcome_days (day, strategy, horizon_hours, ret, was_correct, outcomes)
  select (x.created_at at time zone 'UTC')::date, x.strategy,
         greatest(1, round(x.hours_elapsed))::integer,
         case x.signal when 'bullish' then x.pct_change when 'bearish' then -x.pct_change end,
         x.was_correct, count(*)::integer
  from public.strategy_signal_outcomes x
  where x.created_at >= (from_day::timestamp at time zone 'UTC')
    and x.created_at < (upto::timestamp at time zone 'UTC')
  group by 1, 2, 3, 4, 5;
  insert into private.signal_outcome_rollup (id, rolled_until) values (true, upto)
  on conflict (id) do update set rolled_until = excluded.rolled_until;
  return upto - from_day;
end;
$$;
comment on function private.roll_signal_outcomes(timestamptz) is
  'Rolls the signal outcomes of closed UTC days up into private.signal_outcome_days; returns the days rolled up.';
revoke execute on function private.roll_signal_outcomes(timestamptz) from public, anon, authenticated;
grant execute on function private.roll_signal_outcomes(timestamptz) to service_role;

-- A change to an outcome of a rolled-up day (a late insert, a correction, a delete inside the
-- track record's reach) moves rolled_until back to that day. Rows older than any period (31 days)
-- are left alone, so the retention job's own deletes do not undo the rollup.
create function private.signal_outcomes_changed() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  changed date;
begin
  if tg_op = 'INSERT' then
    select (min(n.created_at) at time zone 'UTC')::date into changed from new_rows n
    where n.created_at > now() - interval '31 days';
  elsif tg_op = 'DELETE' then
    select (min(o.created_at) at time zone 'UTC')::date into changed from old_rows o
    where o.created_at > now() - interval '31 days';
  else
    select (min(c.created_at) at time zone 'UTC')::date into changed
    from (select n.created_at from new_rows n union all select o.created_at from old_rows o) c
    where c.created_at > now() - interval '31 days';
  end if;
  if changed is not null then
    update private.signal_outcome_rollup r set rolled_until = changed where r.rolled_until > changed;
  end if;
  return null;
end;
$$;
revoke execute on function private.signal_outcomes_changed() from public, anon, authenticated;

create trigger signal_outcomes_inserted after insert on public.strategy_signal_outcomes
  referencing new table as new_rows for each statement execute function private.signal_outcomes_changed();
create trigger signal_outcomes_updated after update on public.strategy_signal_outcomes
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.signal_outcomes_changed();
create trigger signal_outcomes_deleted after delete on public.strategy_signal_outcomes
  referencing old table as old_rows for each statement execute function private.signal_outcomes_changed();

-- The track record: the same rows and figures as migration 20261123000200, computed from the
-- rollup for the whole UTC days inside the period and from the outcomes for the rest. The median
-- is percentile_cont(0.5)'s own interpolation over the counted returns.
create or replace function public.signal_track_record(period text default '7d')
returns table (
  strategy public.strategy, horizon_hours integer, signals integer, hits integer, hit_rate numeric,
  directional integer, avg_return numeric, median_return numeric
)
  language plpgsql stable security invoker
  set search_path = ''
as $$
declare
  span interval;
  since timestamptz;
  first_day date;
  rolled date;
  whole_from timestamptz;
  raw_from timestamptz;
begin
  span := case period when '24h' then interval '24 hours' when '7d' then interval '7 days'
                      when '30d' then interval '30 days' end;
  if span is null then
    raise exception 'period must be 24h, 7d or 30d' using errcode = '22023';
  end if;
  if not (select private.has_active_plan()) then
    raise exception 'Active subscription required' using errcode = 'PT403',
      hint = 'Subscribe to a plan to see market data.';
  end if;
  since := now() - span;
  -- The first whole UTC day after `since`, and the end of what is rolled up (never past today).
  first_day := (since at time zone 'UTC')::date + 1;
  select least(r.rolled_until, (now() at time zone 'UTC')::date) into rolled
  from private.signal_outcome_rollup r;
  rolled := greatest(coalesce(rolled, first_day), first_day);
  whole_from := first_day::timestamp at time zone 'UTC';
  raw_from := rolled::timestamp at time zone 'UTC';
  return query
    with w as (
      select d.strategy, d.horizon_hours as horizon, d.ret, d.was_correct, d.outcomes::bigint as n
      from private.signal_outcome_days d
      where d.day >= first_day and d.day < rolled
      union all
      select x.strategy, greatest(1, round(x.hours_elapsed))::integer,
             case x.signal when 'bullish' then x.pct_change when 'bearish' then -x.pct_change end,
             x.was_correct, 1::bigint
      from public.strategy_signal_outcomes x
      where x.created_at > since and x.created_at < whole_from
      union all
      select x.strategy, greatest(1, round(x.hours_elapsed))::integer,
             case x.signal when 'bullish' then x.pct_change when 'bearish' then -x.pct_change end,
             x.was_correct, 1::bigint
      from public.strategy_signal_outcomes x
      where x.created_at >= greatest(raw_from, since)
    ),
    totals as (
      select w.strategy, w.horizon, sum(w.n) as total,
             coalesce(sum(w.n) filter (where w.was_correct), 0) as hit,
             coalesce(sum(w.n) filter (where w.ret is not null), 0) as dir,
             sum(w.ret * w.n) filter (where w.ret is not null) as ret_sum
      from w group by w.strategy, w.horizon
    ),
    -- Each distinct return with how many outcomes had it, and how many had a lower one.
    returns as (
      select r.strategy, r.horizon, r.ret, r.n,
             sum(r.n) over (partition by r.strategy, r.horizon order by r.ret) - r.n as below
      from (select w.strategy, w.horizon, w.ret, sum(w.n) as n from w where w.ret is not null
            group by w.strategy, w.horizon, w.ret) r
    ),
    -- percentile_cont(0.5) over dir values: positions floor and ceil of (dir - 1) / 2 (0-based).
    medians as (
      select t.strategy, t.horizon,
             (select r.ret from returns r where r.strategy = t.strategy and r.horizon = t.horizon
                and r.below <= floor((t.dir - 1) / 2.0) and floor((t.dir - 1) / 2.0) < r.below + r.n) as lo,
             (select r.ret from returns r where r.strategy = t.strategy and r.horizon = t.horizon
                and r.below <= ceil((t.dir - 1) / 2.0) and ceil((t.dir - 1) / 2.0) < r.below + r.n) as hi,
             ((t.dir - 1) / 2.0 - floor((t.dir - 1) / 2.0))::float8 as frac
      from totals t where t.dir > 0
    )
    select t.strategy, t.horizon, t.total::integer, t.hit::integer,
           round(t.hit::numeric / t.total, 4),
           t.dir::integer,
           round(t.ret_sum / nullif(t.dir, 0), 4),
           round((m.lo::float8 + (m.hi::float8 - m.lo::float8) * m.frac)::numeric, 4)
    from totals t
    left join medians m on m.strategy = t.strategy and m.horizon = t.horizon
    order by t.strategy, t.horizon;
end;
$$;
revoke execute on function public.signal_track_record(text) from public, anon;
grant execute on function public.signal_track_record(text) to authenticated, service_role;
comment on function public.signal_track_record(text) is
  'Hit rate and returns of the recorded signal outcomes per strategy and horizon over 24h, 7d or 30d; subscribers only.';

-- The retention job: the rules of migration 20261125600000, then the rollup's own (31 days, like
-- the outcomes), then the rollup of the days closed since the last run.
create or replace function private.run_retention(at timestamptz default now()) returns jsonb
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

  delete from private.signal_outcome_days where day < ((at - interval '31 days') at time zone 'UTC')::date;
  get diagnostics n = row_count;
  removed := removed || jsonb_build_object('signal_outcome_days', n);

  perform private.roll_signal_outcomes(at);

  return removed;
end;
$$;
comment on function private.run_retention(timestamptz) is
  'Deletes rows past their retention rule (docs/retention.md) and rolls up the closed days of signal outcomes; returns the count per rule.';
revoke execute on function private.run_retention(timestamptz) from public, anon, authenticated;
grant execute on function private.run_retention(timestamptz) to service_role;
