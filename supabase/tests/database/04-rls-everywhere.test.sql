-- Structural guarantees, read from the catalog: RLS on every table, policies per command and per
-- role, security definer functions with a fixed search_path, and execute rights that keep the
-- admin RPCs, promote_self and movers_feed away from anonymous callers.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

-- Data-driven checks: one row per catalog object, asserted with ok() below.
create temp table checks (ord serial, passed boolean, descr text);

-- Every table of the exposed schema, and of private, has row-level security enabled.
insert into checks (passed, descr)
select c.relrowsecurity, format('%I.%I has row-level security enabled', n.nspname, c.relname)
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where n.nspname in ('public', 'private') and c.relkind in ('r', 'p')
order by n.nspname, c.relname;

-- Every table of schema public says what it holds.
insert into checks (passed, descr)
select obj_description(c.oid, 'pg_class') is not null, format('public.%I has a comment', c.relname)
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where n.nspname = 'public' and c.relkind in ('r', 'p', 'v')
order by c.relname;

-- Every policy is for one command, names its roles, and calls auth.uid() through a sub-select.
insert into checks (passed, descr)
select p.cmd <> 'ALL', format('policy "%s" on %s.%s is for one command (%s)', p.policyname, p.schemaname, p.tablename, p.cmd)
from pg_policies p where p.schemaname in ('public', 'storage')
order by p.schemaname, p.tablename, p.policyname;
insert into checks (passed, descr)
select p.roles <> '{public}' and not ('anon' = any (p.roles) and p.cmd <> 'SELECT'),
       format('policy "%s" on %s.%s targets %s', p.policyname, p.schemaname, p.tablename, p.roles)
from pg_policies p where p.schemaname in ('public', 'storage')
order by p.schemaname, p.tablename, p.policyname;
insert into checks (passed, descr)
select (select count(*) from regexp_matches(coalesce(p.qual, '') || ' ' || coalesce(p.with_check, ''), 'auth\.uid\(\)', 'g'))
     = (select count(*) from regexp_matches(coalesce(p.qual, '') || ' ' || coalesce(p.with_check, ''), 'SELECT auth\.uid\(\)', 'g')),
       format('policy "%s" on %s.%s evaluates auth.uid() once (select auth.uid())', p.policyname, p.schemaname, p.tablename)
from pg_policies p where p.schemaname in ('public', 'storage')
order by p.schemaname, p.tablename, p.policyname;

-- Every function of public and private runs with a fixed search_path (security definer or not).
insert into checks (passed, descr)
select exists (select 1 from unnest(p.proconfig) s where s like 'search_path=%'),
       format('%s %s.%s(%s) has a fixed search_path', case when p.prosecdef then 'security definer' else 'function' end,
              n.nspname, p.proname, pg_get_function_identity_arguments(p.oid))
from pg_proc p join pg_namespace n on n.oid = p.pronamespace
where n.nspname in ('public', 'private')
order by p.prosecdef desc, n.nspname, p.proname;

-- Admin RPCs, promote_self and movers_feed: not for anon (nor PUBLIC), but for authenticated.
insert into checks (passed, descr)
select not has_function_privilege('anon', p.oid, 'execute')
       and not exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                       where a.grantee = 0 and a.privilege_type = 'EXECUTE'),
       format('anon cannot execute public.%s(%s)', p.proname, pg_get_function_identity_arguments(p.oid))
from pg_proc p join pg_namespace n on n.oid = p.pronamespace
where n.nspname = 'public'
  and (p.proname like 'admin\_%' or p.proname in ('promote_self', 'movers_feed', 'movers_stream_open', 'session_caller', 'price_history_for', 'username_available',
                                                   'touch_activity', 'join_group_by_invite', 'group_messages',
                                                   'group_member_profiles', 'list_groups', 'blocked_users',
                                                   'group_senders', 'ticket_senders', 'mute_alert_symbol',
                                                   'history_candles', 'history_insights', 'history_compare',
                                                   'run_candle_rollup', 'run_support_escalation'))
order by p.proname;
insert into checks (passed, descr)
select has_function_privilege('authenticated', p.oid, 'execute'),
       format('authenticated may call public.%s(%s) (it checks the caller itself)', p.proname, pg_get_function_identity_arguments(p.oid))
from pg_proc p join pg_namespace n on n.oid = p.pronamespace
where n.nspname = 'public' and (p.proname like 'admin\_%' or p.proname in ('promote_self', 'movers_feed', 'movers_stream_open', 'price_history_for',
                                                                              'history_candles', 'history_insights', 'history_compare'))
order by p.proname;

select plan((select count(*)::int from checks) + 12);

select tables_are('public', array['profiles', 'instruments', 'price_history', 'movers', 'strategy_signals',
  'strategy_signal_outcomes', 'order_books', 'funding_rates', 'groups', 'group_members', 'messages', 'user_blocks',
  'user_reports', 'support_tickets', 'ticket_messages', 'activity_logs', 'alerts_sent', 'billing_customers',
  'billing_subscriptions', 'billing_events', 'source_health', 'ticket_notes', 'canned_replies',
  'alert_symbol_rules', 'candles_5m', 'candles_1h', 'stream_health'],
  'schema public holds exactly the tables of the data model');
