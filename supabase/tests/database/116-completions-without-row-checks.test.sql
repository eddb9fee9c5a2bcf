-- Completions without two per-row checks (migration 20261206000000, decision 0116): what the
-- foreign key of alerts_sent.user_id and the outbox's kind expression guarded still holds.
-- Completed alerts name their user; deleting the user keeps the alerts, without the user, and
-- takes the user's jobs; no role but the completion writes alerts_sent; a job kind is still 1 to
-- 40 characters of a-z and `_`, not starting with `_`.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(20);

insert into auth.users (id, email) values
  ('a1160000-0000-4000-8000-000000000001', 'rc-one@rc.test'),
  ('a1160000-0000-4000-8000-000000000002', 'rc-two@rc.test');
update public.profiles p set plan = 'enterprise', subscription_active = true,
  discord_webhook_url = 'https://discord.com/api/webhooks/116' || right(p.id::text, 1) || '/tok'
  where p.id::text like 'a1160000-%';
update private.outbox set status = 'cancelled' where status in ('pending', 'sending');

insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq)
select 'market_alert', 'discord', u.id::uuid, 'rc:' || u.n,
       '{"shape": "single", "total": 1, "items": [
          {"symbol": "RC/USDT", "exchange": "Kraken", "direction": "pump", "pct": 12, "windowMinutes": 5, "price": 2, "ts": "2026-12-06T00:00:00Z", "instrumentId": 7}]}',
       1
from (values (1, 'a1160000-0000-4000-8000-000000000001'),
             (2, 'a1160000-0000-4000-8000-000000000002')) u (n, id);

create temp table done as
  select jsonb_agg(jsonb_build_object('id', o.id, 'recipient', 'discord:rc')) as results
  from private.outbox o where o.dedup_key like 'rc:%';
grant select on done to service_role;
set local role service_role;
select is((select count(*)::integer from public.claim_outbox('w-rc', 10, 60, 'discord')), 2, 'both jobs are claimed');
select is(public.complete_outbox_batch('w-rc', (select results from done)), 2, 'both complete');
reset role;
select results_eq(
  $$select user_id::text from public.alerts_sent where recipient = 'discord:rc' order by user_id$$,
  $$values ('a1160000-0000-4000-8000-000000000001'::text), ('a1160000-0000-4000-8000-000000000002')$$,
  'each alert names its user');

-- A third job for the first user, still pending when the user goes.
insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq) values
  ('market_alert', 'discord', 'a1160000-0000-4000-8000-000000000001', 'rc:3', '{"items": []}', 1);
delete from auth.users where id = 'a1160000-0000-4000-8000-000000000001';
select is((select count(*)::integer from public.alerts_sent where recipient = 'discord:rc'), 2,
  'deleting a user keeps their alerts');
select results_eq(
  $$select user_id::text from public.alerts_sent where recipient = 'discord:rc' order by user_id nulls first$$,
  $$values (null::text), ('a1160000-0000-4000-8000-000000000002')$$,
  'and forgets the user on them, as ON DELETE SET NULL did');
select is((select count(*)::integer from private.outbox where dedup_key like 'rc:%'), 1,
  'and takes the user''s jobs, the pending one included');

-- Nobody but the completion writes alerts_sent.
select is(has_table_privilege(r, 'public.alerts_sent', 'insert'), false, r || ' cannot insert into alerts_sent')
from unnest(array['anon', 'authenticated', 'service_role']) r;
select is(has_table_privilege(r, 'public.alerts_sent', 'update'), false, r || ' cannot update alerts_sent')
from unnest(array['anon', 'authenticated', 'service_role']) r;
set local role service_role;
select throws_ok(
  $$insert into public.alerts_sent (symbol, exchange, pct, price, ts, recipient, hash, user_id)
    values ('X', 'Y', 1, 1, now(), 'r', 'rc-forged', 'a1160000-0000-4000-8000-000000000009')$$,
  '42501', null, 'the service role cannot record an alert for a user that does not exist');
reset role;

-- The kind check, as the expression it replaces.
select lives_ok(
  $$insert into private.outbox (kind, channel, dedup_key, payload) values ('market_alert', 'email', 'rc:k1', '{}'),
      ('a', 'email', 'rc:k2', '{}'), (repeat('z', 40), 'email', 'rc:k3', '{}'), ('x_', 'email', 'rc:k4', '{}')$$,
  'kinds of a-z and _ from 1 to 40 characters are taken');
select throws_ok($$insert into private.outbox (kind, channel, dedup_key, payload) values ('', 'email', 'rc:b1', '{}')$$,
  '23514', null, 'an empty kind is refused');
select throws_ok($$insert into private.outbox (kind, channel, dedup_key, payload) values ('_x', 'email', 'rc:b2', '{}')$$,
  '23514', null, 'a kind starting with _ is refused');
select throws_ok($$insert into private.outbox (kind, channel, dedup_key, payload) values (repeat('z', 41), 'email', 'rc:b3', '{}')$$,
  '23514', null, 'a kind of 41 characters is refused');
select throws_ok($$insert into private.outbox (kind, channel, dedup_key, payload) values ('Market', 'email', 'rc:b4', '{}')$$,
  '23514', null, 'an upper-case kind is refused');
select throws_ok($$insert into private.outbox (kind, channel, dedup_key, payload) values ('a-b', 'email', 'rc:b5', '{}')$$,
  '23514', null, 'a kind with a hyphen is refused');
select throws_ok($$insert into private.outbox (kind, channel, dedup_key, payload) values ('é', 'email', 'rc:b6', '{}')$$,
  '23514', null, 'a kind with a letter outside a-z is refused');

select * from finish();
rollback;
