-- Alert delivery at each channel's own speed, without double sends (issue 24, decision 0031).
--
--   * `in_doubt`, a new outbox status: Discord and Telegram have no idempotency key (and neither
--     has plain SMTP), so a worker records `send_started_at` for such a job BEFORE its request
--     (`public.begin_outbox_sends`). A job whose lease ran out while it was being sent is not
--     re-sent blindly: the next claim turns it into `in_doubt` (it may have arrived). Jobs sent
--     through Resend keep their Idempotency-Key and are simply claimed again.
--   * Fair order: claims take due jobs by (created_at, user_seq, id); `user_seq` is the job's
--     ordinal among its user's jobs of one scan (1 = the first), so nobody's second alert goes
--     before another subscriber's first.
--   * `public.admin_alert_delivery_stats()`: the last hour's delivery per channel for the admin
--     panel's Alerts tab (admins only).

alter table private.outbox add column if not exists user_seq integer not null default 1;
alter table private.outbox add column if not exists send_started_at timestamptz;

alter table private.outbox drop constraint if exists outbox_status_check;
alter table private.outbox add constraint outbox_status_check
  check (status in ('pending', 'sending', 'sent', 'failed', 'cancelled', 'in_doubt'));

comment on column private.outbox.user_seq is
  'The job''s ordinal among its user''s jobs of one scan (1 = the first): claims serve every user''s first job before anyone''s second.';
comment on column private.outbox.send_started_at is
  'Set just before the request of a channel without an idempotency key; a lease that ends after it makes the job in_doubt.';

create index if not exists outbox_fair_idx on private.outbox (channel, created_at, user_seq, id)
  where status in ('pending', 'sending');
create index if not exists outbox_recent_idx on private.outbox (channel, created_at)
  where status in ('sent', 'failed', 'in_doubt');

