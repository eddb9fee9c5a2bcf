-- Alert delivery (issue 14, decision 0020): detection in the database, delivery outside it.
--
--   * private.outbox: a generic transactional outbox (a job kind, a channel, a payload, a unique
--     dedup key). Market alerts are enqueued by public.enqueue_alerts right after each scan's
--     ingest; ticket e-mails by triggers in the transaction of the reply or status change.
--   * Workers (the deliver-alerts edge function) claim due jobs with `for update skip locked`
--     (PGlite, Postgres 15 and hosted Supabase alike), send them, then complete or fail them.
--     A claim is a lease: a worker that dies mid-send leaves the job to be claimed again once the
--     lease runs out; a late answer of the dead worker is refused (claimed_by no longer matches).
--   * The recipient is resolved when the job is claimed, not when it is enqueued: a plan change,
--     a ban or a cleared channel stops pending alerts at once.
--   * No spam: per user, instrument and direction a mark (private.alert_marks) holds the last
--     alert's price and time; a new alert needs the cooldown to have passed and a new move of at
--     least the threshold since that price. Three or more symbols at once become one digest.

-- ---------------------------------------------------------------------------------------------
-- 1. Preferences
-- ---------------------------------------------------------------------------------------------
alter table public.profiles
  add column alert_directions text not null default 'pump',
  add column alert_cooldown_minutes integer not null default 15,
  add column alert_confluence_min integer not null default 0,
  add column alert_unsubscribe_token uuid not null default gen_random_uuid(),
  add column locale text,
  add constraint profiles_alert_directions_values check (alert_directions in ('pump', 'dump', 'both')),
  add constraint profiles_alert_cooldown_range check (alert_cooldown_minutes between 15 and 1440),
  add constraint profiles_alert_confluence_range check (alert_confluence_min = 0 or alert_confluence_min between 2 and 5),
  add constraint profiles_locale_values check (locale is null or locale in ('de', 'en', 'fr', 'es')),
  add constraint profiles_alert_unsubscribe_token_key unique (alert_unsubscribe_token);
comment on column public.profiles.alert_directions is 'Market alerts for rises (pump), falls (dump) or both.';
comment on column public.profiles.alert_cooldown_minutes is 'Minimum pause between two alerts for one symbol and direction.';
comment on column public.profiles.alert_confluence_min is '0: off; else the number of agreeing strategy signals an alert needs.';
comment on column public.profiles.locale is 'The interface language, used for e-mails (null: English).';

grant update (alert_directions, alert_cooldown_minutes, alert_confluence_min, locale) on public.profiles to authenticated;

-- Per-symbol thresholds and mutes of one user.
create table public.alert_symbol_rules (
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  symbol text not null check (char_length(symbol) between 1 and 64 and symbol !~ '[[:space:]]'),
  threshold numeric(5, 1) check (threshold between 1 and 100),
  muted_until timestamptz,
  updated_at timestamptz not null default now(),
  primary key (user_id, symbol),
  constraint alert_symbol_rules_not_empty check (threshold is not null or muted_until is not null)
);
comment on table public.alert_symbol_rules is 'A user''s own alert threshold for a symbol, and mutes until a time.';
alter table public.alert_symbol_rules enable row level security;
grant select, insert, update, delete on public.alert_symbol_rules to authenticated;
revoke all on public.alert_symbol_rules from anon;

create policy "alert symbol rules: subscribers read their own" on public.alert_symbol_rules
  for select to authenticated using (user_id = (select auth.uid()));
create policy "alert symbol rules: subscribers add their own" on public.alert_symbol_rules
  for insert to authenticated with check (user_id = (select auth.uid()) and (select private.has_active_plan()));
create policy "alert symbol rules: subscribers change their own" on public.alert_symbol_rules
  for update to authenticated using (user_id = (select auth.uid()) and (select private.has_active_plan()))
  with check (user_id = (select auth.uid()));
create policy "alert symbol rules: users delete their own" on public.alert_symbol_rules
  for delete to authenticated using (user_id = (select auth.uid()) and (select private.is_active_user()));

