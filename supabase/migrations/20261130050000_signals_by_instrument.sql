-- Issue 25, decision 0090: a signal carries its instrument, its outcome is matched by instrument,
-- and the scan's replay of a source's past stores the signals of that past (idempotently).

alter table public.strategy_signals
  add column instrument_id bigint references public.instruments (id) on delete set null;

comment on column public.strategy_signals.instrument_id is
  'The instrument the signal was computed on; null for old rows whose symbol and exchange named several.';

-- Existing rows: filled where the symbol and exchange name exactly one instrument.
update public.strategy_signals s
set instrument_id = u.id
from (
  select i.symbol, i.exchange, min(i.id) as id
  from public.instruments i
  group by i.symbol, i.exchange
  having count(*) = 1
) u
where s.instrument_id is null and u.symbol = s.symbol and u.exchange = s.exchange;

-- One signal per instrument, strategy, timeframe and instant: a replay run twice adds nothing.
create unique index strategy_signals_instrument_key
  on public.strategy_signals (instrument_id, strategy, timeframe, computed_at);

-- Outcomes by instrument. A row without one (written before this migration and left null) falls
-- back to its symbol and exchange only when they name exactly one instrument.
create or replace function public.record_signal_outcomes(horizon interval default '01:00:00'::interval)
returns integer
language sql security definer
set search_path to ''
as $$
  with recorded as (
    insert into public.strategy_signal_outcomes
      (signal_id, symbol, exchange, strategy, signal, entry_price, exit_price, pct_change, was_correct,
       hours_elapsed)
    select s.id, s.symbol, s.exchange, s.strategy, s.signal, s.price, x.price,
           round(100 * (x.price - s.price) / s.price, 4),
           case s.signal
             when 'bullish' then x.price > s.price
             when 'bearish' then x.price < s.price
             else abs(100 * (x.price - s.price) / s.price) < 0.5
           end,
           round((extract(epoch from x.ts - s.computed_at) / 3600)::numeric, 4)
    from public.strategy_signals s
    cross join lateral (
      select coalesce(s.instrument_id, (
        select min(i.id) from public.instruments i
        where i.symbol = s.symbol and i.exchange = s.exchange
        having count(*) = 1
      )) as id
    ) inst
    cross join lateral (
      select ph.price, ph.ts from public.price_history ph
      where ph.instrument_id = inst.id and ph.ts >= s.computed_at + horizon
      order by ph.ts limit 1
    ) x
    where s.computed_at <= now() - horizon
      and s.computed_at > now() - horizon - interval '1 day'
      and s.price > 0
      and not exists (select 1 from public.strategy_signal_outcomes o where o.signal_id = s.id)
    on conflict (signal_id) do nothing
    returning 1
  )
  select count(*)::integer from recorded
$$;

-- The signals the scan computed at past points of a replayed history (decision 0090). Each row
-- names its instrument by venue key; symbol, exchange and type come from the instrument. Only
-- instants after every stored signal are taken (the live signals and an earlier replay are
-- kept), at most a day old and not ahead of now; a repeated row is skipped. Returns how many
-- were stored.
create function public.ingest_replayed_signals(signals jsonb)
returns integer
language plpgsql security definer
set search_path to ''
as $$
declare
  newest timestamptz;
  written integer;
begin
  if signals is null or jsonb_typeof(signals) <> 'array' then
    raise exception 'signals must be a JSON array' using errcode = '22023';
  end if;
  select max(s.computed_at) into newest from public.strategy_signals s;
  insert into public.strategy_signals as t
    (instrument_id, symbol, exchange, exchange_type, timeframe, strategy, signal, confidence, confidence_tier,
     price, volume_24h, indicator_values, computed_at)
  select i.id, i.symbol, i.exchange, i.exchange_type, r.timeframe, r.strategy, r.signal, r.confidence,
         r.confidence_tier, r.price, r.volume_24h, coalesce(r.indicator_values, '{}'::jsonb), r.computed_at
  from jsonb_to_recordset(signals) as r (venue_key text, timeframe public.timeframe, strategy public.strategy,
                                         signal public.signal_direction, confidence numeric,
                                         confidence_tier public.confidence_tier, price numeric, volume_24h numeric,
                                         indicator_values jsonb, computed_at timestamptz)
  join public.instruments i on i.venue_key = r.venue_key
  where r.computed_at <= now()
    and r.computed_at > now() - interval '1 day'
    and (newest is null or r.computed_at > newest)
    and r.price > 0
    and r.confidence between 0 and 1
  on conflict (instrument_id, strategy, timeframe, computed_at) do nothing;
  get diagnostics written = row_count;
  return written;
end;
$$;

comment on function public.ingest_replayed_signals(jsonb) is
  'Stores the strategy signals computed at past points of a replayed history, after every stored signal, once; service role only.';

revoke execute on function public.ingest_replayed_signals(jsonb) from public, anon, authenticated;
grant execute on function public.ingest_replayed_signals(jsonb) to service_role;
