-- The completions of a wave of sends (`complete_outbox_batch`, also called from every send mark,
-- decision 0066) find their jobs by key (issue 24, decision 0103).
--
-- The statement joined the outbox to the list of finished ids (`jsonb_array_elements`, which
-- the planner estimates at one row after its filter) and compared the status with literals:
-- `status = 'sending' or (status = 'in_doubt' and …)`. Those literals match the predicates of
-- two partial indexes, so the planner answered the update from a BitmapOr of the in-flight index
-- (every job being sent, by every worker) and the recent-deliveries index (every sent, failed
-- and in-doubt job of the last 30 days: the index has no status column to narrow it), and
-- joined each of those rows to the list in a nested loop: at 20,000 jobs of one worker,
-- `auto_explain` showed 223,104 rows removed by the join filter for 256 completions (57 of the
-- statement's 60 ms), and the rows walked grow with the outbox's history.
--
-- Now the list is read once: the ids into an array that the update probes by key
-- (`id = any (ids)`), the recipients into a JSON object read by id (no join, whose nested loop
-- over the list would again cost ids × list); and the status is compared with values the planner
-- cannot see into (as the send mark does since migration 20261130010000), so no partial index
-- stands in for the key. Each shared message's symbols are built once per call again (the
-- planner had folded that step into the join, once per job). What is recorded does not change: the same jobs become `sent` (this
-- worker's jobs still being sent, or in doubt after a mark), each with its `alerts_sent` row, once.
create or replace function public.complete_outbox_batch(worker text, results jsonb)
returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  n integer;
  ids bigint[];
  recipients jsonb;
begin
  if results is null or jsonb_typeof(results) <> 'array' then
    raise exception 'results must be a JSON array of {id, recipient}' using errcode = '22023';
  end if;
  -- Each id once, with the recipient of its first entry.
  select coalesce(array_agg(x.id), '{}'), coalesce(jsonb_object_agg(x.id::text, x.recipient), '{}')
    into ids, recipients
  from (
    select distinct on ((e ->> 'id')::bigint) (e ->> 'id')::bigint as id, e ->> 'recipient' as recipient
    from jsonb_array_elements(results) with ordinality as r (e, k)
    where jsonb_typeof(e -> 'id') = 'number'
    order by (e ->> 'id')::bigint, r.k
  ) x;
  if cardinality(ids) = 0 then
    return 0;
  end if;
  with done as (
    -- By key, one probe per id: the status is compared with values the planner cannot see into,
    -- so no partial index on the status is walked instead of the key.
    update private.outbox o set status = 'sent', sent_at = now(), last_error = null
    where o.id = any (ids) and o.claimed_by = complete_outbox_batch.worker
      and (o.status = (select 'sending'::text)
           or (o.status = (select 'in_doubt'::text) and o.send_started_at is not null))
    returning o.id, o.kind, o.channel, o.user_id, o.dedup_key, o.payload, o.message_id,
              recipients ->> o.id::text as recipient
  ),
  -- Each shared message's list once (a claim's jobs share a handful of messages): materialized,
  -- or the planner folds it into the join below and reads the message and builds its symbols'
  -- array again for every job.
  messages as materialized (
    select m.id,
           case when jsonb_typeof(m.payload -> 'items') = 'array' then m.payload -> 'items' else '[]'::jsonb end as items,
           m.payload -> 'total' as total
    from private.alert_messages m
    where m.id in (select d.message_id from done d where d.kind = 'market_alert' and not (d.payload ? 'items'))
  ),
  message_symbols as materialized (
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
