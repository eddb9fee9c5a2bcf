-- How each strategy signal played out: once `horizon` (1 hour) has passed, the first price
-- sample of the instrument at or after computed_at + horizon is the exit; a bullish signal was
-- right when the price rose, a bearish one when it fell, a neutral one when it moved less than
-- 0.5 % (the rule of evaluateOutcome in supabase/functions/_shared/domain/signals.ts). Each
-- signal gets at most one outcome. Called by the scan function once per 5-minute candle.
create function public.record_signal_outcomes(horizon interval default interval '1 hour')
returns integer
  language sql security definer
  set search_path = ''
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
    join public.instruments i on i.symbol = s.symbol and i.exchange = s.exchange
    cross join lateral (
      select ph.price, ph.ts from public.price_history ph
      where ph.instrument_id = i.id and ph.ts >= s.computed_at + horizon
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
revoke execute on function public.record_signal_outcomes(interval) from public, anon, authenticated;
grant execute on function public.record_signal_outcomes(interval) to service_role;
