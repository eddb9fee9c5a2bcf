-- Alerts at any subscriber count, and storm control (issue 24, decision 0029).
--
--   * Enqueueing groups subscribers whose alerts must be identical in this scan (same window,
--     threshold, venues, directions, cooldown, confluence, escalation step, per-symbol rules AND
--     the same cooldown state) and matches the scan's crossing movers once per group, not once
--     per subscriber. Jobs are still one per user and channel (a digest from 3 symbols on).
--   * Cooldown state is shared: private.alert_state_marks holds marks per *state*; a user points
--     at one state (private.alert_user_state). Users who were alerted together share the new
--     state, so a scan that alerts 10,000 users for 200 symbols writes 200 marks, not 2,000,000.
--   * Storm control on public.profiles: an escalation step, a daily cap (with one notice), quiet
--     hours in the user's time zone (dump alerts optionally let through).
--   * A scan is enqueued once (private.alert_scans); the outbox gets a per-user ordinal `seq`
--     (1 = the user's first job of the scan) so the claim side can serve first alerts first.

-- ---------------------------------------------------------------------------------------------
-- 1. Settings
-- ---------------------------------------------------------------------------------------------
alter table public.profiles
  add column alert_escalation_step numeric(4, 1) not null default 0,
  add column alert_daily_cap integer,
  add column alert_quiet_start time,
  add column alert_quiet_end time,
  add column alert_quiet_dumps boolean not null default false,
  add constraint profiles_alert_escalation_step_range
    check (alert_escalation_step = 0 or alert_escalation_step between 1 and 50),
  add constraint profiles_alert_daily_cap_range
    check (alert_daily_cap is null or alert_daily_cap between 1 and 500),
  add constraint profiles_alert_quiet_hours_pair
    check ((alert_quiet_start is null) = (alert_quiet_end is null)),
  add constraint profiles_alert_quiet_hours_span
    check (alert_quiet_start is null or alert_quiet_start <> alert_quiet_end);
comment on column public.profiles.alert_escalation_step is
  '0: off; else within one pump a symbol alerts again only when its move grew by this many points.';
comment on column public.profiles.alert_daily_cap is
  'null: no cap; else the most alert messages a day (the user''s day in time_zone, UTC when none).';
comment on column public.profiles.alert_quiet_start is 'Quiet hours start (local time in time_zone); null: none.';
comment on column public.profiles.alert_quiet_end is 'Quiet hours end (exclusive; before the start: across midnight).';
comment on column public.profiles.alert_quiet_dumps is 'Let dump alerts through during quiet hours.';

grant update (alert_escalation_step, alert_daily_cap, alert_quiet_start, alert_quiet_end, alert_quiet_dumps)
  on public.profiles to authenticated;

-- ---------------------------------------------------------------------------------------------
-- 2. Shared cooldown state
-- ---------------------------------------------------------------------------------------------
create sequence private.alert_state_ids;
revoke all on sequence private.alert_state_ids from public, anon, authenticated;

create table private.alert_state_marks (
  state_id bigint not null,
  instrument_id bigint not null references public.instruments (id) on delete cascade,
  direction text not null check (direction in ('pump', 'dump')),
  last_price numeric not null,
  last_move numeric not null,
  last_alert_at timestamptz not null,
  primary key (state_id, instrument_id, direction)
);
comment on table private.alert_state_marks is
  'The last alert per cooldown state, instrument and direction (shared by the users in that state).';
create index alert_state_marks_age_idx on private.alert_state_marks (last_alert_at);
alter table private.alert_state_marks enable row level security;
revoke all on private.alert_state_marks from anon, authenticated;

create table private.alert_user_state (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  state_id bigint,
  -- The user's local day of the last alert, the messages sent that day, and the day the cap
  -- notice went out.
  day date,
  sent_today integer not null default 0,
  capped_day date
);
comment on table private.alert_user_state is 'Per user: the cooldown state it is in, and the daily cap''s count.';
-- No index on state_id: updates stay HOT; the one query by state_id is a hashed anti-join.
alter table private.alert_user_state set (fillfactor = 70);
alter table private.alert_user_state enable row level security;
revoke all on private.alert_user_state from anon, authenticated;

-- The marks of the old design become one state per user.
do $$
declare
  u uuid;
  s bigint;
begin
  for u in select distinct m.user_id from private.alert_marks m loop
    s := nextval('private.alert_state_ids');
    insert into private.alert_state_marks (state_id, instrument_id, direction, last_price, last_move, last_alert_at)
    select s, m.instrument_id, m.direction, m.last_price, 0, m.last_alert_at from private.alert_marks m where m.user_id = u;
    insert into private.alert_user_state (user_id, state_id) values (u, s);
  end loop;
end;
$$;
drop table private.alert_marks;

-- Each scan is enqueued once.
create table private.alert_scans (
  scanned_at timestamptz primary key,
  enqueued_at timestamptz not null default clock_timestamp(),
  result jsonb
);
comment on table private.alert_scans is 'Scans whose alerts were enqueued (a second call for one scan is a no-op).';
alter table private.alert_scans enable row level security;
revoke all on private.alert_scans from anon, authenticated;

-- Fairness: the user's ordinal among its jobs of one scan (1 = its first message).
alter table private.outbox add column seq smallint not null default 1;
comment on column private.outbox.seq is 'The job''s ordinal among its user''s jobs of one scan (1: the first); claims order by it.';

-- A scan's message is built once per group of identical users (private.alert_messages); each
-- job holds only what is its user's own (scannedAt, unsubscribeToken, the cap notice) and the
-- message's id. When a worker claims the job, this trigger puts the message into the job's
-- payload, so claim_outbox returns the full payload of decision 0020 (shape, items, total, ...).
create table private.alert_messages (
  id bigint generated always as identity primary key,
  scanned_at timestamptz not null,
  payload jsonb not null
);
comment on table private.alert_messages is 'Market alert messages shared by the jobs of one group of users in one scan.';
create index alert_messages_scanned_idx on private.alert_messages (scanned_at);
alter table private.alert_messages enable row level security;
revoke all on private.alert_messages from anon, authenticated;

alter table private.outbox add column message_id bigint;
comment on column private.outbox.message_id is
  'A market alert''s shared message (private.alert_messages), merged into payload when the job is claimed.';

create function private.outbox_expand_message() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  new.payload := coalesce((select m.payload from private.alert_messages m where m.id = new.message_id), '{}'::jsonb)
                 || new.payload;
  return new;
end;
$$;
revoke execute on function private.outbox_expand_message() from public, anon, authenticated;
-- A job's payload as the worker will see it (for tests and the admin's eyes).
create function private.job_payload(job private.outbox)
returns jsonb
  language sql stable
  set search_path = ''
