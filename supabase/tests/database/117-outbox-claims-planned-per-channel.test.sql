-- Each claim is planned for the channel it asks for (migration 20261206010000, decision 0118):
-- claim_outbox runs with plan_cache_mode = force_custom_plan. After more than five claims in one
-- session, made while the outbox was small, a claim for one channel still walks that channel's
-- pending jobs in fair order through the index, instead of reading and sorting every pending job
-- of every channel (the generic plan). The plan is told by the rows the claim fetched.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(6);

select ok(
  (select 'plan_cache_mode=force_custom_plan' = any (p.proconfig) from pg_proc p
   where p.oid = 'public.claim_outbox(text, integer, integer, text)'::regprocedure),
  'claim_outbox plans its statements for the call''s values (force_custom_plan)'
);

insert into auth.users (id, email)
select ('a1170000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, 'cp-' || g || '@cp.test'
from generate_series(1, 300) g;
update public.profiles p set plan = 'enterprise', subscription_active = true, email_alert = p.email,
  discord_webhook_url = 'https://discord.com/api/webhooks/117' || right(p.id::text, 3) || '/tok'
  where p.id::text like 'a1170000-%';
update private.outbox set status = 'cancelled' where status in ('pending', 'sending');

-- Eight small claims in this session, while the outbox holds a few jobs: three Discord jobs
-- come in before each, and it takes two.
create temp table warm (claimed integer);
grant insert on warm to service_role;
do $$
begin
  for round in 1..8 loop
    insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq)
    select 'market_alert', 'discord', ('a1170000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid,
           'cp:warm:' || round || ':' || g, '{"items": []}', 1
    from generate_series(1, 3) g;
    set local role service_role;
    insert into warm select count(*) from public.claim_outbox('w-warm', 2, 60, 'discord');
    reset role;
  end loop;
end $$;
select is((select sum(claimed)::integer from warm), 16, 'eight claims of two jobs each in the session');
update private.outbox set status = 'cancelled' where status in ('pending', 'sending');

-- Then a burst: 2,000 e-mail jobs and 1,000 Discord jobs, created in that order.
insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq, created_at)
select 'market_alert', c.channel, ('a1170000-0000-4000-8000-' || lpad((1 + g % 300)::text, 12, '0'))::uuid,
       'cp:' || c.channel || ':' || g, '{"items": []}', 1,
       now() - interval '1 hour' + make_interval(secs => c.base + g / 1000.0)
from (values ('email', 0, 2000), ('discord', 10, 1000)) c (channel, base, n),
     generate_series(1, c.n) g;

create temp table fetched (before bigint);
insert into fetched select idx_tup_fetch from pg_stat_xact_user_tables where relid = 'private.outbox'::regclass;

set local role service_role;
select results_eq(
  $$select c.channel, c.payload ->> 'items' from public.claim_outbox('w-cp', 3, 60, 'discord') c$$,
  $$values ('discord', '[]'), ('discord', '[]'), ('discord', '[]')$$,
  'the ninth claim hands over three Discord jobs');
reset role;

select cmp_ok(
  (select idx_tup_fetch from pg_stat_xact_user_tables where relid = 'private.outbox'::regclass)
    - (select before from fetched),
  '<', 100::bigint,
  'and fetched a few outbox rows through the index, not the 3,000 pending jobs');

select results_eq(
  $$select dedup_key from private.outbox where claimed_by = 'w-cp' and status = 'sending' order by created_at$$,
  $$values ('cp:discord:1'), ('cp:discord:2'), ('cp:discord:3')$$,
  'the claimed jobs are the first three Discord jobs in fair order');

select is(current_setting('plan_cache_mode'), 'auto', 'the caller''s session keeps its own plan_cache_mode');

select * from finish();
rollback;
