-- Issue 24 (decision 0074): a scan's jobs are written in slices, each committed on its own, so
-- the first jobs are claimable right after the rules have run instead of after the last of the
-- scan's jobs (30,000 at 10,000 subscribers: 80 % of the enqueue, decisions 0049 and 0052).
--
-- `enqueue_alerts_between` applies every rule as before (cooldown, escalation step, daily cap and
-- its one notice, quiet hours, thin/confirmation opt-ins, digests, each write once) and records
-- the recipients of each group of identical alerts, with the group's messages, in
-- `private.alert_fanout`: one row per slice of up to 1,000 recipients (arrays, not a row per
-- job; `moverscan.alert_slice` sets the size, for tests). It writes the first slice in its own
-- transaction; `public.write_alert_jobs` writes the next ones. Each slice inserts its jobs and
-- deletes its fan-out row in one transaction, the row locked with `skip locked`: a crash between
-- slices loses nothing and writes nothing twice (the dedup keys stay the second guard). The jobs
-- of all slices carry the enqueue's `created_at`, so the claim's fair order (created_at, seq,
-- id) still puts every subscriber's first message before anyone's second.

create table private.alert_fanout (
  id bigint generated always as identity primary key,
  scanned_at timestamptz not null,
  created_at timestamptz not null default now(),
  message_ids bigint[] not null,
  keys text[] not null,
  users uuid[] not null,
  recipients integer generated always as (cardinality(users)) stored,
  last_users uuid[] not null default '{}',
  last_caps integer[] not null default '{}',
  constraint alert_fanout_messages check (cardinality(message_ids) between 1 and 2
                                          and cardinality(keys) = cardinality(message_ids)),
  constraint alert_fanout_users check (cardinality(users) between 1 and 100000),
  constraint alert_fanout_caps check (cardinality(last_caps) = cardinality(last_users))
);
comment on table private.alert_fanout is
  'Recipients of an enqueue whose outbox jobs are still to be written: one row per slice of a group of identical alerts, written and deleted by public.write_alert_jobs (decision 0074).';
comment on column private.alert_fanout.created_at is
  'The enqueue''s time: every slice''s jobs carry it as created_at, so the claim''s fair order spans slices.';
comment on column private.alert_fanout.message_ids is
  'The group''s messages (private.alert_messages) by seq: one digest, or one or two single alerts.';
comment on column private.alert_fanout.keys is 'The dedup key tail of each message, by seq.';
comment on column private.alert_fanout.users is 'The slice''s recipients, in the order their jobs are written.';
comment on column private.alert_fanout.recipients is
  'cardinality(users), kept beside the array: counting what is pending reads no array.';
comment on column private.alert_fanout.last_users is
  'Recipients whose alert reaches their daily cap and carries the one "cap reached" notice.';
comment on column private.alert_fanout.last_caps is 'The daily cap of each of last_users, as at the enqueue.';
alter table private.alert_fanout enable row level security;
revoke all on table private.alert_fanout from public, anon, authenticated;

-- Writes the slices of up to `max_users` recipients (at least one slice; every channel and
-- message of each recipient), oldest first, skipping slices another call holds; `only_after`:
-- only fan-out rows with a larger id (an enqueue's own first slice). Answers {jobs, pending}:
-- jobs written, and recipients still waiting (of the rows it considered, held or not).
create function private.write_alert_jobs(max_users integer, only_after bigint default null) returns jsonb
  language plpgsql security definer
  set search_path = ''
as $$
declare
  f record;
  budget integer := max_users;
  added integer;
  jobs integer := 0;
  ordinal integer;
  pending integer;
begin
  for f in
    select * from private.alert_fanout a
    where only_after is null or a.id > only_after
    order by a.id
    for update skip locked
  loop
    exit when budget <= 0;
    for ordinal in 1 .. cardinality(f.message_ids) loop
      insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq, message_id, created_at)
      select 'market_alert', ch.channel, p.id, p.id || ':' || ch.channel || ':' || f.keys[ordinal],
             case when l.cap is not null
                  then jsonb_build_object('scannedAt', f.scanned_at, 'unsubscribeToken', p.alert_unsubscribe_token,
                                          'capReached', true, 'dailyCap', l.cap)
                  else jsonb_build_object('scannedAt', f.scanned_at, 'unsubscribeToken', p.alert_unsubscribe_token) end,
             ordinal, f.message_ids[ordinal], f.created_at
      from unnest(f.users) with ordinality as u (id, n)
      -- A profile deleted since the enqueue has no jobs (and its alerts no target).
      join public.profiles p on p.id = u.id
      left join unnest(f.last_users, f.last_caps) as l (id, cap) on l.id = u.id
      cross join lateral (values (1, 'email', p.email_alert), (2, 'discord', p.discord_webhook_url),
                                 (3, 'telegram', p.telegram_chat_id)) as ch (k, channel, target)
      where ch.target is not null
      order by u.n, ch.k
      on conflict (dedup_key) do nothing;
      get diagnostics added = row_count;
      jobs := jobs + added;
    end loop;
    delete from private.alert_fanout a where a.id = f.id;
    budget := budget - f.recipients;
  end loop;
  select coalesce(sum(a.recipients), 0)::integer into pending
  from private.alert_fanout a
  where only_after is null or a.id > only_after;
  if jobs > 0 then
    perform pg_catalog.pg_notify('outbox', jobs::text);
  end if;
  return jsonb_build_object('jobs', jobs, 'pending', pending);