as $$
  select coalesce((select m.payload from private.alert_messages m where m.id = job.message_id), '{}'::jsonb)
         || job.payload;
$$;
revoke execute on function private.job_payload(private.outbox) from public, anon, authenticated;

create trigger outbox_expand_message before update on private.outbox
  for each row when (new.message_id is not null and new.status = 'sending' and not (old.payload ? 'items'))
  execute function private.outbox_expand_message();

-- ---------------------------------------------------------------------------------------------
-- 3. Quiet hours
-- ---------------------------------------------------------------------------------------------
-- True when `at` falls into [quiet_start, quiet_end) in `zone` (null: UTC); across midnight
-- when the end is before the start.
create function private.in_quiet_hours(at timestamptz, zone text, quiet_start time, quiet_end time)
returns boolean
  language sql stable
  set search_path = ''
as $$
  select case
    when quiet_start is null or quiet_end is null then false
    when quiet_start < quiet_end then
      (at at time zone coalesce(zone, 'UTC'))::time >= quiet_start and (at at time zone coalesce(zone, 'UTC'))::time < quiet_end
    else
      (at at time zone coalesce(zone, 'UTC'))::time >= quiet_start or (at at time zone coalesce(zone, 'UTC'))::time < quiet_end
  end;
$$;
revoke execute on function private.in_quiet_hours(timestamptz, text, time, time) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- 4. Enqueueing
-- ---------------------------------------------------------------------------------------------
create or replace function public.enqueue_alerts(scanned_at timestamptz)
returns jsonb
  language plpgsql security definer
  set search_path = ''