select is(
  (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('public', 'graphql_public', 'storage') and c.relkind in ('r', 'p') and not c.relrowsecurity),
  0, 'no table without row-level security in an exposed schema');
-- pg_cron's own cron.job and cron.job_run_details carry its FOR ALL policies (as on hosted).
select is((select count(*)::int from pg_policies where cmd = 'ALL' and schemaname <> 'cron'), 0,
  'no policy of ours is FOR ALL');

select ok(passed, descr) from checks order by ord;

select functions_are('public', array['allowed_windows', 'fallback_window', 'plan_price_eur', 'username_available',
  'touch_activity', 'movers_feed', 'join_group_by_invite', 'admin_set_plan', 'admin_set_subscription', 'admin_ban_user',
  'admin_unban_user', 'admin_delete_user', 'admin_set_ticket_status', 'admin_stats', 'admin_live_visitors',
  'admin_latest_alerts', 'promote_self', 'ingest_scan', 'ingest_backfill', 'ingest_replayed_signals', 'record_signal_outcomes',
  'signal_track_record', 'price_history_for', 'record_source_health', 'record_stream_health',
  'group_messages', 'group_member_profiles', 'list_groups', 'blocked_users',
  'group_senders', 'ticket_senders',
  'admin_list_users', 'admin_activity_logs', 'admin_reports', 'admin_review_report', 'admin_delete_message',
  'mute_alert_symbol', 'unsubscribe_alert_email',
  'enqueue_alerts', 'claim_outbox', 'complete_outbox', 'complete_outbox_batch', 'fail_outbox', 'move_telegram_chat',
  'history_candles', 'history_insights', 'history_compare', 'run_candle_rollup', 'support_response_target',
  'run_support_escalation', 'begin_outbox_sends', 'admin_alert_delivery_stats', 'doubt_outbox', 'movers_sparklines',
  'reserve_chat_gif', 'take_delivery_tokens', 'pause_delivery_bucket', 'take_plan_change_slot',
  'release_outbox', 'reserve_delivery_slots', 'movers_stream_open',
  'enqueue_alerts_between', 'session_caller', 'write_alert_jobs'],
  'the API exposes exactly these functions');

-- Private helpers: only the policy helpers are callable by API roles; the logging, lookup and
-- trigger functions are not (a user calling log_admin_action or target_profile would forge logs
-- or read any profile).
select set_eq(
  $$select p.proname::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'private' and has_function_privilege('authenticated', p.oid, 'execute')$$,
  array['is_admin', 'is_active_user', 'has_active_plan', 'current_plan', 'is_group_member', 'is_group_admin',
        'group_is_public', 'owns_ticket', 'chat_gif_group', 'chat_gif_reserved'],
  'authenticated executes only the policy helpers of schema private'
);
select set_eq(
  $$select p.proname::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'private' and has_function_privilege('anon', p.oid, 'execute')$$,
  array['is_admin', 'is_active_user', 'has_active_plan', 'current_plan'],
  'anon executes only the caller-state helpers of schema private'
);
select table_privs_are('private', 'app_settings', 'anon', array[]::text[], 'anon has no access to private.app_settings');
select table_privs_are('private', 'app_settings', 'authenticated', array[]::text[], 'authenticated has no access to private.app_settings');
select table_privs_are('private', 'promotion_attempts', 'authenticated', array[]::text[],
  'authenticated has no access to private.promotion_attempts');

-- The only definer-rights view is the deliberate landing-page teaser.
select set_eq(
  $$select c.relname::text from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'v'
      and not coalesce(c.reloptions @> array['security_invoker=true'], false)$$,
  array['movers_teaser'],
  'movers_teaser is the only view that runs with its owner''s rights'
);

-- Writes to movers, logs, alerts and billing are for the service role only.
select is(
  (select array_agg(format('%s:%s', t, priv) order by t, priv)
   from unnest(array['instruments', 'price_history', 'movers', 'strategy_signals', 'strategy_signal_outcomes',
                     'order_books', 'funding_rates', 'activity_logs', 'alerts_sent', 'billing_customers',
                     'billing_subscriptions', 'billing_events', 'profiles']) t,
        unnest(array['INSERT', 'UPDATE', 'DELETE']) priv,
        unnest(array['anon', 'authenticated']) r
   where has_table_privilege(r, 'public.' || t, priv) and not (t = 'profiles' and priv = 'UPDATE' and r = 'authenticated')),
  null,
  'anon and authenticated cannot write service-role tables (profiles: column-level updates only)'
);

-- Style rule: one permissive policy per table, command and role.
select is_empty(
  $$select schemaname, tablename, cmd, r from pg_policies, unnest(roles) r
    where schemaname in ('public', 'storage') and permissive = 'PERMISSIVE'
    group by 1, 2, 3, 4 having count(*) > 1$$,
  'one permissive policy per table, command and role'
);

select * from finish();
rollback;
