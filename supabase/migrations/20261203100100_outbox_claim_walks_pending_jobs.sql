-- The claim walks pending jobs only (issue 24, decision 0103).
--
-- The fair-order index held every job `pending` or `sending`, so each claim's scan, from the
-- oldest job on, stepped over every job other workers were sending and the batch each of them
-- had claimed ahead (up to eight claims of 1,000 with four workers), fetching each from the heap
-- to read its lease: `auto_explain` on the delivery bench at 100,000 jobs showed about 4,000
-- rows removed by that filter per claim of 1,000 (2,300-7,000). And every claim wrote each job
-- into that index again (its `sending` version still qualified).
--
-- Now the index holds pending jobs only. A job whose lease ended before it was marked (a worker
-- that died, or stalled past its lease, with a batch claimed and not sent) is made pending again
-- by the claim itself, beside the sweep that records marked ones in doubt, and is then claimed
-- in its fair place as before: due at once, its attempt counted by the claim that takes it. The
-- claim's other rules do not change. Pending jobs whose retry is not yet due are still stepped
-- over, as before.
drop index if exists private.outbox_fair_idx;
create index outbox_fair_idx on private.outbox (channel, created_at, seq, id) where status = 'pending';

create or replace function public.claim_outbox(worker text, max_jobs integer default 50, lease_seconds integer default 60,
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
  -- A lease that ended before its job was marked (a worker that died or stalled with a batch
  -- claimed, never sent): the job is due again, and pending, so the fair-order index, which holds
  -- pending jobs only, leads the claim below to it in its place.
  update private.outbox o set status = 'pending'
  where o.status = 'sending' and o.next_attempt_at <= now() and o.send_started_at is null;
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
      where o.status = 'pending' and o.next_attempt_at <= now()
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