as $$
declare
  digest_from constant integer := 3;
  digest_items constant integer := 20;
  confluence_span constant interval := interval '30 minutes';
  -- A pump is over when its symbol and direction have not alerted for cooldown + pump_gap.
  pump_gap constant interval := interval '60 minutes';
  epoch text := extract(epoch from enqueue_alerts.scanned_at)::text;
  crossed integer := 0;
  jobs integer := 0;
  added integer;
  ordinal integer;
  outcome jsonb;
begin
  if scanned_at is null then
    raise exception 'scanned_at is required' using errcode = '22023';
  end if;
  -- One enqueue at a time (state is read and written), and each scan once.
  perform pg_catalog.pg_advisory_xact_lock(7242024);
  insert into private.alert_scans (scanned_at) values (enqueue_alerts.scanned_at) on conflict do nothing;
  if not found then
    return jsonb_build_object('alerts', 0, 'jobs', 0, 'repeated', true);
  end if;
  delete from private.alert_scans s where s.scanned_at < enqueue_alerts.scanned_at - interval '7 days';
  -- Marks older than the longest cooldown (1440 minutes) + pump_gap no longer hold anything back.
  delete from private.alert_state_marks k where k.last_alert_at < enqueue_alerts.scanned_at - interval '1500 minutes';
  -- Jobs give up within hours (decision 0020's backoff); a week-old message is nobody's.
  delete from private.alert_messages m where m.scanned_at < enqueue_alerts.scanned_at - interval '7 days';

  create temp table if not exists pg_temp.alert_moved (
    instrument_id bigint, symbol text, exchange text, price numeric, ts timestamptz, sel text,
    pct numeric, p0 numeric, p5 numeric, p10 numeric, p15 numeric, p20 numeric, p25 numeric, p30 numeric,
    bull integer, bear integer
  ) on commit drop;
  create temp table if not exists pg_temp.alert_subs (
    user_id uuid, w integer, t numeric, ex text[], dirs text, cd integer, cm integer, step numeric,
    rules text, state_id bigint, cap integer, day date, sent integer, capped_day date,
    email text, discord text, telegram text, token uuid, gid bigint, status text
  ) on commit drop;
  create temp table if not exists pg_temp.alert_groups (
    gid bigint, w integer, t numeric, ex text[], dirs text, cd integer, cm integer, step numeric,
    rules text, state_id bigint, rep uuid, n integer, new_state bigint
  ) on commit drop;
  create temp table if not exists pg_temp.alert_ghits (
    gid bigint, instrument_id bigint, symbol text, exchange text, direction text, move numeric,
    price numeric, ts timestamptz, w integer
  ) on commit drop;
  create temp table if not exists pg_temp.alert_msgs (
    gid bigint, seq integer, key text, message_id bigint
  ) on commit drop;
  truncate pg_temp.alert_moved, pg_temp.alert_subs, pg_temp.alert_groups, pg_temp.alert_ghits, pg_temp.alert_msgs;

  -- The scan's movers that moved at all (1 %: the lowest threshold) on any window.
  insert into pg_temp.alert_moved
  select m.instrument_id, m.symbol, m.exchange, m.price, m.ts,
         private.exchange_selection(m.exchange, m.exchange_type, m.source),
         m.pct, m.pct_10sec, m.pct_5min, m.pct_10min, m.pct_15min, m.pct_20min, m.pct_25min, m.pct_30min, 0, 0
  from public.movers m
  where m.ts = enqueue_alerts.scanned_at
    and greatest(abs(m.pct), abs(coalesce(m.pct_10sec, 0)), abs(coalesce(m.pct_5min, 0)),
                 abs(coalesce(m.pct_10min, 0)), abs(coalesce(m.pct_15min, 0)), abs(coalesce(m.pct_20min, 0)),
                 abs(coalesce(m.pct_25min, 0)), abs(coalesce(m.pct_30min, 0))) >= 1;
  if not found then
    outcome := jsonb_build_object('alerts', 0, 'jobs', 0);
    update private.alert_scans s set result = outcome where s.scanned_at = enqueue_alerts.scanned_at;
    return outcome;
  end if;

  -- Subscribers, with what decides their alerts in this scan. Quiet hours narrow the directions
  -- to dumps (when let through) or leave the user out.
  insert into pg_temp.alert_subs
  select x.*,
         dense_rank() over (order by x.w, x.t, x.ex, x.dirs, x.cd, x.cm, x.step, x.rules, x.state_id),
         -- The daily cap: 'alert', 'last' (the alert that reaches the cap carries the one notice),
         -- or 'capped' (nothing until the user's next day).
         case when x.cap is null or x.sent + 1 < x.cap then 'alert'
              when x.capped_day is distinct from x.day then 'last'
              else 'capped' end
  from (
    select p.id as user_id, p.selected_window_minutes as w, p.user_threshold as t, p.selected_exchanges as ex,
           case when not q.quiet then p.alert_directions else 'dump' end as dirs,
           p.alert_cooldown_minutes as cd, p.alert_confluence_min as cm, p.alert_escalation_step as step,
           coalesce(r.rules, '') as rules, coalesce(us.state_id, 0) as state_id, p.alert_daily_cap as cap,
           q.day, case when us.day = q.day then us.sent_today else 0 end as sent, us.capped_day,
           p.email_alert, p.discord_webhook_url, p.telegram_chat_id, p.alert_unsubscribe_token
    from public.profiles p
    cross join lateral (
      select p.alert_quiet_start is not null
               and private.in_quiet_hours(enqueue_alerts.scanned_at, p.time_zone, p.alert_quiet_start, p.alert_quiet_end) as quiet,
             (enqueue_alerts.scanned_at at time zone coalesce(p.time_zone, 'UTC'))::date as day) q
    left join private.alert_user_state us on us.user_id = p.id
    left join (
      select sr.user_id,
             string_agg(sr.symbol || '=' || coalesce(sr.threshold::text, '')
                          || case when sr.muted_until > enqueue_alerts.scanned_at then ':muted' else '' end,
                        ',' order by sr.symbol) as rules
      from public.alert_symbol_rules sr
      where sr.threshold is not null or sr.muted_until > enqueue_alerts.scanned_at
      group by sr.user_id
    ) r on r.user_id = p.id
    where p.plan = 'enterprise' and p.subscription_active and not p.banned
      and (p.email_alert is not null or p.discord_webhook_url is not null or p.telegram_chat_id is not null)
      -- Quiet hours narrow the directions to dumps (when let through) or leave the user out.
      and (not q.quiet or (p.alert_quiet_dumps and p.alert_directions in ('dump', 'both')))
  ) x;

  -- Groups: users whose alerts in this scan are necessarily the same.
  insert into pg_temp.alert_groups
  select s.gid, s.w, s.t, s.ex, s.dirs, s.cd, s.cm, s.step, s.rules, s.state_id, min(s.user_id::text)::uuid, 0, null
  from pg_temp.alert_subs s
  group by s.gid, s.w, s.t, s.ex, s.dirs, s.cd, s.cm, s.step, s.rules, s.state_id;

  -- Confluence: the strategies agreeing with each mover, counted once per mover.
  if exists (select 1 from pg_temp.alert_groups g where g.cm > 0) then
    update pg_temp.alert_moved m set
      bull = (select count(distinct g.strategy) from public.strategy_signals g
              where g.symbol = m.symbol and g.exchange = m.exchange and g.signal = 'bullish'
                and g.computed_at > enqueue_alerts.scanned_at - confluence_span),
      bear = (select count(distinct g.strategy) from public.strategy_signals g
              where g.symbol = m.symbol and g.exchange = m.exchange and g.signal = 'bearish'
                and g.computed_at > enqueue_alerts.scanned_at - confluence_span);
  end if;

  -- The crossings, once per group: threshold (own per symbol, else the user's), mute, direction,
  -- confluence, and the group's state (cooldown; within a pump the escalation step, or without
  -- one a new move of the threshold since the alerted price).
  insert into pg_temp.alert_ghits
  select g.gid, m.instrument_id, m.symbol, m.exchange, d.direction, round(mv.move, 2), m.price, m.ts, g.w
  from pg_temp.alert_groups g
  join pg_temp.alert_moved m on m.sel = any (g.ex)
  cross join lateral (select coalesce(case g.w when 0 then m.p0 when 5 then m.p5 when 10 then m.p10
                                               when 15 then m.p15 when 20 then m.p20 when 25 then m.p25
                                               when 30 then m.p30 end, m.pct) as move) mv
  cross join lateral (select case when mv.move > 0 then 'pump' else 'dump' end as direction) d
  left join public.alert_symbol_rules r on r.user_id = g.rep and r.symbol = m.symbol
  where (r.muted_until is null or r.muted_until <= enqueue_alerts.scanned_at)
    and abs(mv.move) >= coalesce(r.threshold, g.t)
    and (g.dirs = 'both' or g.dirs = d.direction)
    and (g.cm = 0 or (case d.direction when 'pump' then m.bull else m.bear end) >= g.cm)
    and not exists (
      select 1 from private.alert_state_marks k
      where k.state_id = g.state_id and k.instrument_id = m.instrument_id and k.direction = d.direction
        and k.last_alert_at > enqueue_alerts.scanned_at - make_interval(mins => g.cd) - pump_gap
        and (k.last_alert_at > enqueue_alerts.scanned_at - make_interval(mins => g.cd)
             or (g.step > 0 and abs(mv.move) < abs(k.last_move) + g.step)
             or (g.step = 0 and abs(m.price - k.last_price) / nullif(k.last_price, 0) * 100
                                < coalesce(r.threshold, g.t))));

  update pg_temp.alert_groups g set n = h.n
  from (select h.gid, count(*)::int as n from pg_temp.alert_ghits h group by h.gid) h
  where h.gid = g.gid;

  -- New states for the groups whose users are alerted: the old marks still in force, and the
  -- marks of this scan.
  update pg_temp.alert_groups g set new_state = nextval('private.alert_state_ids')
  where g.n > 0 and exists (select 1 from pg_temp.alert_subs s where s.gid = g.gid and s.status in ('alert', 'last'));
  insert into private.alert_state_marks (state_id, instrument_id, direction, last_price, last_move, last_alert_at)
  select g.new_state, k.instrument_id, k.direction, k.last_price, k.last_move, k.last_alert_at
  from pg_temp.alert_groups g
  join private.alert_state_marks k on k.state_id = g.state_id
  where g.new_state is not null
    and k.last_alert_at > enqueue_alerts.scanned_at - make_interval(mins => g.cd) - pump_gap
    and not exists (select 1 from pg_temp.alert_ghits h
                    where h.gid = g.gid and h.instrument_id = k.instrument_id and h.direction = k.direction)
  union all
  select g.new_state, h.instrument_id, h.direction, h.price, h.move, enqueue_alerts.scanned_at
  from pg_temp.alert_groups g join pg_temp.alert_ghits h on h.gid = g.gid
  where g.new_state is not null;

  insert into private.alert_user_state as u (user_id, state_id, day, sent_today, capped_day)
  select s.user_id, g.new_state, s.day, s.sent + 1, case when s.status = 'last' then s.day end
  from pg_temp.alert_subs s join pg_temp.alert_groups g on g.gid = s.gid
  where g.new_state is not null and s.status in ('alert', 'last')
  on conflict (user_id) do update
    set state_id = excluded.state_id, day = excluded.day, sent_today = excluded.sent_today,
        capped_day = coalesce(excluded.capped_day, u.capped_day);

  -- States nobody is in any more.
  delete from private.alert_state_marks k
  where k.state_id in (
    select g.state_id from pg_temp.alert_groups g where g.new_state is not null and g.state_id <> 0
    except
    select u.state_id from private.alert_user_state u where u.state_id is not null);

  select coalesce(sum(g.n), 0)::int into crossed
  from pg_temp.alert_subs s join pg_temp.alert_groups g on g.gid = s.gid
  where g.n > 0 and s.status in ('alert', 'last');
  if crossed = 0 then
    outcome := jsonb_build_object('alerts', 0, 'jobs', 0);
    update private.alert_scans s set result = outcome where s.scanned_at = enqueue_alerts.scanned_at;
    return outcome;
  end if;

  -- The messages, built once per group. A digest lists the digest_items largest moves and
  -- counts the rest (Telegram stops at 4,096 characters, a Discord embed at 4,096); below
  -- digest_from symbols, one message per symbol.
  with ranked as (
    select h.*, row_number() over (partition by h.gid order by abs(h.move) desc, h.symbol) as rk
    from pg_temp.alert_ghits h
    where exists (select 1 from pg_temp.alert_groups g where g.gid = h.gid and g.new_state is not null)
  ),
  items as (
    select r.gid, r.rk, jsonb_build_object(
             'instrumentId', r.instrument_id, 'symbol', r.symbol, 'exchange', r.exchange,
             'direction', r.direction, 'pct', r.move, 'windowMinutes', r.w,
             'price', r.price, 'ts', r.ts) as item, r.instrument_id, r.direction
    from ranked r where r.rk <= digest_items
  ),
  built as (
    select i.gid, 1 as seq, 'digest:' || epoch as key,
           jsonb_build_object('shape', 'digest', 'items', jsonb_agg(i.item order by i.rk), 'total', g.n) as payload
    from items i join pg_temp.alert_groups g on g.gid = i.gid
    where g.n >= digest_from
    group by i.gid, g.n
    union all
    select i.gid, i.rk::int, 'alert:' || i.instrument_id || ':' || i.direction || ':' || epoch,
           jsonb_build_object('shape', 'single', 'items', jsonb_build_array(i.item), 'total', 1)
    from items i join pg_temp.alert_groups g on g.gid = i.gid
    where g.n < digest_from
  ),
  stored as (
    insert into private.alert_messages (scanned_at, payload)
    select enqueue_alerts.scanned_at, b.payload || jsonb_build_object('gid', b.gid, 'seq', b.seq) from built b
    returning id, payload
  )
  insert into pg_temp.alert_msgs
  select (st.payload ->> 'gid')::bigint, (st.payload ->> 'seq')::int, b.key, st.id
  from stored st join built b on b.gid = (st.payload ->> 'gid')::bigint and b.seq = (st.payload ->> 'seq')::int;
  update private.alert_messages m set payload = m.payload - 'gid' - 'seq'
  where m.id in (select a.message_id from pg_temp.alert_msgs a);

  -- One job per user, channel and message; every user's first message before anyone's second
  -- (ids follow the insert).
  for ordinal in 1 .. digest_from - 1 loop
    insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq, message_id)
    select 'market_alert', ch.channel, s.user_id, s.user_id || ':' || ch.channel || ':' || m.key,
           case when s.status = 'last'
                then jsonb_build_object('scannedAt', enqueue_alerts.scanned_at, 'unsubscribeToken', s.token,
                                        'capReached', true, 'dailyCap', s.cap)
                else jsonb_build_object('scannedAt', enqueue_alerts.scanned_at, 'unsubscribeToken', s.token) end,
           m.seq, m.message_id
    from pg_temp.alert_subs s
    join pg_temp.alert_groups g on g.gid = s.gid and g.new_state is not null
    join pg_temp.alert_msgs m on m.gid = s.gid and m.seq = ordinal
    cross join lateral (values ('email', s.email), ('discord', s.discord), ('telegram', s.telegram)) as ch (channel, target)
    where s.status in ('alert', 'last') and ch.target is not null
    on conflict (dedup_key) do nothing;
    get diagnostics added = row_count;
    jobs := jobs + added;
  end loop;

  if jobs > 0 then
    perform pg_catalog.pg_notify('outbox', jobs::text);
  end if;
  outcome := jsonb_build_object('alerts', crossed, 'jobs', jobs);
  update private.alert_scans s set result = outcome where s.scanned_at = enqueue_alerts.scanned_at;
  return outcome;
end;
$$;
comment on function public.enqueue_alerts(timestamptz) is
  'After a scan: the movers that cross subscribers'' rules become outbox jobs, once per scan (service role).';
revoke execute on function public.enqueue_alerts(timestamptz) from public, anon, authenticated;
grant execute on function public.enqueue_alerts(timestamptz) to service_role;

-- Migration 20261125000000 left its trigger function executable by everyone (functions are
-- executable by PUBLIC by default); pgTAP 04 wants private helpers closed. A trigger does not
-- need the caller's EXECUTE right.
revoke execute on function private.profiles_check_time_zone() from public, anon, authenticated;
-- The same trigger calls private.is_time_zone with the caller's rights, which authenticated and
-- service_role do not have: on PGlite every save of a zone failed with "permission denied for
-- function is_time_zone" (the settings page saves the browser's zone). It runs as its owner now.
alter function private.profiles_check_time_zone() security definer;
