-- A claim hands each shared message over once (issue 24, decision 0072).
--
-- A scan's market alert is built once per group of identical users (private.alert_messages,
-- decision 0052); each job holds only its user's own fields and the message's id. Until now a
-- trigger copied the message into every job's payload when the job was claimed, so a claim of
-- 500 digests of 200 symbols wrote 500 copies of the message (its 20 listed items), returned all
-- 500 to the worker, and the completion read them back to record alerts_sent. Paired on one
-- PostgreSQL 15 (10,000 jobs of one digest, claims of 500, load 16-20): the claims took 3.0-6.6 s
-- before and 1.2-3.5 s after (decision 0072).
--
-- Now:
--   * no copy: the trigger is gone, a job's payload stays its own fields;
--   * claim_outbox returns two more columns: message_id and message, the shared message's payload
--     on the first job of each message in the claim (null on the others); the worker merges
--     `message || payload` (the job's own keys win, as the trigger's `||` did);
--   * a job whose message is gone (messages live a week, jobs give up within hours) is cancelled
--     by the claim, never sent without its content;
--   * the completions take the lead symbol and the symbol list from the message once per message.
-- private.job_payload(job) stays the job's payload as the worker sees it.

drop trigger outbox_expand_message on private.outbox;
drop function private.outbox_expand_message();

comment on column private.outbox.message_id is
  'A market alert''s shared message (private.alert_messages); claim_outbox hands it over with the job, and the job''s own payload is merged over it.';

drop function public.claim_outbox(text, integer, integer, text);
create function public.claim_outbox(worker text, max_jobs integer default 50, lease_seconds integer default 60,
                                    only_channel text default null)
returns table (id bigint, kind text, channel text, attempts integer, payload jsonb, target text, locale text,
               time_zone text, message_id bigint, message jsonb)
  language plpgsql security definer
  set search_path = ''
as $$
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
  -- The due jobs with their recipient as of now (private.outbox_target's rule, joined once
  -- instead of called per job): no recipient any more, or a shared message that is gone →
  -- cancelled in the same update.
  return query
    with due as (
      select o.id, p.locale, p.time_zone,
             case
               when gone.orphan then null
               when o.kind = 'market_alert' then
                 case when p.plan = 'enterprise' and p.subscription_active and not p.banned then
                   case o.channel when 'email' then p.email_alert when 'discord' then p.discord_webhook_url
                                  when 'telegram' then p.telegram_chat_id end
                 end
               when o.channel = 'email' then nullif(p.email, '')
             end as target,
             gone.orphan
      from private.outbox o
      left join public.profiles p on p.id = o.user_id
      cross join lateral (
        select o.message_id is not null and not (o.payload ? 'items')
               and not exists (select 1 from private.alert_messages m where m.id = o.message_id) as orphan
      ) gone
      where o.status in ('pending', 'sending') and o.next_attempt_at <= now()
        and (claim_outbox.only_channel is null or o.channel = claim_outbox.only_channel)
      order by o.created_at, o.seq, o.id
      limit claim_outbox.max_jobs
      for update of o skip locked
    ),
    claimed as (
      update private.outbox o
        set status = case when due.target is null then 'cancelled' else 'sending' end,
            last_error = case when due.orphan then 'The alert''s message expired before it could be sent.'
                              when due.target is null then 'The recipient may no longer receive this message.'
                              else o.last_error end,
            attempts = o.attempts + 1, claimed_by = claim_outbox.worker, send_started_at = null,
            next_attempt_at = now() + make_interval(secs => claim_outbox.lease_seconds)
      from due where o.id = due.id
      returning o.id, o.kind, o.channel, o.attempts, o.payload, due.target, due.locale, due.time_zone,
                o.created_at, o.seq, o.message_id
    ),
    sent as (
      select c.*, row_number() over (partition by c.message_id order by c.created_at, c.seq, c.id) as nth
      from claimed c
      where c.target is not null
    )
    select s.id, s.kind, s.channel, s.attempts, s.payload, s.target, s.locale, s.time_zone, s.message_id,
           case when s.message_id is not null and s.nth = 1
                then (select m.payload from private.alert_messages m where m.id = s.message_id) end
    from sent s
    order by s.created_at, s.seq, s.id;
end;
$$;
comment on function public.claim_outbox(text, integer, integer, text) is
  'Claims due outbox jobs in fair order (created_at, seq, id) with the recipient''s target, locale and time zone, and each shared message once: on the first of its jobs in the claim (service role).';
revoke execute on function public.claim_outbox(text, integer, integer, text) from public, anon, authenticated;
grant execute on function public.claim_outbox(text, integer, integer, text) to service_role;

