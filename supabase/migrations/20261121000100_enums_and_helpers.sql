-- Enumerations of the specification (sections 3 and 5) and the private helper functions that
-- policies and RPCs share. Helpers are security definer with an empty search_path.

create type public.plan as enum ('none', 'basic', 'pro', 'enterprise');
create type public.app_role as enum ('user', 'admin');
create type public.ticket_status as enum ('open', 'in_progress', 'resolved', 'closed');
create type public.ticket_priority as enum ('low', 'medium', 'high', 'urgent');
create type public.report_reason as enum ('spam', 'harassment', 'inappropriate', 'other');
create type public.attachment_type as enum ('none', 'gif');
create type public.exchange_type as enum ('cex', 'dex');
create type public.timeframe as enum ('5min', '15min', '1h', '4h');
create type public.strategy as enum ('rsi', 'macd', 'ema_cross', 'bollinger', 'volume_surge');
create type public.signal_direction as enum ('bullish', 'bearish', 'neutral');
create type public.confidence_tier as enum ('low', 'medium', 'high');
create type public.liquidity_score as enum ('good', 'medium', 'poor');
create type public.order_book_depth as enum ('shallow', 'moderate', 'deep');
create type public.funding_sentiment as enum ('overcrowded_longs', 'bullish', 'neutral', 'bearish', 'overcrowded_shorts');
create type public.group_role as enum ('admin', 'member');

-- Plan rules (docs/decisions/0005-windows-per-plan.md).
create function public.allowed_windows(p public.plan) returns integer[]
  language sql immutable parallel safe
  set search_path = ''
as $$
  select case p
    when 'enterprise' then array[0, 5, 10, 15, 20, 25, 30]
    when 'pro' then array[15, 20, 25, 30]
    else array[30]
  end
$$;
comment on function public.allowed_windows(public.plan) is
  'Observation windows (minutes; 0 means 10 seconds) a plan may select.';

create function public.fallback_window(p public.plan) returns integer
  language sql immutable parallel safe
  set search_path = ''
as $$
  select case p when 'enterprise' then 5 when 'pro' then 15 else 30 end
$$;

create function public.plan_price_eur(p public.plan) returns integer
  language sql immutable parallel safe
  set search_path = ''
as $$
  select case p when 'basic' then 29 when 'pro' then 69 when 'enterprise' then 99 else 0 end
$$;

grant execute on function public.allowed_windows(public.plan), public.fallback_window(public.plan),
  public.plan_price_eur(public.plan) to anon, authenticated, service_role;