end;
$$;
comment on function private.write_alert_jobs(integer, bigint) is
  'Writes the outbox jobs of up to max_users pending alert recipients, each slice once (decision 0074).';
revoke all on function private.write_alert_jobs(integer, bigint) from public, anon, authenticated;

-- The next slices, for the delivery worker (service role). Bad input: 22023.
create function public.write_alert_jobs(max_users integer default 5000) returns jsonb
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if max_users is null or max_users < 1 or max_users > 100000 then
    raise exception 'max_users must be between 1 and 100000 (got %)', max_users using errcode = '22023';
  end if;
  return private.write_alert_jobs(max_users, null);
end;
$$;
comment on function public.write_alert_jobs(integer) is
  'Writes the outbox jobs of up to max_users recipients an enqueue left for later slices; answers {jobs, pending} (service role; decision 0074).';
revoke all on function public.write_alert_jobs(integer) from public, anon, authenticated;
grant execute on function public.write_alert_jobs(integer) to service_role;

-- work_mem: at 100,000 subscribers the subscribers' grouping sorted on disk (23 MB external merge
-- under the default 4 MB: the `alert_subs` insert 2.8 s instead of 0.7 s).
create or replace function public.enqueue_alerts_between(since timestamptz, through timestamptz) returns jsonb
  language plpgsql security definer
  set search_path = ''
  set work_mem = '64MB'
as $$
declare
  digest_from constant integer := 3;
  digest_items constant integer := 20;
  confluence_span constant interval := interval '30 minutes';
  -- A pump is over when its symbol and direction have not alerted for cooldown + pump_gap.
  pump_gap constant interval := interval '60 minutes';
  epoch text := extract(epoch from enqueue_alerts_between.through)::text;
  crossed integer := 0;
  jobs integer := 0;
  first_fanout bigint;
  slice jsonb;
  slice_users integer;
  outcome jsonb;
  writes integer;
