-- alerts_sent: one row per delivered message, not per symbol (issue 24, decision 0043).
--
-- complete_outbox wrote one row per symbol of every completed job: a scan that alerts 10,000
-- subscribers for 200 symbols wrote 2,000,000 rows (a digest lists its 20 largest moves, so
-- 200,000 at least) for one e-mail per subscriber. A row now records one delivered message:
-- the lead columns (symbol, exchange, pct, price, ts, window_minutes, direction) describe its
-- first listed symbol (a digest lists the largest move first), `symbols` the symbols it lists in
-- order, `symbol_count` how many crossed (a digest counts those it does not list).
alter table public.alerts_sent
  add column symbols text[] not null default '{}',
  add column symbol_count integer not null default 1,
  add constraint alerts_sent_symbol_count_check
    check (symbol_count >= 1 and symbol_count >= coalesce(array_length(symbols, 1), 0));
comment on column public.alerts_sent.symbols is
  'The symbols the delivered message lists, in its order (the first is the row''s symbol).';
comment on column public.alerts_sent.symbol_count is
  'How many symbols crossed in the message (a digest lists its largest moves and counts the rest).';
comment on table public.alerts_sent is
  'Alert messages delivered to users, one row per message and channel; the hash makes each delivery unique.';

-- Rows written before: one symbol each.
update public.alerts_sent set symbols = array[symbol] where symbols = '{}';

create or replace function public.complete_outbox(job_id bigint, worker text, recipient text default null)
returns boolean
  language plpgsql security definer
  set search_path = ''
as $$
declare
  job private.outbox;
  listed jsonb;
begin
  update private.outbox o set status = 'sent', sent_at = now(), last_error = null
  where o.id = job_id and o.claimed_by = worker
    and (o.status = 'sending' or (o.status = 'in_doubt' and o.send_started_at is not null))
  returning o.* into job;
  if not found then
    return false;
  end if;
  listed := coalesce(job.payload -> 'items', '[]'::jsonb);
  if job.kind = 'market_alert' and jsonb_typeof(listed) = 'array' and jsonb_array_length(listed) > 0 then
    insert into public.alerts_sent (symbol, exchange, pct, price, ts, recipient, hash, user_id, channel,
                                    window_minutes, direction, symbols, symbol_count)
    select i ->> 'symbol', i ->> 'exchange', (i ->> 'pct')::numeric, (i ->> 'price')::numeric,
           (i ->> 'ts')::timestamptz, coalesce(recipient, job.channel),
           md5(coalesce(job.dedup_key, 'outbox:' || job.id::text)),
           job.user_id, job.channel, (i ->> 'windowMinutes')::integer, i ->> 'direction',
           array(select e ->> 'symbol' from jsonb_array_elements(listed) with ordinality as x (e, n) order by x.n),
           greatest(jsonb_array_length(listed),
                    case when jsonb_typeof(job.payload -> 'total') = 'number' then (job.payload ->> 'total')::integer else 0 end)
    from (select listed -> 0 as i) lead
    on conflict (hash) do nothing;
  end if;
  return true;
end;
$$;
revoke execute on function public.complete_outbox(bigint, text, text) from public, anon, authenticated;
grant execute on function public.complete_outbox(bigint, text, text) to service_role;