-- ---------------------------------------------------------------------------------------------
-- Claim: fair order; a lease that ended mid-send makes the job in_doubt instead of due again.
-- ---------------------------------------------------------------------------------------------
-- `only_channel` lets a worker claim for one channel at a time, so a channel with a shared
-- limit (one Telegram bot) never holds back one without (each subscriber's own webhook).
drop function public.claim_outbox(text, integer, integer);
create function public.claim_outbox(worker text, max_jobs integer default 50, lease_seconds integer default 60,
                                    only_channel text default null)
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
  if only_channel is not null and only_channel not in ('email', 'discord', 'telegram') then
    raise exception 'only_channel must be email, discord or telegram' using errcode = '22023';
  end if;
  max_jobs := least(greatest(coalesce(max_jobs, 50), 1), 1000);
  lease_seconds := least(greatest(coalesce(lease_seconds, 60), 5), 900);
  -- A worker died (or stalled past its lease) after it started sending these: they may have
  -- arrived, and their channel cannot tell, so they are recorded as such and not sent again.
  update private.outbox o
    set status = 'in_doubt',
        last_error = 'The worker stopped while sending this message; it may have arrived, so it is not sent again.'
  where o.status = 'sending' and o.next_attempt_at <= now() and o.send_started_at is not null;
  for r in
    with due as (
      select o.id from private.outbox o
      where o.status in ('pending', 'sending') and o.next_attempt_at <= now()
        and (only_channel is null or o.channel = only_channel)
      order by o.created_at, o.user_seq, o.id
      limit max_jobs
      for update skip locked
    )
    update private.outbox o
      set status = 'sending', attempts = o.attempts + 1, claimed_by = worker, send_started_at = null,
          next_attempt_at = now() + make_interval(secs => lease_seconds)
    from due where o.id = due.id
    returning o.id, o.kind, o.channel, o.attempts, o.payload, o.user_id, o.created_at, o.user_seq,
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
revoke execute on function public.claim_outbox(text, integer, integer, text) from public, anon, authenticated;
grant execute on function public.claim_outbox(text, integer, integer, text) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Before a request without an idempotency key: record that it is being sent. One call carries
-- the completions the worker has gathered since its last call (group commit), so a worker's
-- progress costs one round trip per wave, not two per message. Returns the ids the worker may
-- send now (its claim still holds); completions are recorded whatever the answer.
-- ---------------------------------------------------------------------------------------------
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
  return query
    update private.outbox o set send_started_at = now()
    where o.id = any (coalesce(job_ids, '{}'::bigint[])) and o.status = 'sending' and o.claimed_by = worker
      and o.next_attempt_at > now()
    returning o.id;
end;
$$;
revoke execute on function public.begin_outbox_sends(text, bigint[], jsonb) from public, anon, authenticated;
grant execute on function public.begin_outbox_sends(text, bigint[], jsonb) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Complete: also a job that went in_doubt because its (slow, still living) worker's lease ran
-- out: the worker's own answer settles the doubt. Nobody else's.
-- ---------------------------------------------------------------------------------------------
create or replace function public.complete_outbox(job_id bigint, worker text, recipient text default null)
returns boolean
  language plpgsql security definer
  set search_path = ''
as $$
declare
  job private.outbox;
begin
  update private.outbox o set status = 'sent', sent_at = now(), last_error = null
  where o.id = job_id and o.claimed_by = worker
    and (o.status = 'sending' or (o.status = 'in_doubt' and o.send_started_at is not null))
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

create or replace function public.complete_outbox_batch(worker text, results jsonb)
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

-- Fail: the service answered, so the message did not go out; the mark of the attempt is cleared.
create or replace function public.fail_outbox(job_id bigint, worker text, error text, retry_after_seconds numeric default null,
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
        send_started_at = null,
        next_attempt_at = now() + make_interval(secs => greatest(
          coalesce(retry_after_seconds, 0), least(600, 5 * power(2, greatest(o.attempts - 1, 0))))::double precision)
  where o.id = job_id and o.claimed_by = worker
    and (o.status = 'sending' or (o.status = 'in_doubt' and o.send_started_at is not null))
  returning o.status into result;
  return result;
end;
$$;
revoke execute on function public.fail_outbox(bigint, text, text, numeric, boolean) from public, anon, authenticated;
grant execute on function public.fail_outbox(bigint, text, text, numeric, boolean) to service_role;

-- ---------------------------------------------------------------------------------------------
-- The admin panel's Alerts tab: the last hour per channel (admins only).
-- ---------------------------------------------------------------------------------------------
create or replace function public.admin_alert_delivery_stats()
returns table (channel text, sent integer, p50_seconds double precision, p95_seconds double precision,
               failed integer, in_doubt integer, waiting integer)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  if not (select private.is_admin()) then
    raise exception 'Only administrators can read the delivery figures.' using errcode = '42501';
  end if;
  return query
    with channels(channel) as (values ('email'), ('discord'), ('telegram')),
    recent as (
      select o.channel, o.status, extract(epoch from (o.sent_at - o.created_at))::double precision as seconds
      from private.outbox o
      where o.created_at > now() - interval '1 hour' and o.status in ('sent', 'failed', 'in_doubt')
    )
    select c.channel,
           (select count(*)::integer from recent r where r.channel = c.channel and r.status = 'sent'),
           (select percentile_cont(0.5) within group (order by r.seconds) from recent r
             where r.channel = c.channel and r.status = 'sent'),
           (select percentile_cont(0.95) within group (order by r.seconds) from recent r
             where r.channel = c.channel and r.status = 'sent'),
           (select count(*)::integer from recent r where r.channel = c.channel and r.status = 'failed'),
           (select count(*)::integer from recent r where r.channel = c.channel and r.status = 'in_doubt'),
           (select count(*)::integer from private.outbox o
             where o.channel = c.channel and o.status in ('pending', 'sending'))
    from channels c
    order by c.channel;
end;
$$;
comment on function public.admin_alert_delivery_stats() is
  'The last hour''s alert delivery per channel (enqueue to hand-off p50/p95 in seconds, failures, in doubt, waiting); admins only.';
revoke execute on function public.admin_alert_delivery_stats() from public, anon;
grant execute on function public.admin_alert_delivery_stats() to authenticated;