create or replace function public.complete_outbox_batch(worker text, results jsonb)
returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  n integer;
begin
  if results is null or jsonb_typeof(results) <> 'array' then
    raise exception 'results must be a JSON array of {id, recipient}' using errcode = '22023';
  end if;
  with input as (
    select distinct on ((e ->> 'id')::bigint) (e ->> 'id')::bigint as id, e ->> 'recipient' as recipient
    from jsonb_array_elements(results) e
    where jsonb_typeof(e -> 'id') = 'number'
    order by (e ->> 'id')::bigint
  ),
  done as (
    update private.outbox o set status = 'sent', sent_at = now(), last_error = null
    from input i
    where o.id = i.id and o.claimed_by = complete_outbox_batch.worker
      and (o.status = 'sending' or (o.status = 'in_doubt' and o.send_started_at is not null))
    returning o.id, o.kind, o.channel, o.user_id, o.dedup_key, o.payload, o.message_id, i.recipient
  ),
  -- Each shared message's list once (a claim's jobs share a handful of messages).
  messages as (
    select m.id,
           case when jsonb_typeof(m.payload -> 'items') = 'array' then m.payload -> 'items' else '[]'::jsonb end as items,
           m.payload -> 'total' as total
    from private.alert_messages m
    where m.id in (select d.message_id from done d where d.kind = 'market_alert' and not (d.payload ? 'items'))
  ),
  message_symbols as (
    select ms.id, ms.items, ms.total,
           array(select e ->> 'symbol' from jsonb_array_elements(ms.items) with ordinality as x (e, k) order by x.k) as symbols
    from messages ms
  ),
  -- A job's own keys win over its message's (the worker's merge): a job that carries its own
  -- items (older jobs, service-built ones) is read as before.
  listed as (
    select d.id, d.channel, d.user_id, d.dedup_key, d.recipient,
           case when d.payload ? 'items' then
                  case when jsonb_typeof(d.payload -> 'items') = 'array' then d.payload -> 'items' else '[]'::jsonb end
                else coalesce(ms.items, '[]'::jsonb) end as items,
           case when d.payload ? 'items' then null else ms.symbols end as symbols,
           case when d.payload ? 'total' then d.payload -> 'total' else ms.total end as total
    from done d
    left join message_symbols ms on ms.id = d.message_id and not (d.payload ? 'items')
    where d.kind = 'market_alert'
  ),
  recorded as (
    -- One row per delivered message (decision 0043): its lead symbol, the symbols it lists in
    -- order, and how many crossed.
    insert into public.alerts_sent (symbol, exchange, pct, price, ts, recipient, hash, user_id, channel,
                                    window_minutes, direction, symbols, symbol_count)
    select l.items -> 0 ->> 'symbol', l.items -> 0 ->> 'exchange', (l.items -> 0 ->> 'pct')::numeric,
           (l.items -> 0 ->> 'price')::numeric, (l.items -> 0 ->> 'ts')::timestamptz,
           coalesce(l.recipient, l.channel), md5(coalesce(l.dedup_key, 'outbox:' || l.id::text)),
           l.user_id, l.channel, (l.items -> 0 ->> 'windowMinutes')::integer, l.items -> 0 ->> 'direction',
           coalesce(l.symbols,
                    array(select e ->> 'symbol' from jsonb_array_elements(l.items) with ordinality as x (e, k) order by x.k)),
           greatest(jsonb_array_length(l.items),
                    case when jsonb_typeof(l.total) = 'number' then (l.total #>> '{}')::integer else 0 end)
    from listed l
    where jsonb_array_length(l.items) > 0
    on conflict (hash) do nothing
  )
  select count(*)::integer into n from done;
  return n;
end;
$$;
revoke execute on function public.complete_outbox_batch(text, jsonb) from public, anon, authenticated;
grant execute on function public.complete_outbox_batch(text, jsonb) to service_role;

create or replace function public.complete_outbox(job_id bigint, worker text, recipient text default null)
returns boolean
  language plpgsql security definer
  set search_path = ''
as $$
declare
  job private.outbox;
  full_payload jsonb;
  listed jsonb;
begin
  update private.outbox o set status = 'sent', sent_at = now(), last_error = null
  where o.id = job_id and o.claimed_by = worker
    and (o.status = 'sending' or (o.status = 'in_doubt' and o.send_started_at is not null))
  returning o.* into job;
  if not found then
    return false;
  end if;
  full_payload := private.job_payload(job);
  listed := coalesce(full_payload -> 'items', '[]'::jsonb);
  if job.kind = 'market_alert' and jsonb_typeof(listed) = 'array' and jsonb_array_length(listed) > 0 then
    insert into public.alerts_sent (symbol, exchange, pct, price, ts, recipient, hash, user_id, channel,
                                    window_minutes, direction, symbols, symbol_count)
    select i ->> 'symbol', i ->> 'exchange', (i ->> 'pct')::numeric, (i ->> 'price')::numeric,
           (i ->> 'ts')::timestamptz, coalesce(recipient, job.channel),
           md5(coalesce(job.dedup_key, 'outbox:' || job.id::text)),
           job.user_id, job.channel, (i ->> 'windowMinutes')::integer, i ->> 'direction',
           array(select e ->> 'symbol' from jsonb_array_elements(listed) with ordinality as x (e, n) order by x.n),
           greatest(jsonb_array_length(listed),
                    case when jsonb_typeof(full_payload -> 'total') = 'number' then (full_payload ->> 'total')::integer else 0 end)
    from (select listed -> 0 as i) lead
    on conflict (hash) do nothing;
  end if;
  return true;
end;
$$;
revoke execute on function public.complete_outbox(bigint, text, text) from public, anon, authenticated;
grant execute on function public.complete_outbox(bigint, text, text) to service_role;
