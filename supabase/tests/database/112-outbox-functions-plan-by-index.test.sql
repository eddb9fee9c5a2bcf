-- The outbox's hot functions read it by index, not row by row (migration 20261205000000,
-- decision 0112): the claim (with its two sweeps), the send marks and the completions scan no
-- part of private.outbox sequentially, even on a table the planner would rather read whole (a
-- few rows here; a cached plan from a small outbox in production).
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(8);

insert into auth.users (id, email) values
  ('a1120000-0000-4000-8000-000000000001', 'pi-one@pi.test'),
  ('a1120000-0000-4000-8000-000000000002', 'pi-two@pi.test');
update public.profiles p set plan = 'enterprise', subscription_active = true,
  discord_webhook_url = 'https://discord.com/api/webhooks/1120' || right(p.id::text, 1) || '/tok'
  where p.id::text like 'a1120000-%';
update private.outbox set status = 'cancelled' where status in ('pending', 'sending');

insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq, created_at) values
  ('market_alert', 'discord', 'a1120000-0000-4000-8000-000000000001', 'pi:1',
   '{"shape": "single", "total": 1, "items": [{"symbol": "A/USDT", "exchange": "Binance", "direction": "pump", "pct": 10, "windowMinutes": 5, "price": 1, "ts": "2026-12-05T00:00:00Z", "instrumentId": 1}]}',
   1, now() - interval '2 minutes'),
  ('market_alert', 'discord', 'a1120000-0000-4000-8000-000000000002', 'pi:2',
   '{"shape": "single", "total": 1, "items": [{"symbol": "B/USDT", "exchange": "Binance", "direction": "pump", "pct": 10, "windowMinutes": 5, "price": 1, "ts": "2026-12-05T00:00:00Z", "instrumentId": 2}]}',
   1, now() - interval '1 minute');

-- The planner knows the outbox as it is here: a few pages, cheapest read whole.
analyze private.outbox;

-- Sequential scans of the outbox by this transaction so far (statistics of the transaction in
-- progress, nested statements included).
create temp table scans (step text primary key, n bigint);
create function pg_temp.outbox_seq_scans() returns bigint language sql as
  $$select seq_scan from pg_stat_xact_user_tables where schemaname = 'private' and relname = 'outbox'$$;
grant all on scans to service_role;
grant execute on function pg_temp.outbox_seq_scans() to service_role;

insert into scans values ('start', pg_temp.outbox_seq_scans());
set local role service_role;
create temp table claimed as select c.id from public.claim_outbox('w-plan', 10, 60, 'discord') c;
insert into scans values ('claimed', pg_temp.outbox_seq_scans());
create temp table marked as
  select m.id from public.begin_outbox_sends('w-plan', (select array_agg(id) from claimed)) m (id);
insert into scans values ('marked', pg_temp.outbox_seq_scans());
select public.complete_outbox_batch('w-plan',
  (select jsonb_agg(jsonb_build_object('id', id, 'recipient', 'discord')) from marked));
insert into scans values ('completed', pg_temp.outbox_seq_scans());
reset role;

select is((select count(*)::integer from claimed), 2, 'the claim takes both jobs');
select is((select n from scans where step = 'claimed') - (select n from scans where step = 'start'), 0::bigint,
  'the claim and its sweeps scan no part of the outbox sequentially');
select is((select count(*)::integer from marked), 2, 'both are marked before their requests');
select is((select n from scans where step = 'marked') - (select n from scans where step = 'claimed'), 0::bigint,
  'the send marks find their jobs by key');
select is((select count(*)::integer from private.outbox where dedup_key like 'pi:%' and status = 'sent'), 2,
  'both are completed');
select is((select n from scans where step = 'completed') - (select n from scans where step = 'marked'), 0::bigint,
  'the completions find their jobs by key');

-- The sweeps still find what they are for: a marked job whose lease ended is in doubt, an
-- unmarked one pending again and claimed.
update private.outbox set status = 'sending', claimed_by = 'w-gone', send_started_at = now(),
  next_attempt_at = now() - interval '1 second' where dedup_key = 'pi:1';
update private.outbox set status = 'sending', claimed_by = 'w-gone', send_started_at = null,
  next_attempt_at = now() - interval '1 second' where dedup_key = 'pi:2';
set local role service_role;
create temp table reclaimed as select c.id from public.claim_outbox('w-next', 10, 60, 'discord') c;
reset role;
select is((select array_agg(o.dedup_key) from reclaimed c join private.outbox o on o.id = c.id), array['pi:2'],
  'the unmarked job whose lease ended is claimed again');
select is((select status from private.outbox where dedup_key = 'pi:1'), 'in_doubt',
  'the marked one is in doubt');

select * from finish();
rollback;
