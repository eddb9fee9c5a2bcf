-- Market data written by the scanner (service role) and read by active subscribers: instruments,
-- price history, movers (the spec's gainers), strategy signals and outcomes, order books and
-- funding rates. Anonymous visitors see only a three-row teaser for the landing page.

create table public.instruments (
  id bigint generated always as identity primary key,
  symbol text not null check (char_length(symbol) between 1 and 64),
  exchange text not null check (char_length(exchange) between 1 and 120),
  exchange_type public.exchange_type not null default 'dex',
  network text,
  source text not null default 'simulated',
  pool_url text check (pool_url is null or pool_url ~ '^https://'),
  created_at timestamptz not null default now(),
  unique (symbol, exchange)
);
comment on table public.instruments is 'Every traded pair the scanner follows, per venue (and network).';

create table public.price_history (
  instrument_id bigint not null references public.instruments (id) on delete cascade,
  ts timestamptz not null,
  price numeric not null check (price >= 0),
  volume_24h numeric check (volume_24h >= 0),
  primary key (instrument_id, ts)
);
comment on table public.price_history is 'Price samples per instrument; pruned beyond the retention window.';
create index price_history_ts_idx on public.price_history (ts);

create table public.movers (
  id bigint generated always as identity primary key,
  instrument_id bigint not null unique references public.instruments (id) on delete cascade,
  symbol text not null,
  exchange text not null,
  exchange_type public.exchange_type not null default 'dex',
  network text,
  source text not null default 'simulated',
  pool_url text,
  price numeric not null check (price >= 0),
  price_3hour_ago numeric check (price_3hour_ago >= 0),
  pct numeric not null default 0,
  pct_10sec numeric,
  pct_5min numeric,
  pct_10min numeric,
  pct_15min numeric,
  pct_20min numeric,
  pct_25min numeric,
  pct_30min numeric,
  pct_3hour numeric,
  volume_24h numeric,
  market_cap numeric,
  ts timestamptz not null default now(),
  inserted_at timestamptz not null default now()
);
comment on table public.movers is
  'Latest change of every instrument over each window (the specification''s gainers). Read through movers_feed(window).';
create index movers_ts_idx on public.movers (ts desc);

create table public.strategy_signals (
  id bigint generated always as identity primary key,
  symbol text not null,
  exchange text not null,
  exchange_type public.exchange_type not null default 'dex',
  timeframe public.timeframe not null,
  strategy public.strategy not null,
  signal public.signal_direction not null,
  confidence numeric not null check (confidence between 0 and 1),
  confidence_tier public.confidence_tier not null,
  price numeric not null check (price >= 0),
  volume_24h numeric,
  indicator_values jsonb not null default '{}'::jsonb,
  computed_at timestamptz not null default now()
);
comment on table public.strategy_signals is 'Trading-strategy signals computed by the scanner on candles.';
create index strategy_signals_computed_idx on public.strategy_signals (computed_at desc);
create index strategy_signals_symbol_idx on public.strategy_signals (symbol, exchange);

create table public.strategy_signal_outcomes (
  id bigint generated always as identity primary key,
  signal_id bigint not null unique references public.strategy_signals (id) on delete cascade,
  symbol text not null,
  exchange text not null,
  strategy public.strategy not null,
  signal public.signal_direction not null,
  entry_price numeric not null check (entry_price >= 0),
  exit_price numeric not null check (exit_price >= 0),
  pct_change numeric not null,
  was_correct boolean not null,
  hours_elapsed numeric not null check (hours_elapsed >= 0),
  created_at timestamptz not null default now()
);
comment on table public.strategy_signal_outcomes is 'How each signal played out once enough time passed.';

create table public.order_books (
  id bigint generated always as identity primary key,
  symbol text not null,
  exchange text not null,
  best_bid numeric check (best_bid >= 0),
  best_ask numeric check (best_ask >= 0),
  spread_pct numeric check (spread_pct >= 0),
  bid_volume_1pct numeric check (bid_volume_1pct >= 0),
  ask_volume_1pct numeric check (ask_volume_1pct >= 0),
  liquidity_score public.order_book_depth not null,
  buy_wall_price numeric check (buy_wall_price >= 0),
  buy_wall_size numeric check (buy_wall_size >= 0),
  sell_wall_price numeric check (sell_wall_price >= 0),
  sell_wall_size numeric check (sell_wall_size >= 0),
  snapshot_at timestamptz not null default now()
);
comment on table public.order_books is 'Order-book snapshots: spread, depth within 1 %, walls and a depth score.';
create index order_books_symbol_idx on public.order_books (symbol, exchange, snapshot_at desc);

create table public.funding_rates (
  id bigint generated always as identity primary key,
  symbol text not null,
  exchange text not null,
  funding_rate numeric not null,
  funding_rate_pct numeric not null,
  sentiment public.funding_sentiment not null,
  next_funding_time timestamptz,
  fetched_at timestamptz not null default now()
);
comment on table public.funding_rates is 'Perpetual funding rates with the sentiment they imply.';
create index funding_rates_symbol_idx on public.funding_rates (symbol, exchange, fetched_at desc);

-- RLS: only active paid subscribers read; only the service role (scanner) writes.
alter table public.instruments enable row level security;
alter table public.price_history enable row level security;
alter table public.movers enable row level security;
alter table public.strategy_signals enable row level security;
alter table public.strategy_signal_outcomes enable row level security;
alter table public.order_books enable row level security;
alter table public.funding_rates enable row level security;

revoke insert, update, delete on public.instruments, public.price_history, public.movers,
  public.strategy_signals, public.strategy_signal_outcomes, public.order_books, public.funding_rates
  from anon, authenticated;
-- Movers are read through movers_feed(), which hands out only the caller's window.
revoke select on public.movers from anon, authenticated;

create policy "instruments: subscribers read" on public.instruments
  for select to authenticated using ((select private.has_active_plan()));
create policy "price history: subscribers read" on public.price_history
  for select to authenticated using ((select private.has_active_plan()));
create policy "signals: subscribers read" on public.strategy_signals
  for select to authenticated using ((select private.has_active_plan()));
create policy "signal outcomes: subscribers read" on public.strategy_signal_outcomes
  for select to authenticated using ((select private.has_active_plan()));
create policy "order books: subscribers read" on public.order_books
  for select to authenticated using ((select private.has_active_plan()));
create policy "funding rates: subscribers read" on public.funding_rates
  for select to authenticated using ((select private.has_active_plan()));

-- The movers of one window, for an active subscriber whose plan offers that window.
create function public.movers_feed(window_minutes integer default null)
returns table (
  id bigint, instrument_id bigint, symbol text, exchange text, exchange_type public.exchange_type,
  network text, source text, pool_url text, price numeric, price_3hour_ago numeric,
  pct numeric, window_used integer, pct_3hour numeric, volume_24h numeric, ts timestamptz
)
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  caller public.profiles;
  w integer;
begin
  select * into caller from public.profiles p where p.id = (select auth.uid());
  if caller.id is null or caller.banned or not caller.subscription_active or caller.plan = 'none' then
    raise exception 'Active subscription required' using errcode = 'PT403',
      hint = 'Subscribe to a plan to see market data.';
  end if;
  w := coalesce(window_minutes, caller.selected_window_minutes);
  if not (w = any (public.allowed_windows(caller.plan))) then
    raise exception 'The % plan does not offer a % minute window', caller.plan, w using errcode = 'PT403';
  end if;
  return query
    select m.id, m.instrument_id, m.symbol, m.exchange, m.exchange_type, m.network, m.source, m.pool_url,
           m.price, m.price_3hour_ago,
           coalesce(case w
             when 0 then m.pct_10sec when 5 then m.pct_5min when 10 then m.pct_10min
             when 15 then m.pct_15min when 20 then m.pct_20min when 25 then m.pct_25min
             else m.pct_30min end, m.pct),
           w, m.pct_3hour, m.volume_24h, m.ts
    from public.movers m
    order by m.ts desc, m.id desc;
end;
$$;
revoke execute on function public.movers_feed(integer) from public, anon;
grant execute on function public.movers_feed(integer) to authenticated, service_role;

-- The landing page's teaser: the three most recent movers, a few columns, for anyone.
create view public.movers_teaser
  with (security_invoker = false)
as
  select m.id, m.symbol, m.exchange, coalesce(m.pct_30min, m.pct) as pct, m.price, m.ts
  from public.movers m
  order by m.ts desc, m.id desc
  limit 3;
comment on view public.movers_teaser is
  'Deliberately definer-rights: exposes exactly three recent movers to anonymous visitors.';
revoke all on public.movers_teaser from anon, authenticated;
grant select on public.movers_teaser to anon, authenticated;
