-- The worker writes alert messages in the recipient's language AND time zone (issue 28; the
-- daily cap's notice says until when, in the user's zone; issue 24): claim_outbox also returns
-- profiles.time_zone (null: UTC). Same claim as 20261125800100_outbox_one_fair_order otherwise.
drop function public.claim_outbox(text, integer, integer, text);
create function public.claim_outbox(worker text, max_jobs integer default 50, lease_seconds integer default 60,
                                    only_channel text default null)
returns table (id bigint, kind text, channel text, attempts integer, payload jsonb, target text, locale text,
               time_zone text)
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
      order by o.created_at, o.seq, o.id
      limit max_jobs
      for update skip locked
    )
    update private.outbox o
      set status = 'sending', attempts = o.attempts + 1, claimed_by = worker, send_started_at = null,
          next_attempt_at = now() + make_interval(secs => lease_seconds)
    from due where o.id = due.id
    returning o.id, o.kind, o.channel, o.attempts, o.payload, o.user_id, o.created_at, o.seq,
              private.outbox_target(o.kind, o.channel, o.user_id) as target
  loop
    if r.target is null then
      update private.outbox o set status = 'cancelled', last_error = 'The recipient may no longer receive this message.'
      where o.id = r.id;
    else
      id := r.id; kind := r.kind; channel := r.channel; attempts := r.attempts; payload := r.payload;
      target := r.target;
      select p.locale, p.time_zone into locale, time_zone from public.profiles p where p.id = r.user_id;
      return next;
    end if;
  end loop;
end;
$$;
comment on function public.claim_outbox(text, integer, integer, text) is
  'Claims due outbox jobs in fair order (created_at, seq, id) with the recipient''s target, locale and time zone (service role).';
revoke execute on function public.claim_outbox(text, integer, integer, text) from public, anon, authenticated;
grant execute on function public.claim_outbox(text, integer, integer, text) to service_role;