-- Mute a symbol for 15, 60 or 1440 minutes (from an alert's link or the dashboard).
create function public.mute_alert_symbol(symbol text, minutes integer)
returns timestamptz
  language plpgsql security definer
  set search_path = ''
as $$
declare
  until timestamptz;
begin
  if (select auth.uid()) is null or not private.has_active_plan() then
    raise exception 'An active subscription is required to mute alerts'
      using errcode = '42501', detail = 'alerts_need_subscription';
  end if;
  if minutes is null or minutes not in (15, 60, 1440) then
    raise exception 'A symbol can be muted for 15, 60 or 1440 minutes'
      using errcode = '22023', detail = 'mute_duration_invalid';
  end if;
  if symbol is null or char_length(symbol) not between 1 and 64 or symbol ~ '[[:space:]]' then
    raise exception 'Unknown symbol' using errcode = '22023', detail = 'mute_symbol_invalid';
  end if;
  until := now() + make_interval(mins => minutes);
  insert into public.alert_symbol_rules as r (user_id, symbol, muted_until)
  values ((select auth.uid()), mute_alert_symbol.symbol, until)
  on conflict on constraint alert_symbol_rules_pkey
    do update set muted_until = excluded.muted_until, updated_at = now();
  return until;
end;
$$;
revoke execute on function public.mute_alert_symbol(text, integer) from public, anon;
grant execute on function public.mute_alert_symbol(text, integer) to authenticated;

-- One-click unsubscribe (the token in every alert e-mail): e-mail alerts stop; the account's
-- Discord and Telegram settings are kept. Callable without a session, like the link.
create function public.unsubscribe_alert_email(token uuid)
returns boolean
  language plpgsql security definer
  set search_path = ''
as $$
declare
  n integer;
begin
  update public.profiles p set email_alert = null
  where p.alert_unsubscribe_token = unsubscribe_alert_email.token and p.email_alert is not null;
  get diagnostics n = row_count;
  return n > 0 or exists (select 1 from public.profiles p where p.alert_unsubscribe_token = unsubscribe_alert_email.token);
end;
$$;
revoke execute on function public.unsubscribe_alert_email(uuid) from public;
grant execute on function public.unsubscribe_alert_email(uuid) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- 2. What was sent: users read their own alerts, admins all of them
-- ---------------------------------------------------------------------------------------------
alter table public.alerts_sent
  add column user_id uuid references public.profiles (id) on delete set null,
  add column channel text check (channel in ('email', 'discord', 'telegram')),
  add column window_minutes integer,
  add column direction text check (direction in ('pump', 'dump'));
create index alerts_sent_user_idx on public.alerts_sent (user_id, created_at desc);

drop policy "alerts: admins read" on public.alerts_sent;
create policy "alerts: users read their own, admins all" on public.alerts_sent
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- 3. The outbox
-- ---------------------------------------------------------------------------------------------
create table private.outbox (
  id bigint generated always as identity primary key,
  kind text not null check (kind ~ '^[a-z][a-z_]{0,39}$'),
  channel text not null check (channel in ('email', 'discord', 'telegram')),
  user_id uuid references public.profiles (id) on delete cascade,
  dedup_key text not null unique check (char_length(dedup_key) between 1 and 300),
  payload jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed', 'cancelled')),
  attempts integer not null default 0,
  -- pending: when the job is due; sending: when the claim's lease runs out.
  next_attempt_at timestamptz not null default now(),
  claimed_by text,
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
comment on table private.outbox is 'Messages to the outside world (alerts, service e-mails), delivered by the deliver-alerts workers.';
create index outbox_due_idx on private.outbox (next_attempt_at, id) where status in ('pending', 'sending');
alter table private.outbox enable row level security;
revoke all on private.outbox from anon, authenticated;

create table private.alert_marks (
  user_id uuid not null references public.profiles (id) on delete cascade,
  instrument_id bigint not null references public.instruments (id) on delete cascade,
  direction text not null check (direction in ('pump', 'dump')),
  last_price numeric not null,
  last_alert_at timestamptz not null,
  primary key (user_id, instrument_id, direction)
);
comment on table private.alert_marks is 'The last alert per user, instrument and direction (cooldown and re-move rule).';
alter table private.alert_marks enable row level security;
revoke all on private.alert_marks from anon, authenticated;

-- Which selected_exchanges value a mover belongs to (as selectionOf in _shared/domain/market.ts).
create function private.exchange_selection(exchange text, exchange_type public.exchange_type, source text)
returns text
  language sql immutable
  set search_path = ''
as $$
  select case when exchange_type = 'dex' then 'dex'
              when source = 'coinbase' or exchange ~* '^\s*coinbase\M' then 'coinbase'
              else 'cex-major' end;
$$;
revoke execute on function private.exchange_selection(text, public.exchange_type, text) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- 4. Detection: after each scan
-- ---------------------------------------------------------------------------------------------
create function public.enqueue_alerts(scanned_at timestamptz)
returns jsonb
  language plpgsql security definer
  set search_path = ''
as $$
declare
  digest_from constant integer := 3;
  digest_items constant integer := 20;
  confluence_span constant interval := interval '30 minutes';
  crossed integer;
  jobs integer;
begin
  if scanned_at is null then
    raise exception 'scanned_at is required' using errcode = '22023';
  end if;

  create temp table if not exists pg_temp.alert_hits (
    user_id uuid, instrument_id bigint, symbol text, exchange text, direction text, pct numeric,
    window_minutes integer, price numeric, ts timestamptz, email text, discord text, telegram text, token uuid
  ) on commit drop;
  truncate pg_temp.alert_hits;

  with subscribers as (
    select p.id, p.selected_window_minutes as w, p.user_threshold as t, p.selected_exchanges as ex,
           p.alert_directions as dir, p.alert_cooldown_minutes as cd, p.alert_confluence_min as cm,
           p.email_alert, p.discord_webhook_url, p.telegram_chat_id, p.alert_unsubscribe_token
    from public.profiles p
    where p.plan = 'enterprise' and p.subscription_active and not p.banned
      and (p.email_alert is not null or p.discord_webhook_url is not null or p.telegram_chat_id is not null)
  ),
  moved as (
    select m.instrument_id, m.symbol, m.exchange, m.price, m.ts,
           private.exchange_selection(m.exchange, m.exchange_type, m.source) as sel,
           m.pct, m.pct_10sec, m.pct_5min, m.pct_10min, m.pct_15min, m.pct_20min, m.pct_25min, m.pct_30min
    from public.movers m
    where m.ts = enqueue_alerts.scanned_at
      and greatest(abs(m.pct), abs(coalesce(m.pct_10sec, 0)), abs(coalesce(m.pct_5min, 0)),
                   abs(coalesce(m.pct_10min, 0)), abs(coalesce(m.pct_15min, 0)), abs(coalesce(m.pct_20min, 0)),
                   abs(coalesce(m.pct_25min, 0)), abs(coalesce(m.pct_30min, 0))) >= 1
  ),
  candidates as (
    select s.*, m.instrument_id, m.symbol, m.exchange, m.price, m.ts,
           coalesce(case s.w when 0 then m.pct_10sec when 5 then m.pct_5min when 10 then m.pct_10min
                             when 15 then m.pct_15min when 20 then m.pct_20min when 25 then m.pct_25min
                             when 30 then m.pct_30min end, m.pct) as move,
           coalesce(r.threshold, s.t) as thr
    from subscribers s
    join moved m on m.sel = any (s.ex)
    left join public.alert_symbol_rules r on r.user_id = s.id and r.symbol = m.symbol
    where r.muted_until is null or r.muted_until <= enqueue_alerts.scanned_at
  ),
  hits as (
    select c.*, case when c.move > 0 then 'pump' else 'dump' end as direction
    from candidates c
    where abs(c.move) >= c.thr
      and (c.dir = 'both' or (c.dir = 'pump' and c.move > 0) or (c.dir = 'dump' and c.move < 0))
  )
  insert into pg_temp.alert_hits
  select h.id, h.instrument_id, h.symbol, h.exchange, h.direction, round(h.move, 2), h.w, h.price, h.ts,
         h.email_alert, h.discord_webhook_url, h.telegram_chat_id, h.alert_unsubscribe_token
  from hits h
  left join private.alert_marks k
    on k.user_id = h.id and k.instrument_id = h.instrument_id and k.direction = h.direction
  where (k.user_id is null
         or (k.last_alert_at <= enqueue_alerts.scanned_at - make_interval(mins => h.cd)
             and abs(h.price - k.last_price) / nullif(k.last_price, 0) * 100 >= h.thr))
    and (h.cm = 0 or (
      select count(distinct g.strategy) from public.strategy_signals g
      where g.symbol = h.symbol and g.exchange = h.exchange
        and g.computed_at > enqueue_alerts.scanned_at - confluence_span
        and g.signal = case when h.direction = 'pump' then 'bullish' else 'bearish' end::public.signal_direction
    ) >= h.cm);
  get diagnostics crossed = row_count;

  if crossed = 0 then
    return jsonb_build_object('alerts', 0, 'jobs', 0);
  end if;

  insert into private.alert_marks as k (user_id, instrument_id, direction, last_price, last_alert_at)
  select a.user_id, a.instrument_id, a.direction, a.price, enqueue_alerts.scanned_at from pg_temp.alert_hits a
  on conflict (user_id, instrument_id, direction)
    do update set last_price = excluded.last_price, last_alert_at = excluded.last_alert_at;

  -- A digest lists the digest_items largest moves and counts the rest (a message cannot show
  -- 200 symbols: Telegram stops at 4,096 characters, a Discord embed at 4,096).
  with ranked as (
    select a.*, row_number() over (partition by a.user_id order by abs(a.pct) desc, a.symbol) as rk,
           count(*) over (partition by a.user_id) as n
    from pg_temp.alert_hits a
  ),
  per_user as (
    select r.user_id, max(r.n) as n,
           jsonb_agg(jsonb_build_object(
             'instrumentId', r.instrument_id, 'symbol', r.symbol, 'exchange', r.exchange,
             'direction', r.direction, 'pct', r.pct, 'windowMinutes', r.window_minutes,
             'price', r.price, 'ts', r.ts) order by r.rk) as items,
           max(r.email) as email, max(r.discord) as discord, max(r.telegram) as telegram,
           (array_agg(r.token))[1] as token
    from ranked r where r.rk <= digest_items group by r.user_id
  ),
  messages as (
    -- Below digest_from symbols: one message per symbol; from digest_from on: one digest.
    select u.user_id, u.email, u.discord, u.telegram, u.token, u.n,
           'digest' as shape, u.items, 'digest:' || extract(epoch from enqueue_alerts.scanned_at)::text as key
    from per_user u where u.n >= digest_from
    union all
    select u.user_id, u.email, u.discord, u.telegram, u.token, 1, 'single', jsonb_build_array(i.item),
           'alert:' || (i.item ->> 'instrumentId') || ':' || (i.item ->> 'direction') || ':'
             || extract(epoch from enqueue_alerts.scanned_at)::text
    from per_user u cross join lateral jsonb_array_elements(u.items) as i (item) where u.n < digest_from
  )
  insert into private.outbox (kind, channel, user_id, dedup_key, payload)
  select 'market_alert', ch.channel, m.user_id, m.user_id || ':' || ch.channel || ':' || m.key,
         jsonb_build_object('shape', m.shape, 'items', m.items, 'total', m.n,
                            'scannedAt', enqueue_alerts.scanned_at, 'unsubscribeToken', m.token)
  from messages m
  cross join lateral (values ('email', m.email), ('discord', m.discord), ('telegram', m.telegram)) as ch (channel, target)
  where ch.target is not null
  order by m.user_id
  on conflict (dedup_key) do nothing;
  get diagnostics jobs = row_count;

  if jobs > 0 then
    perform pg_catalog.pg_notify('outbox', jobs::text);
  end if;
  return jsonb_build_object('alerts', crossed, 'jobs', jobs);
end;
$$;
comment on function public.enqueue_alerts(timestamptz) is
  'After a scan: the movers that cross each subscriber''s threshold become outbox jobs (service role).';
revoke execute on function public.enqueue_alerts(timestamptz) from public, anon, authenticated;
grant execute on function public.enqueue_alerts(timestamptz) to service_role;

-- ---------------------------------------------------------------------------------------------
-- 5. Delivery: claim, complete, fail
-- ---------------------------------------------------------------------------------------------
-- Where a job goes now, or null when its recipient may no longer receive it.
create function private.outbox_target(kind text, channel text, user_id uuid)
returns text
  language sql stable security definer
  set search_path = ''
as $$
  select case
    when kind = 'market_alert' then (
      select case channel when 'email' then p.email_alert when 'discord' then p.discord_webhook_url
                          when 'telegram' then p.telegram_chat_id end
      from public.profiles p
      where p.id = outbox_target.user_id and p.plan = 'enterprise' and p.subscription_active and not p.banned)
    -- Service e-mails (tickets): to the account's address, whatever the plan.
    when channel = 'email' then (
      select nullif(p.email, '') from public.profiles p where p.id = outbox_target.user_id)
  end;
$$;
revoke execute on function private.outbox_target(text, text, uuid) from public, anon, authenticated;

create function public.claim_outbox(worker text, max_jobs integer default 50, lease_seconds integer default 60)
returns table (id bigint, kind text, channel text, attempts integer, payload jsonb, target text, locale text)
  language plpgsql security definer
  set search_path = ''
as $$
declare
  r record;
begin
  if worker is null or char_length(worker) not between 1 and 100 then
    raise exception 'worker must name the worker (1-100 characters)' using errcode = '22023';
  end if;
  max_jobs := least(greatest(coalesce(max_jobs, 50), 1), 500);
  lease_seconds := least(greatest(coalesce(lease_seconds, 60), 5), 900);
  for r in
    with due as (
      select o.id from private.outbox o
      where o.status in ('pending', 'sending') and o.next_attempt_at <= now()
      order by o.next_attempt_at, o.id
      limit max_jobs
      for update skip locked
    )
    update private.outbox o
      set status = 'sending', attempts = o.attempts + 1, claimed_by = worker,
          next_attempt_at = now() + make_interval(secs => lease_seconds)
    from due where o.id = due.id
    returning o.id, o.kind, o.channel, o.attempts, o.payload, o.user_id,
              private.outbox_target(o.kind, o.channel, o.user_id) as target
  loop
    if r.target is null then
      update private.outbox o set status = 'cancelled', last_error = 'The recipient may no longer receive this message.'
      where o.id = r.id;
    else
      id := r.id; kind := r.kind; channel := r.channel; attempts := r.attempts; payload := r.payload;
      target := r.target;
      locale := (select p.locale from public.profiles p where p.id = r.user_id);
      return next;
    end if;
  end loop;
end;
$$;
revoke execute on function public.claim_outbox(text, integer, integer) from public, anon, authenticated;
grant execute on function public.claim_outbox(text, integer, integer) to service_role;

-- The job was handed over. Market alerts are recorded in alerts_sent, one row per symbol.
create function public.complete_outbox(job_id bigint, worker text, recipient text default null)
returns boolean
  language plpgsql security definer
  set search_path = ''
as $$
declare
  job private.outbox;
begin
  update private.outbox o set status = 'sent', sent_at = now(), last_error = null
  where o.id = job_id and o.status = 'sending' and o.claimed_by = worker
  returning o.* into job;
  if not found then
    return false;
  end if;
  if job.kind = 'market_alert' then
    insert into public.alerts_sent (symbol, exchange, pct, price, ts, recipient, hash, user_id, channel,
                                    window_minutes, direction)
    select i ->> 'symbol', i ->> 'exchange', (i ->> 'pct')::numeric, (i ->> 'price')::numeric,
           (i ->> 'ts')::timestamptz, coalesce(recipient, job.channel), md5(job.dedup_key || ':' || (i ->> 'instrumentId')),
           job.user_id, job.channel, (i ->> 'windowMinutes')::integer, i ->> 'direction'
    from jsonb_array_elements(job.payload -> 'items') i
    on conflict (hash) do nothing;
  end if;
  return true;
end;
$$;
revoke execute on function public.complete_outbox(bigint, text, text) from public, anon, authenticated;
grant execute on function public.complete_outbox(bigint, text, text) to service_role;

-- Several completions in one call (a worker flushes what it handed over per claimed batch):
-- [{ "id": 1, "recipient": "..." }, ...]; returns how many were accepted.
create function public.complete_outbox_batch(worker text, results jsonb)
returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  r record;
  n integer := 0;
begin
  if results is null or jsonb_typeof(results) <> 'array' then
    raise exception 'results must be a JSON array of {id, recipient}' using errcode = '22023';
  end if;
  for r in
    select (e ->> 'id')::bigint as id, e ->> 'recipient' as recipient
    from jsonb_array_elements(results) e
    where jsonb_typeof(e -> 'id') = 'number'
    order by 1
  loop
    if public.complete_outbox(r.id, worker, r.recipient) then
      n := n + 1;
    end if;
  end loop;
  return n;
end;
$$;
revoke execute on function public.complete_outbox_batch(text, jsonb) from public, anon, authenticated;
grant execute on function public.complete_outbox_batch(text, jsonb) to service_role;

-- The send failed: retried with exponential backoff (5 s, 10 s, 20 s, ... at most 10 min, or the
-- channel's retry_after when longer), given up after 8 attempts or at once when permanent.
create function public.fail_outbox(job_id bigint, worker text, error text, retry_after_seconds numeric default null,
                                   permanent boolean default false)
returns text
  language plpgsql security definer
  set search_path = ''
as $$
declare
  result text;
begin
  update private.outbox o
    set status = case when permanent or o.attempts >= 8 then 'failed' else 'pending' end,
        last_error = left(coalesce(error, 'unknown error'), 500),
        next_attempt_at = now() + make_interval(secs => greatest(
          coalesce(retry_after_seconds, 0), least(600, 5 * power(2, greatest(o.attempts - 1, 0))))::double precision)
  where o.id = job_id and o.status = 'sending' and o.claimed_by = worker
  returning o.status into result;
  return result;
end;
$$;
revoke execute on function public.fail_outbox(bigint, text, text, numeric, boolean) from public, anon, authenticated;
grant execute on function public.fail_outbox(bigint, text, text, numeric, boolean) to service_role;

-- Telegram said the group became a supergroup (migrate_to_chat_id): follow it.
create function public.move_telegram_chat(old_chat_id text, new_chat_id text)
returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  n integer;
begin
  if new_chat_id is null or new_chat_id !~ '^-?[0-9]{1,20}$' then
    raise exception 'new_chat_id must be a numeric chat id' using errcode = '22023';
  end if;
  update public.profiles p set telegram_chat_id = new_chat_id where p.telegram_chat_id = old_chat_id;
  get diagnostics n = row_count;
  return n;
end;
$$;
revoke execute on function public.move_telegram_chat(text, text) from public, anon, authenticated;
grant execute on function public.move_telegram_chat(text, text) to service_role;

-- ---------------------------------------------------------------------------------------------
-- 6. Ticket e-mails (service e-mails, any plan): an admin reply, a status change
-- ---------------------------------------------------------------------------------------------
create function private.enqueue_ticket_reply_email() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  t public.support_tickets;
begin
  select * into t from public.support_tickets s where s.id = new.ticket_id;
  if not found or t.user_id = new.sender_id then
    return null;
  end if;
  insert into private.outbox (kind, channel, user_id, dedup_key, payload)
  values ('ticket_reply', 'email', t.user_id, 'ticket-reply:' || new.id,
          jsonb_build_object('ticketId', t.id, 'ticketNumber', t.ticket_number, 'subject', t.subject,
                             'status', t.status, 'excerpt', left(new.content, 500)))
  on conflict (dedup_key) do nothing;
  perform pg_catalog.pg_notify('outbox', '1');
  return null;
end;
$$;
revoke execute on function private.enqueue_ticket_reply_email() from public, anon, authenticated;
create trigger ticket_messages_notify_owner after insert on public.ticket_messages
  for each row when (new.is_admin_reply) execute function private.enqueue_ticket_reply_email();

-- Several status changes before the e-mail leaves make one e-mail with the latest status.
create function private.enqueue_ticket_status_email() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  update private.outbox o
    set payload = o.payload || jsonb_build_object('status', new.status)
  where o.dedup_key like 'ticket-status:' || new.id || ':%' and o.status = 'pending' and o.attempts = 0;
  if not found then
    insert into private.outbox (kind, channel, user_id, dedup_key, payload)
    values ('ticket_status', 'email', new.user_id,
            'ticket-status:' || new.id || ':' || (extract(epoch from clock_timestamp()) * 1000000)::bigint,
            jsonb_build_object('ticketId', new.id, 'ticketNumber', new.ticket_number, 'subject', new.subject,
                               'status', new.status, 'previousStatus', old.status))
    on conflict (dedup_key) do nothing;
    perform pg_catalog.pg_notify('outbox', '1');
  end if;
  return null;
end;
$$;
revoke execute on function private.enqueue_ticket_status_email() from public, anon, authenticated;
create trigger support_tickets_notify_status after update of status on public.support_tickets
  for each row when (old.status is distinct from new.status) execute function private.enqueue_ticket_status_email();

-- ---------------------------------------------------------------------------------------------
-- 7. The delivery schedule on a hosted project (as the scan's, migration 20261121001000): pg_cron
--    POSTs deliver-alerts with pg_net every 15 seconds, for retries and ticket e-mails (the scan
--    wakes the worker itself after enqueuing alerts). Settings in private.app_settings:
--    delivery_url (…/functions/v1/deliver-alerts) and scan_secret (the bearer both accept).
--    Where pg_cron or pg_net is missing, the local stack's runner does this instead.
-- ---------------------------------------------------------------------------------------------
create function private.invoke_delivery() returns bigint
  language plpgsql security definer
  set search_path = ''
as $$
declare
  url text;
  secret text;
  request_id bigint;
begin
  select max(s.value) filter (where s.key = 'delivery_url'), max(s.value) filter (where s.key = 'scan_secret')
    into url, secret
  from private.app_settings s
  where s.key in ('delivery_url', 'scan_secret');
  if coalesce(url, '') = '' or coalesce(secret, '') = ''
     or not exists (select 1 from pg_catalog.pg_extension where extname = 'pg_net') then
    return null;
  end if;
  execute 'select net.http_post(url := $1, body := $2, headers := $3, timeout_milliseconds := $4)'
    into request_id
    using url, '{}'::jsonb,
          jsonb_build_object('Authorization', 'Bearer ' || secret, 'Content-Type', 'application/json'), 30000;
  return request_id;
end;
$$;

create function private.schedule_delivery() returns bigint
  language plpgsql security definer
  set search_path = ''
as $$
declare
  job bigint;
begin
  if not exists (select 1 from pg_catalog.pg_extension where extname = 'pg_cron')
     or not exists (select 1 from pg_catalog.pg_extension where extname = 'pg_net') then
    raise exception 'Scheduling alert delivery needs the pg_cron and pg_net extensions'
      using errcode = '55000',
            hint = 'Enable pg_cron and pg_net, then run select private.schedule_delivery(). The local stack runs the worker itself.';
  end if;
  execute 'select cron.unschedule(j.jobid) from cron.job j where j.jobname = $1' using 'deliver-alerts';
  execute 'select cron.schedule($1, $2, $3)' into job using 'deliver-alerts', '15 seconds', 'select private.invoke_delivery()';
  return job;
end;
$$;
revoke execute on function private.invoke_delivery(), private.schedule_delivery() from public, anon, authenticated;
grant execute on function private.schedule_delivery() to service_role;

do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'pg_cron')
     and exists (select 1 from pg_catalog.pg_extension where extname = 'pg_net') then
    begin
      perform private.schedule_delivery();
    exception when others then
      raise notice 'Alert delivery is not scheduled: % (%)', sqlerrm, sqlstate;
    end;
  end if;
end;
$$;