begin
  if through is null then
    raise exception 'through is required (the time of the newest write to enqueue)' using errcode = '22023';
  end if;
  if since is null then
    raise exception 'since is required (the time of the oldest write to enqueue)' using errcode = '22023';
  end if;
  if since > through then
    raise exception 'since (%) is after through (%)', since, through using errcode = '22023';
  end if;
  -- Write times are remembered for 7 days (below): a range reaching further back could take a
  -- write again whose record is gone.
  if since < through - interval '1 day' then
    raise exception 'a range of writes spans at most one day (since % is more than a day before through %)',
      since, through using errcode = '22023';
  end if;
  -- One enqueue at a time (state is read and written), and each write once: the writes in the
  -- range that no enqueue has taken yet (and `through` itself, as a single scan always was) are
  -- recorded here and taken by this call.
  perform pg_catalog.pg_advisory_xact_lock(7242024);
  create temp table if not exists pg_temp.alert_writes (ts timestamptz primary key) on commit drop;
  truncate pg_temp.alert_writes;
  with taken as (
    insert into private.alert_scans (scanned_at)
    select enqueue_alerts_between.through
    union
    select distinct m.ts from public.movers m
    where m.ts >= enqueue_alerts_between.since and m.ts <= enqueue_alerts_between.through
    on conflict do nothing
    returning scanned_at
  )
  insert into pg_temp.alert_writes select t.scanned_at from taken t;
  get diagnostics writes = row_count;
  if writes = 0 then
    return jsonb_build_object('alerts', 0, 'jobs', 0, 'writes', 0, 'repeated', true);
  end if;
  delete from private.alert_scans s where s.scanned_at < enqueue_alerts_between.through - interval '7 days';
  -- Marks older than the longest cooldown (1440 minutes) + pump_gap no longer hold anything back.
  delete from private.alert_state_marks k where k.last_alert_at < enqueue_alerts_between.through - interval '1500 minutes';
  -- Jobs give up within hours (decision 0020's backoff); a week-old message is nobody's.
  delete from private.alert_messages m where m.scanned_at < enqueue_alerts_between.through - interval '7 days';
  delete from private.alert_fanout f where f.scanned_at < enqueue_alerts_between.through - interval '7 days';

  create temp table if not exists pg_temp.alert_moved (
    instrument_id bigint, symbol text, exchange text, price numeric, ts timestamptz, sel text,
    pct numeric, p0 numeric, p5 numeric, p10 numeric, p15 numeric, p20 numeric, p25 numeric, p30 numeric,
    bull integer, bear integer, thin boolean, confirmed boolean, pool_name text
  ) on commit drop;
  create temp table if not exists pg_temp.alert_subs (
    user_id uuid, w integer, t numeric, ex text[], dirs text, cd integer, cm integer, step numeric,
    rules text, state_id bigint, cap integer, day date, sent integer, capped_day date,
    email text, discord text, telegram text, token uuid, thin_ok boolean, need_conf boolean, gid bigint,
    status text
  ) on commit drop;
  create temp table if not exists pg_temp.alert_groups (
    gid bigint, w integer, t numeric, ex text[], dirs text, cd integer, cm integer, step numeric,
    rules text, state_id bigint, thin_ok boolean, need_conf boolean, rep uuid, n integer, new_state bigint
  ) on commit drop;
  create temp table if not exists pg_temp.alert_ghits (
    gid bigint, instrument_id bigint, symbol text, exchange text, direction text, move numeric,
    price numeric, ts timestamptz, w integer, pool_name text
  ) on commit drop;
  create temp table if not exists pg_temp.alert_msgs (
    gid bigint, seq integer, key text, message_id bigint
  ) on commit drop;
  truncate pg_temp.alert_moved, pg_temp.alert_subs, pg_temp.alert_groups, pg_temp.alert_ghits, pg_temp.alert_msgs;

  -- The scan's movers that moved at all (1 %: the lowest threshold) on any window.
  insert into pg_temp.alert_moved
  select m.instrument_id, m.symbol, m.exchange, m.price, m.ts,
         private.exchange_selection(m.exchange, m.exchange_type, m.source),
         m.pct, m.pct_10sec, m.pct_5min, m.pct_10min, m.pct_15min, m.pct_20min, m.pct_25min, m.pct_30min, 0, 0,
         m.thin, cardinality(m.confirmed_on) > 0, m.pool_name
  from public.movers m
  where m.ts >= enqueue_alerts_between.since and m.ts <= enqueue_alerts_between.through
    and m.ts in (select w.ts from pg_temp.alert_writes w)
    and greatest(abs(m.pct), abs(coalesce(m.pct_10sec, 0)), abs(coalesce(m.pct_5min, 0)),
                 abs(coalesce(m.pct_10min, 0)), abs(coalesce(m.pct_15min, 0)), abs(coalesce(m.pct_20min, 0)),
                 abs(coalesce(m.pct_25min, 0)), abs(coalesce(m.pct_30min, 0))) >= 1;
  if not found then
    outcome := jsonb_build_object('alerts', 0, 'jobs', 0, 'writes', writes);
    update private.alert_scans s set result = outcome where s.scanned_at in (select w.ts from pg_temp.alert_writes w);
    return outcome;
  end if;

  -- Subscribers, with what decides their alerts in this scan. Quiet hours narrow the directions
  -- to dumps (when let through) or leave the user out.
  insert into pg_temp.alert_subs
  select x.*,
         dense_rank() over (order by x.w, x.t, x.ex, x.dirs, x.cd, x.cm, x.step, x.rules, x.state_id,
                                     x.thin_ok, x.need_conf),
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
           p.email_alert, p.discord_webhook_url, p.telegram_chat_id, p.alert_unsubscribe_token,
           p.alert_include_thin as thin_ok, p.alert_require_confirmation as need_conf
    from public.profiles p
    cross join lateral (
      select p.alert_quiet_start is not null
               and private.in_quiet_hours(enqueue_alerts_between.through, p.time_zone, p.alert_quiet_start, p.alert_quiet_end) as quiet,
             (enqueue_alerts_between.through at time zone coalesce(p.time_zone, 'UTC'))::date as day) q
    left join private.alert_user_state us on us.user_id = p.id
    left join (
      select sr.user_id,
             string_agg(sr.symbol || '=' || coalesce(sr.threshold::text, '')
                          || case when sr.muted_until > enqueue_alerts_between.through then ':muted' else '' end,
                        ',' order by sr.symbol) as rules
      from public.alert_symbol_rules sr
      where sr.threshold is not null or sr.muted_until > enqueue_alerts_between.through
      group by sr.user_id
    ) r on r.user_id = p.id
    where p.plan = 'enterprise' and p.subscription_active and not p.banned
      and (p.email_alert is not null or p.discord_webhook_url is not null or p.telegram_chat_id is not null)
      -- Quiet hours narrow the directions to dumps (when let through) or leave the user out.
      and (not q.quiet or (p.alert_quiet_dumps and p.alert_directions in ('dump', 'both')))
  ) x;

  -- Groups: users whose alerts in this scan are necessarily the same.
  insert into pg_temp.alert_groups
  select s.gid, s.w, s.t, s.ex, s.dirs, s.cd, s.cm, s.step, s.rules, s.state_id, s.thin_ok, s.need_conf,
         min(s.user_id::text)::uuid, 0, null
  from pg_temp.alert_subs s
  group by s.gid, s.w, s.t, s.ex, s.dirs, s.cd, s.cm, s.step, s.rules, s.state_id, s.thin_ok, s.need_conf;

  -- Confluence: the strategies agreeing with each mover, counted once per mover.
  if exists (select 1 from pg_temp.alert_groups g where g.cm > 0) then
    update pg_temp.alert_moved m set
      bull = (select count(distinct g.strategy) from public.strategy_signals g
              where g.symbol = m.symbol and g.exchange = m.exchange and g.signal = 'bullish'
                and g.computed_at > enqueue_alerts_between.through - confluence_span),
      bear = (select count(distinct g.strategy) from public.strategy_signals g
              where g.symbol = m.symbol and g.exchange = m.exchange and g.signal = 'bearish'
                and g.computed_at > enqueue_alerts_between.through - confluence_span);
  end if;

  -- The crossings, once per group: threshold (own per symbol, else the user's), mute, direction,
  -- confluence, and the group's state (cooldown; within a pump the escalation step, or without
  -- one a new move of the threshold since the alerted price).
  insert into pg_temp.alert_ghits
  select g.gid, m.instrument_id, m.symbol, m.exchange, d.direction, round(mv.move, 2), m.price, m.ts, g.w,
         m.pool_name
  from pg_temp.alert_groups g
  join pg_temp.alert_moved m on m.sel = any (g.ex)
  cross join lateral (select coalesce(case g.w when 0 then m.p0 when 5 then m.p5 when 10 then m.p10
                                               when 15 then m.p15 when 20 then m.p20 when 25 then m.p25
                                               when 30 then m.p30 end, m.pct) as move) mv
  cross join lateral (select case when mv.move > 0 then 'pump' else 'dump' end as direction) d
  left join public.alert_symbol_rules r on r.user_id = g.rep and r.symbol = m.symbol
  where (r.muted_until is null or r.muted_until <= enqueue_alerts_between.through)
    and abs(mv.move) >= coalesce(r.threshold, g.t)
    and (g.dirs = 'both' or g.dirs = d.direction)
    -- Issue 26: thin moves only for those who opted in; unconfirmed ones not for those who
    -- require confirmation (decision 0046).
    and (g.thin_ok or not m.thin)
    and (not g.need_conf or m.confirmed)
    and (g.cm = 0 or (case d.direction when 'pump' then m.bull else m.bear end) >= g.cm)
    and not exists (
      select 1 from private.alert_state_marks k
      where k.state_id = g.state_id and k.instrument_id = m.instrument_id and k.direction = d.direction
        and k.last_alert_at > enqueue_alerts_between.through - make_interval(mins => g.cd) - pump_gap
        and (k.last_alert_at > enqueue_alerts_between.through - make_interval(mins => g.cd)
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
    and k.last_alert_at > enqueue_alerts_between.through - make_interval(mins => g.cd) - pump_gap
    and not exists (select 1 from pg_temp.alert_ghits h
                    where h.gid = g.gid and h.instrument_id = k.instrument_id and h.direction = k.direction)
  union all
  select g.new_state, h.instrument_id, h.direction, h.price, h.move, enqueue_alerts_between.through
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
    outcome := jsonb_build_object('alerts', 0, 'jobs', 0, 'writes', writes);
    update private.alert_scans s set result = outcome where s.scanned_at in (select w.ts from pg_temp.alert_writes w);
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
             'price', r.price, 'ts', r.ts, 'poolName', r.pool_name) as item, r.instrument_id, r.direction
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
    select enqueue_alerts_between.through, b.payload || jsonb_build_object('gid', b.gid, 'seq', b.seq) from built b
    returning id, payload
  )
  insert into pg_temp.alert_msgs
  select (st.payload ->> 'gid')::bigint, (st.payload ->> 'seq')::int, b.key, st.id
  from stored st join built b on b.gid = (st.payload ->> 'gid')::bigint and b.seq = (st.payload ->> 'seq')::int;
  update private.alert_messages m set payload = m.payload - 'gid' - 'seq'
  where m.id in (select a.message_id from pg_temp.alert_msgs a);

  -- The recipients of each group's messages, in slices of slice_users (decision 0074): the first
  -- slice of every group before any group's second. This call writes the first slice in its own
  -- transaction, so the first jobs are claimable when it commits; public.write_alert_jobs writes
  -- the rest (the delivery worker calls it beside its claims), each slice in one transaction.
  slice_users := coalesce(nullif(pg_catalog.current_setting('moverscan.alert_slice', true), '')::integer, 1000);
  select coalesce(max(f.id), 0) into first_fanout from private.alert_fanout f;
  insert into private.alert_fanout (scanned_at, message_ids, keys, users, last_users, last_caps)
  select enqueue_alerts_between.through, m.ids, m.keys, array_agg(r.user_id order by r.user_id),
         coalesce(array_agg(r.user_id order by r.user_id) filter (where r.status = 'last'), '{}'),
         coalesce(array_agg(r.cap order by r.user_id) filter (where r.status = 'last'), '{}')
  from (select s.gid, s.user_id, s.status, s.cap,
               (row_number() over (partition by s.gid order by s.user_id) - 1) / slice_users as part
        from pg_temp.alert_subs s where s.status in ('alert', 'last')) r
  join (select a.gid, array_agg(a.message_id order by a.seq) as ids, array_agg(a.key order by a.seq) as keys
        from pg_temp.alert_msgs a group by a.gid) m on m.gid = r.gid
  join pg_temp.alert_groups g on g.gid = r.gid and g.new_state is not null
  group by r.part, r.gid, m.ids, m.keys
  order by r.part, r.gid;
  slice := private.write_alert_jobs(slice_users, first_fanout);
  jobs := (slice ->> 'jobs')::integer;

  outcome := jsonb_build_object('alerts', crossed, 'jobs', jobs, 'writes', writes);
  -- Recipients of this call whose jobs later slices write (absent when none: the answer of a
  -- call that wrote everything is as before).
  if (slice ->> 'pending')::integer > 0 then
    outcome := outcome || jsonb_build_object('pending', (slice ->> 'pending')::integer);
  end if;
  update private.alert_scans s set result = outcome where s.scanned_at in (select w.ts from pg_temp.alert_writes w);
  return outcome;
end;
$$;


comment on function public.enqueue_alerts_between(timestamptz, timestamptz) is
  'The movers of every write in [since, through] not yet enqueued become outbox jobs, each write once; rules applied at through; the first slice of jobs written, the rest left to write_alert_jobs (service role; decisions 0069, 0074).';
