-- History backfill (decision 0014): a source that can replay its past (the simulated market)
-- fills the last hours of price_history in one call, so a fresh or long-stopped database shows
-- every window, the 3-hour column, the analysis, the charts and the signals from its first scan.
--
-- public.ingest_backfill(batch, until): batch is compact, each instrument once and one price per
-- instrument per stamp:
--   { "instruments": [{symbol, exchange, exchangeType, network, source, poolUrl}, ...],
--     "stamps": ["2026-...Z", ...], "prices": [[p, ...], ...], "volumes": [[v|null, ...], ...] }
-- Instruments are created as ingest_scan would (existing ones are left as they are); samples the
-- history already holds are kept; samples outside the retention window before `until`, and
-- instruments or samples that would break a rule of ingest_scan, are skipped and counted. Movers
-- are not touched: the next ingest_scan computes every window from the filled history.
-- Service role only, like ingest_scan, and serialised with it.

create function public.ingest_backfill(batch jsonb, until timestamptz default now())
returns jsonb
  language plpgsql security definer
  set search_path = ''
  set jit = off
as $$
declare
  retention constant interval := interval '200 minutes';
  n_instruments integer;
  n_stamps integer;
  stamps timestamptz[] := '{}';
  stamp_text text;
  stamp timestamptz;
  created integer;
  usable integer;
  inserted integer;
begin
  if batch is null or jsonb_typeof(batch) <> 'object'
     or jsonb_typeof(batch -> 'instruments') is distinct from 'array'
     or jsonb_typeof(batch -> 'stamps') is distinct from 'array'
     or jsonb_typeof(batch -> 'prices') is distinct from 'array'
     or coalesce(jsonb_typeof(batch -> 'volumes'), 'array') <> 'array' then
    raise exception 'batch must be an object with the arrays instruments, stamps, prices (and volumes)'
      using errcode = '22023';
  end if;
  until := coalesce(until, now());
  n_instruments := jsonb_array_length(batch -> 'instruments');
  n_stamps := jsonb_array_length(batch -> 'stamps');
  if jsonb_array_length(batch -> 'prices') <> n_instruments
     or (batch ? 'volumes' and jsonb_array_length(batch -> 'volumes') <> n_instruments) then
    raise exception 'prices (and volumes) must hold one array per instrument' using errcode = '22023';
  end if;

  -- One writer of market data at a time: the same lock as ingest_scan.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('public.ingest_scan'));

  -- Stamps: an ISO 8601 text within the retention before `until`, else null (its samples skipped).
  for stamp_text in select e from jsonb_array_elements_text(batch -> 'stamps') e loop
    stamp := null;
    if stamp_text ~ '^[1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,9})?)?([Zz]|[+-](0[0-9]|1[0-4])(:?[0-5][0-9])?)?$' then
      begin
        stamp := stamp_text::timestamptz;
      exception when others then
        stamp := null;
      end;
      if stamp <= until - retention or stamp > until + interval '1 minute' then
        stamp := null;
      end if;
    end if;
    stamps := stamps || stamp;
  end loop;

  create temporary table if not exists backfill_instruments (
    ord integer primary key, symbol text, exchange text, exchange_type public.exchange_type,
    network text, source text, pool_url text
  ) on commit drop;
  truncate backfill_instruments;

  -- Instruments that pass ingest_scan's rules.
  insert into backfill_instruments
  select x.ord, x.q ->> 'symbol', x.q ->> 'exchange', (x.q ->> 'exchangeType')::public.exchange_type,
         x.q ->> 'network', coalesce(x.q ->> 'source', 'simulated'), x.q ->> 'poolUrl'
  from jsonb_array_elements(batch -> 'instruments') with ordinality as x (q, ord)
  where jsonb_typeof(x.q) = 'object'
    and jsonb_typeof(x.q -> 'symbol') = 'string' and char_length(x.q ->> 'symbol') between 1 and 64
    and jsonb_typeof(x.q -> 'exchange') = 'string' and char_length(x.q ->> 'exchange') between 1 and 120
    and jsonb_typeof(x.q -> 'exchangeType') = 'string' and x.q ->> 'exchangeType' in ('cex', 'dex')
    and (coalesce(jsonb_typeof(x.q -> 'network'), 'null') = 'null'
         or (jsonb_typeof(x.q -> 'network') = 'string' and char_length(x.q ->> 'network') between 1 and 64))
    and (coalesce(jsonb_typeof(x.q -> 'source'), 'null') = 'null'
         or (jsonb_typeof(x.q -> 'source') = 'string' and char_length(x.q ->> 'source') between 1 and 40))
    and (coalesce(jsonb_typeof(x.q -> 'poolUrl'), 'null') = 'null'
         or (jsonb_typeof(x.q -> 'poolUrl') = 'string' and x.q ->> 'poolUrl' ~ '^https://[^[:space:]]+$'
             and char_length(x.q ->> 'poolUrl') <= 2048))
  on conflict (ord) do nothing;
  get diagnostics usable = row_count;

  insert into public.instruments (symbol, exchange, exchange_type, network, source, pool_url)
  select b.symbol, b.exchange, b.exchange_type, b.network, b.source, b.pool_url
  from backfill_instruments b
  order by b.symbol, b.exchange
  on conflict (symbol, exchange) do nothing;
  get diagnostics created = row_count;

  -- Samples: instrument i's k-th price at the k-th stamp, when both are usable.
  insert into public.price_history (instrument_id, ts, price, volume_24h)
  select i.id, stamps[s.k], (s.price)::numeric,
         case when jsonb_typeof(s.volume) = 'number' and (s.volume)::numeric >= 0 then (s.volume)::numeric end
  from backfill_instruments b
  join public.instruments i on i.symbol = b.symbol and i.exchange = b.exchange
  cross join lateral rows from (
    jsonb_array_elements(case when jsonb_typeof(batch -> 'prices' -> (b.ord::int - 1)) = 'array'
                           then batch -> 'prices' -> (b.ord::int - 1) else '[]'::jsonb end),
    jsonb_array_elements(case when jsonb_typeof(batch -> 'volumes' -> (b.ord::int - 1)) = 'array'
                           then batch -> 'volumes' -> (b.ord::int - 1) else '[]'::jsonb end)
  ) with ordinality as s (price, volume, k)
  where s.k <= n_stamps
    and stamps[s.k] is not null
    and jsonb_typeof(s.price) = 'number' and (s.price)::numeric > 0
  order by i.id, stamps[s.k]
  on conflict (instrument_id, ts) do nothing;
  get diagnostics inserted = row_count;

  return jsonb_build_object(
    'instruments', created,
    'samples', inserted,
    'skippedInstruments', n_instruments - usable
  );
end;
$$;
revoke execute on function public.ingest_backfill(jsonb, timestamptz) from public, anon, authenticated;
grant execute on function public.ingest_backfill(jsonb, timestamptz) to service_role;
comment on function public.ingest_backfill(jsonb, timestamptz) is
  'Fills price_history from a source''s replayed past (simulated market); service role only (decision 0014).';
