-- Local demo data (`npm start`, `supabase db reset`). Never run against a hosted project.
-- Demo accounts, all with the password demo-password-1 (listed in devstack/demo-accounts.ts).
-- As GoTrue itself writes a user: instance_id is the nil UUID (its login query looks users up by
-- it) and the token columns are empty strings, not null (GoTrue reads them into Go strings, and a
-- null answers every login with 500 "Database error querying schema" on a GoTrue-backed stack).
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                        confirmation_token, recovery_token, email_change_token_new,
                        email_change_token_current, email_change, phone_change, phone_change_token,
                        reauthentication_token,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000'::uuid, u.id, 'authenticated', 'authenticated', u.email,
       extensions.crypt('demo-password-1', extensions.gen_salt('bf', 10)), now(),
       '', '', '', '', '', '', '', '',
       '{"provider":"email","providers":["email"]}'::jsonb, '{}'::jsonb, now(), now()
from (values
  ('00000000-0000-4000-8000-000000000001'::uuid, 'free@demo.local'),
  ('00000000-0000-4000-8000-000000000002'::uuid, 'basic@demo.local'),
  ('00000000-0000-4000-8000-000000000003'::uuid, 'pro@demo.local'),
  ('00000000-0000-4000-8000-000000000004'::uuid, 'enterprise@demo.local'),
  ('00000000-0000-4000-8000-000000000005'::uuid, 'admin@demo.local'),
  ('00000000-0000-4000-8000-000000000006'::uuid, 'banned@demo.local')
) as u (id, email)
on conflict do nothing;

insert into auth.identities (id, provider, provider_id, user_id, identity_data, created_at, updated_at)
select gen_random_uuid(), 'email', u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true), now(), now()
from auth.users u
where u.email like '%@demo.local'
on conflict do nothing;

update public.profiles set username = split_part(email, '@', 1) where email like '%@demo.local';

-- Plans, the admin and the banned user (the service role may set these columns).
update public.profiles p set plan = d.plan, subscription_active = d.active, role = d.role
from (values
  ('basic@demo.local', 'basic'::public.plan, true, 'user'::public.app_role),
  ('pro@demo.local', 'pro', true, 'user'),
  ('enterprise@demo.local', 'enterprise', true, 'user'),
  ('admin@demo.local', 'enterprise', true, 'admin'),
  ('banned@demo.local', 'pro', true, 'user')
) as d (email, plan, active, role)
where p.email = d.email;
update public.profiles set banned = true, banned_reason = 'Spamming the community chat'
where email = 'banned@demo.local';
update public.profiles set email_alert = 'enterprise@demo.local',
  -- Delivered locally to the Discord and Telegram stand-ins (decision 0020).
  discord_webhook_url = 'https://discord.com/api/webhooks/100000000000000004/demo-enterprise',
  telegram_chat_id = '-1000000000004'
where email = 'enterprise@demo.local';
-- Demo subscribers see every move of 1 % or more (new accounts start at the spec's 10 %, which
-- hides a calm simulated market).
update public.profiles set user_threshold = 1 where email like '%@demo.local';

-- Groups with members and a few messages.
insert into public.groups (id, name, description, is_public, created_by) values
  ('10000000-0000-4000-8000-000000000001', 'Momentum Traders', 'Breakouts, pumps and the windows that caught them.', true,
   '00000000-0000-4000-8000-000000000003'),
  ('10000000-0000-4000-8000-000000000002', 'DEX Hunters', 'On-chain pools before they trend.', true,
   '00000000-0000-4000-8000-000000000004'),
  ('10000000-0000-4000-8000-000000000003', 'Enterprise Desk', 'Private group for the enterprise desk.', false,
   '00000000-0000-4000-8000-000000000004')
on conflict do nothing;
insert into public.group_members (group_id, user_id) values
  ('10000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001'),
  ('10000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'),
  ('10000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000004'),
  ('10000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'),
  ('10000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000005')
on conflict do nothing;
-- Never edited: updated_at equals created_at (else the chat marks them "(edited)").
insert into public.messages (group_id, sender_id, content, created_at, updated_at)
select group_id::uuid, sender_id::uuid, content, at, at from (values
  ('10000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003', 'Welcome! Post the movers you are watching.', now() - interval '50 minutes'),
  ('10000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', 'The 30-minute window caught a nice run on SOL.', now() - interval '20 minutes'),
  ('10000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000004', 'Watch the volume before you chase it.', now() - interval '5 minutes'),
  ('10000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000004', 'New pools on Base are heating up.', now() - interval '15 minutes')
) as m (group_id, sender_id, content, at);

-- Support tickets, one with an admin reply and one closed.
insert into public.support_tickets (id, user_id, subject, content, status, priority, created_at) values
  ('20000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003', 'Alerts arrive late',
   'My Discord alerts arrive about a minute after the dashboard shows the move.', 'open', 'high', now() - interval '2 days'),
  ('20000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000002', 'Invoice address',
   'Please put my company name on the next invoices.', 'open', 'low', now() - interval '6 days')
on conflict do nothing;
insert into public.ticket_messages (ticket_id, sender_id, content, created_at) values
  ('20000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000005',
   'Thanks for the report, we are looking at the delivery queue.', now() - interval '1 day'),
  ('20000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000005',
   'Done: the company name is on your next invoice.', now() - interval '5 days');
update public.support_tickets set status = 'closed' where id = '20000000-0000-4000-8000-000000000002';

-- A few movers so the landing page's live strip has data before the first scan. They are the
-- simulated market's own instruments (the same venue keys and pool links), so the first scan
-- updates them instead of leaving stale twins beside the live rows.
insert into public.instruments (venue_key, symbol, exchange, exchange_type, network, source, pool_url) values
  ('Binance:SOL/USDT', 'SOL/USDT', 'Binance', 'cex', null, 'simulated',
   'https://www.binance.com/en/trade/SOL_USDT?type=spot'),
  ('ethereum:0x1915324d3b8afb027ed7794b3157564ccec3b9be', 'PEPE/WETH', 'Uniswap V3 (Ethereum)', 'dex', 'ethereum',
   'simulated', 'https://www.geckoterminal.com/eth/pools/0x1915324d3b8afb027ed7794b3157564ccec3b9be'),
  ('base:0x9e3054feb78d980f46229e2753a3d851599f032c', 'BRETT/WETH', 'Aerodrome (Base)', 'dex', 'base', 'simulated',
   'https://www.geckoterminal.com/base/pools/0x9e3054feb78d980f46229e2753a3d851599f032c')
on conflict do nothing;
insert into public.movers (instrument_id, symbol, exchange, exchange_type, network, source, pool_url, price,
                           price_3hour_ago, pct, pct_5min, pct_15min, pct_30min, pct_3hour, ts)
select i.id, i.symbol, i.exchange, i.exchange_type, i.network, i.source, i.pool_url, v.price, v.p3h,
       v.pct30, v.pct5, v.pct15, v.pct30, v.pct3h, now() - v.age
from public.instruments i
join (values
  ('SOL/USDT', 187.4213, 179.20, 1.10, 2.35, 3.12, 4.59, interval '40 seconds'),
  ('PEPE/WETH', 0.0000142, 0.0000121, 4.20, 9.80, 14.60, 17.36, interval '25 seconds'),
  ('BRETT/WETH', 0.1432, 0.1561, -1.40, -3.90, -6.20, -8.26, interval '10 seconds')
) as v (symbol, price, p3h, pct5, pct15, pct30, pct3h, age) on v.symbol = i.symbol
on conflict (instrument_id) do nothing;
