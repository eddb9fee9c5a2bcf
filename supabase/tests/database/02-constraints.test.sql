-- Constraints and data rules: formats, ranges, uniqueness, plan rules for windows and e-mail
-- alerts, attachments, groups, tickets, bans, blocks, reports and enumerations.
--
-- Most cases are rows of the table `c` below: a statement, who runs it (a fixture user via the
-- API role `authenticated`, or the superuser when the column is not user-writable), an optional
-- read-back query (run as the superuser), and the expected outcome:
--   'ok'            the statement succeeds ('ok: <value>' when a read-back query is given)
--   'XXXXX'         it fails with that SQLSTATE (23514 check, 23505 unique, 23502 not null,
--                   22P02 invalid enum label, 42501 privilege)
-- Every case runs in a subtransaction that is rolled back, so cases do not affect each other.
-- Placeholders: {none} {basic} {pro} {ent} {other} = fixture users, {group}, {ticket}.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;

-- ---------------------------------------------------------------------------------------------
-- Fixtures
-- ---------------------------------------------------------------------------------------------
create temp table who (code text primary key, uid uuid, plan public.plan);
insert into who values
  ('none',  'a2000000-0000-4000-8000-000000000001', 'none'),
  ('basic', 'a2000000-0000-4000-8000-000000000002', 'basic'),
  ('pro',   'a2000000-0000-4000-8000-000000000003', 'pro'),
  ('ent',   'a2000000-0000-4000-8000-000000000004', 'enterprise'),
  ('other', 'a2000000-0000-4000-8000-000000000005', 'none');
grant select on who to authenticated;

insert into auth.users (id, email) select uid, code || '@constraints.test' from who;
update public.profiles p set plan = w.plan, subscription_active = w.plan <> 'none'
from who w where p.id = w.uid;
update public.profiles set username = 'Trader_Joe' where id = 'a2000000-0000-4000-8000-000000000005';
insert into public.groups (id, name, created_by)
values ('b2000000-0000-4000-8000-000000000001', 'Constraint group', 'a2000000-0000-4000-8000-000000000001');
insert into public.support_tickets (id, user_id, subject, content)
values ('d2000000-0000-4000-8000-000000000001', 'a2000000-0000-4000-8000-000000000001', 'Fixture ticket', 'Fixture ticket content');
insert into public.user_blocks (blocker_id, blocked_id)
values ('a2000000-0000-4000-8000-000000000001', 'a2000000-0000-4000-8000-000000000005');
insert into public.user_reports (reporter_id, reported_id, reason)
values ('a2000000-0000-4000-8000-000000000001', 'a2000000-0000-4000-8000-000000000005', 'spam');
insert into public.instruments (symbol, exchange) values ('CST/USD', 'Constraints');
insert into public.strategy_signals (symbol, exchange, timeframe, strategy, signal, confidence, confidence_tier, price)
values ('CST/USD', 'Constraints', '1h', 'rsi', 'bullish', 0.5, 'medium', 1);
insert into public.strategy_signal_outcomes (signal_id, symbol, exchange, strategy, signal, entry_price, exit_price,
  pct_change, was_correct, hours_elapsed)
select id, symbol, exchange, strategy, signal, 1, 1, 0, true, 1 from public.strategy_signals where symbol = 'CST/USD';
insert into public.alerts_sent (symbol, exchange, pct, price, ts, recipient, hash)
values ('CST/USD', 'Constraints', 1, 1, now(), 'ent@constraints.test', 'cst-hash');
insert into public.billing_customers (user_id, stripe_customer_id) values ('a2000000-0000-4000-8000-000000000002', 'cus_cst');

-- ---------------------------------------------------------------------------------------------
-- Helpers
-- ---------------------------------------------------------------------------------------------
create function pg_temp.expand(s text) returns text language sql stable as $$
  select replace(replace(replace(replace(replace(replace(replace(s,
    '{none}', quote_literal('a2000000-0000-4000-8000-000000000001')),
    '{basic}', quote_literal('a2000000-0000-4000-8000-000000000002')),
    '{pro}', quote_literal('a2000000-0000-4000-8000-000000000003')),
    '{ent}', quote_literal('a2000000-0000-4000-8000-000000000004')),
    '{other}', quote_literal('a2000000-0000-4000-8000-000000000005')),
    '{group}', quote_literal('b2000000-0000-4000-8000-000000000001')),
    '{ticket}', quote_literal('d2000000-0000-4000-8000-000000000001'))
$$;

-- Run stmt as `actor` (a code of pg_temp.who; null = superuser), read back, roll back.
create function pg_temp.attempt(stmt text, actor text default null, read_back text default null)
returns text language plpgsql as $$
declare
  u uuid;
  v text;
  res text;
begin
  if actor is not null then
    select uid into strict u from pg_temp.who where code = actor;
  end if;
  begin
    if u is not null then
      perform tests.authenticate_as(u);
    end if;
    execute pg_temp.expand(stmt);
    perform set_config('role', 'none', true);
    res := 'ok';
    if read_back is not null then
      execute pg_temp.expand(read_back) into v;
      res := 'ok: ' || coalesce(v, 'null');
    end if;
    raise exception using errcode = 'TPROB', message = res;
  exception
    when sqlstate 'TPROB' then res := sqlerrm;
    when others then res := sqlstate;
  end;
  perform tests.clear_authentication();
  return res;
end;
$$;

create temp table c (ord serial, area text, descr text, actor text, stmt text, want text,
                     read_back text default null, todo text default null);

create function pg_temp.run_cases() returns setof text language plpgsql as $$
declare
  r record;
begin
  for r in select * from pg_temp.c order by ord loop
    if r.todo is not null then
      perform todo(r.todo, 1);
    end if;
    return next is(pg_temp.attempt(r.stmt, r.actor, r.read_back), r.want, r.area || ': ' || r.descr);
  end loop;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Cases
-- ---------------------------------------------------------------------------------------------
-- Usernames: 3-30 letters, digits, underscores; unique regardless of case.
insert into c (area, descr, actor, stmt, want) values
  ('username', '3 characters', 'none', $$update profiles set username = 'abc' where id = {none}$$, 'ok'),
  ('username', 'letters, digits, underscore', 'none', $$update profiles set username = 'A_b_9' where id = {none}$$, 'ok'),
  ('username', '30 characters', 'none', $$update profiles set username = repeat('a', 30) where id = {none}$$, 'ok'),
  ('username', 'may be cleared', 'none', $$update profiles set username = null where id = {none}$$, 'ok'),
  ('username', '2 characters refused', 'none', $$update profiles set username = 'ab' where id = {none}$$, '23514'),
  ('username', '31 characters refused', 'none', $$update profiles set username = repeat('a', 31) where id = {none}$$, '23514'),
  ('username', 'empty refused', 'none', $$update profiles set username = '' where id = {none}$$, '23514'),
  ('username', 'space refused', 'none', $$update profiles set username = 'has space' where id = {none}$$, '23514'),
  ('username', 'dash refused', 'none', $$update profiles set username = 'dash-name' where id = {none}$$, '23514'),
  ('username', 'accented letter refused', 'none', $$update profiles set username = 'émile' where id = {none}$$, '23514'),
  ('username', 'punctuation refused', 'none', $$update profiles set username = 'name!' where id = {none}$$, '23514'),
  ('username', 'taken name refused', 'none', $$update profiles set username = 'Trader_Joe' where id = {none}$$, '23505'),
  ('username', 'taken name in lower case refused', 'none', $$update profiles set username = 'trader_joe' where id = {none}$$, '23505'),
  ('username', 'taken name in upper case refused', 'none', $$update profiles set username = 'TRADER_JOE' where id = {none}$$, '23505'),
  ('username', 'similar free name accepted', 'none', $$update profiles set username = 'trader_joe2' where id = {none}$$, 'ok'),
  ('username', 'the owner may re-case their own name', 'other', $$update profiles set username = 'trader_JOE' where id = {other}$$, 'ok'),
  ('username', 'several users may have none', 'basic', $$update profiles set username = null where id = {basic}$$, 'ok');

-- Threshold 1-100 (one decimal).
insert into c (area, descr, actor, stmt, want, read_back) values
  ('threshold', '1 accepted', 'none', $$update profiles set user_threshold = 1 where id = {none}$$, 'ok', null),
  ('threshold', '100 accepted', 'none', $$update profiles set user_threshold = 100 where id = {none}$$, 'ok', null),
  ('threshold', '55.5 accepted and kept', 'none', $$update profiles set user_threshold = 55.5 where id = {none}$$,
   'ok: 55.5', $$select user_threshold::text from profiles where id = {none}$$),
  ('threshold', '0.9 refused', 'none', $$update profiles set user_threshold = 0.9 where id = {none}$$, '23514', null),
  ('threshold', '0 refused', 'none', $$update profiles set user_threshold = 0 where id = {none}$$, '23514', null),
  ('threshold', 'negative refused', 'none', $$update profiles set user_threshold = -1 where id = {none}$$, '23514', null),
  ('threshold', '100.1 refused', 'none', $$update profiles set user_threshold = 100.1 where id = {none}$$, '23514', null),
  ('threshold', 'null refused', 'none', $$update profiles set user_threshold = null where id = {none}$$, '23502', null);

-- Windows: range 0-30 and the windows of each plan (refused with 23514), per plan below.
insert into c (area, descr, actor, stmt, want) values
  ('window', '31 refused even for enterprise', 'ent', $$update profiles set selected_window_minutes = 31 where id = {ent}$$, '23514'),
  ('window', 'negative refused', 'ent', $$update profiles set selected_window_minutes = -5 where id = {ent}$$, '23514'),
  ('window', 'null refused', 'ent', $$update profiles set selected_window_minutes = null where id = {ent}$$, '23502'),
  ('window', 'the range check also binds the service role', null,
   $$alter table profiles disable trigger profiles_enforce_plan_rules; update profiles set selected_window_minutes = 45 where id = {ent}$$, '23514');

-- E-mail alerts: a valid address or empty (stored as null); enterprise only.
insert into c (area, descr, actor, stmt, want, read_back) values
  ('email_alert', 'enterprise sets a valid address', 'ent', $$update profiles set email_alert = 'alerts@example.com' where id = {ent}$$,
   'ok: alerts@example.com', $$select email_alert from profiles where id = {ent}$$),
  ('email_alert', 'plus and dots accepted', 'ent', $$update profiles set email_alert = 'first.last+tag@sub.example.co' where id = {ent}$$, 'ok', null),
  ('email_alert', 'empty is stored as null', 'ent', $$update profiles set email_alert = '' where id = {ent}$$,
   'ok: null', $$select email_alert from profiles where id = {ent}$$),
  ('email_alert', 'null accepted', 'ent', $$update profiles set email_alert = null where id = {ent}$$, 'ok', null),
  ('email_alert', 'no @ refused', 'ent', $$update profiles set email_alert = 'not-an-email' where id = {ent}$$, '23514', null),
  ('email_alert', 'no domain dot refused', 'ent', $$update profiles set email_alert = 'a@b' where id = {ent}$$, '23514', null),
  ('email_alert', 'one-letter TLD refused', 'ent', $$update profiles set email_alert = 'a@b.c' where id = {ent}$$, '23514', null),
  ('email_alert', 'space refused', 'ent', $$update profiles set email_alert = 'a b@example.com' where id = {ent}$$, '23514', null),
  ('email_alert', 'pro refused', 'pro', $$update profiles set email_alert = 'alerts@example.com' where id = {pro}$$, '23514', null),
  ('email_alert', 'basic refused', 'basic', $$update profiles set email_alert = 'alerts@example.com' where id = {basic}$$, '23514', null),
  ('email_alert', 'no plan refused', 'none', $$update profiles set email_alert = 'alerts@example.com' where id = {none}$$, '23514', null),
  ('email_alert', 'pro may clear it', 'pro', $$update profiles set email_alert = '' where id = {pro}$$, 'ok', null),
  ('email_alert', 'enterprise-only also binds the service role', null,
   $$update profiles set email_alert = 'alerts@example.com' where id = {pro}$$, '23514', null);

-- Exchanges: a subset of coinbase, dex, cex-major.
insert into c (area, descr, actor, stmt, want, read_back) values
  ('exchanges', 'default is all three', null, $$select 1$$, 'ok: {coinbase,dex,cex-major}',
   $$select selected_exchanges::text from profiles where id = {none}$$),
  ('exchanges', 'one of them', 'none', $$update profiles set selected_exchanges = '{coinbase}' where id = {none}$$, 'ok', null),
  ('exchanges', 'all three', 'none', $$update profiles set selected_exchanges = '{cex-major,dex,coinbase}' where id = {none}$$, 'ok', null),
  ('exchanges', 'empty list', 'none', $$update profiles set selected_exchanges = '{}' where id = {none}$$, 'ok', null),
  ('exchanges', 'unknown exchange refused', 'none', $$update profiles set selected_exchanges = '{binance}' where id = {none}$$, '23514', null),
  ('exchanges', 'one unknown among known refused', 'none', $$update profiles set selected_exchanges = '{coinbase,binance}' where id = {none}$$, '23514', null),
  ('exchanges', 'case matters', 'none', $$update profiles set selected_exchanges = '{Coinbase}' where id = {none}$$, '23514', null),
  ('exchanges', 'null refused', 'none', $$update profiles set selected_exchanges = null where id = {none}$$, '23502', null);

-- Discord webhooks and Telegram chats.
insert into c (area, descr, actor, stmt, want) values
  ('discord', 'discord.com webhook', 'ent', $$update profiles set discord_webhook_url = 'https://discord.com/api/webhooks/123456/abc_DEF-9' where id = {ent}$$, 'ok'),
  ('discord', 'discordapp.com webhook', 'ent', $$update profiles set discord_webhook_url = 'https://discordapp.com/api/webhooks/1/x' where id = {ent}$$, 'ok'),
  ('discord', 'ptb.discord.com webhook', 'ent', $$update profiles set discord_webhook_url = 'https://ptb.discord.com/api/webhooks/1/x' where id = {ent}$$, 'ok'),
  ('discord', 'canary.discord.com webhook', 'ent', $$update profiles set discord_webhook_url = 'https://canary.discord.com/api/webhooks/1/x' where id = {ent}$$, 'ok'),
  ('discord', 'empty', 'ent', $$update profiles set discord_webhook_url = '' where id = {ent}$$, 'ok'),
  ('discord', 'http refused', 'ent', $$update profiles set discord_webhook_url = 'http://discord.com/api/webhooks/1/x' where id = {ent}$$, '23514'),
  ('discord', 'other host refused', 'ent', $$update profiles set discord_webhook_url = 'https://evil.example/api/webhooks/1/x' where id = {ent}$$, '23514'),
  ('discord', 'look-alike host refused', 'ent', $$update profiles set discord_webhook_url = 'https://discord.com.evil.example/api/webhooks/1/x' where id = {ent}$$, '23514'),
  ('discord', 'non-numeric id refused', 'ent', $$update profiles set discord_webhook_url = 'https://discord.com/api/webhooks/abc/x' where id = {ent}$$, '23514'),
  ('discord', 'extra path refused', 'ent', $$update profiles set discord_webhook_url = 'https://discord.com/api/webhooks/1/x/extra' where id = {ent}$$, '23514'),
  ('telegram', 'numeric chat id', 'ent', $$update profiles set telegram_chat_id = '123456789' where id = {ent}$$, 'ok'),
  ('telegram', 'negative group id', 'ent', $$update profiles set telegram_chat_id = '-1001234567890' where id = {ent}$$, 'ok'),
  ('telegram', '@channel name', 'ent', $$update profiles set telegram_chat_id = '@channel_name' where id = {ent}$$, 'ok'),
  ('telegram', '@name of 5 characters', 'ent', $$update profiles set telegram_chat_id = '@abcde' where id = {ent}$$, 'ok'),
  ('telegram', 'empty', 'ent', $$update profiles set telegram_chat_id = '' where id = {ent}$$, 'ok'),
  ('telegram', '@name of 4 characters refused', 'ent', $$update profiles set telegram_chat_id = '@abcd' where id = {ent}$$, '23514'),
  ('telegram', '@name starting with a digit refused', 'ent', $$update profiles set telegram_chat_id = '@1abcde' where id = {ent}$$, '23514'),
  ('telegram', 'bare name refused', 'ent', $$update profiles set telegram_chat_id = 'channel' where id = {ent}$$, '23514'),
  ('telegram', '21 digits refused', 'ent', $$update profiles set telegram_chat_id = '123456789012345678901' where id = {ent}$$, '23514'),
  ('telegram', 'inner space refused', 'ent', $$update profiles set telegram_chat_id = '12 34' where id = {ent}$$, '23514');

-- Ban reason 5-500 (trimmed); unbanning clears reason and date; banning stamps the date.
insert into c (area, descr, actor, stmt, want, read_back) values
  ('ban', 'reason of 5 characters', null, $$update profiles set banned = true, banned_reason = 'abcde' where id = {other}$$, 'ok', null),
  ('ban', 'reason of 500 characters', null, $$update profiles set banned = true, banned_reason = repeat('r', 500) where id = {other}$$, 'ok', null),
  ('ban', 'missing reason refused', null, $$update profiles set banned = true where id = {other}$$, '23514', null),
  ('ban', 'reason of 4 characters refused', null, $$update profiles set banned = true, banned_reason = 'abcd' where id = {other}$$, '23514', null),
  ('ban', 'reason of 4 characters padded with spaces refused', null,
   $$update profiles set banned = true, banned_reason = '    abcd    ' where id = {other}$$, '23514', null),
  ('ban', 'reason of 501 characters refused', null, $$update profiles set banned = true, banned_reason = repeat('r', 501) where id = {other}$$, '23514', null),
  ('ban', 'banning stamps banned_at', null, $$update profiles set banned = true, banned_reason = 'Spam links' where id = {other}$$,
   'ok: true', $$select banned_at = now() from profiles where id = {other}$$),
  ('ban', 'unbanning clears reason and date', null,
   $$update profiles set banned = true, banned_reason = 'Spam links' where id = {other};
     update profiles set banned = false where id = {other}$$,
   'ok: null/null', $$select coalesce(banned_reason, 'null') || '/' || coalesce(banned_at::text, 'null') from profiles where id = {other}$$),
  ('ban', 'users cannot ban or unban themselves', 'none', $$update profiles set banned = false where id = {none}$$, '42501', null);

-- Chat messages: 1-2000 characters, not blank; a GIF attachment needs an http(s) URL.
insert into c (area, descr, actor, stmt, want, read_back, todo) values
  ('message', 'one character', 'none', $$insert into messages (group_id, content) values ({group}, 'a')$$, 'ok', null, null),
  ('message', '2000 characters', 'none', $$insert into messages (group_id, content) values ({group}, repeat('m', 2000))$$, 'ok', null, null),
  ('message', '2001 characters refused', 'none', $$insert into messages (group_id, content) values ({group}, repeat('m', 2001))$$, '23514', null, null),
  ('message', 'empty refused', 'none', $$insert into messages (group_id, content) values ({group}, '')$$, '23514', null, null),
  ('message', 'spaces only refused', 'none', $$insert into messages (group_id, content) values ({group}, '   ')$$, '23514', null, null),
  ('message', 'whitespace only (newline, tab) refused', 'none', $$insert into messages (group_id, content) values ({group}, E'\n\t ')$$, '23514', null, null),
  ('message', 'null refused', 'none', $$insert into messages (group_id, content) values ({group}, null)$$, '23502', null, null),
  ('message', 'attachment defaults to none', 'none', $$insert into messages (id, group_id, content) values ('c2000000-0000-4000-8000-000000000009', {group}, 'plain')$$,
   'ok: none', $$select attachment_type::text from messages where id = 'c2000000-0000-4000-8000-000000000009'$$, null),
  ('message', 'gif with https URL', 'none', $$insert into messages (group_id, content, attachment_type, attachment_url) values ({group}, 'gif', 'gif', 'https://media.example.test/x.gif')$$, 'ok', null, null),
  ('message', 'gif with http URL', 'none', $$insert into messages (group_id, content, attachment_type, attachment_url) values ({group}, 'gif', 'gif', 'http://media.example.test/x.gif')$$, 'ok', null, null),
  ('message', 'gif without URL refused', 'none', $$insert into messages (group_id, content, attachment_type) values ({group}, 'gif', 'gif')$$, '23514', null, null),
  ('message', 'gif with a non-http URL refused', 'none', $$insert into messages (group_id, content, attachment_type, attachment_url) values ({group}, 'gif', 'gif', 'javascript:alert(1)')$$, '23514', null, null),
  ('message', 'URL without attachment refused', 'none', $$insert into messages (group_id, content, attachment_url) values ({group}, 'x', 'https://media.example.test/x.gif')$$, '23514', null, null),
  ('message', 'unknown attachment type refused', 'none', $$insert into messages (group_id, content, attachment_type) values ({group}, 'x', 'png')$$, '22P02', null, null),
  ('message', 'edit to empty refused', 'none',
   $$insert into messages (id, group_id, content) values ('c2000000-0000-4000-8000-000000000001', {group}, 'first');
     update messages set content = '' where id = 'c2000000-0000-4000-8000-000000000001'$$, '23514', null, null),
  ('message', 'edit to blank refused', 'none',
   $$insert into messages (id, group_id, content) values ('c2000000-0000-4000-8000-000000000001', {group}, 'first');
     update messages set content = '  ' where id = 'c2000000-0000-4000-8000-000000000001'$$, '23514', null, null);

-- Groups: name 3-50 non-blank after trim, description up to 200, public by default.
insert into c (area, descr, actor, stmt, want, read_back) values
  ('group', 'name of 3 characters', 'none', $$insert into groups (name, created_by) values ('abc', {none})$$, 'ok', null),
  ('group', 'name of 50 characters', 'none', $$insert into groups (name, created_by) values (repeat('g', 50), {none})$$, 'ok', null),
  ('group', 'padded name of 3 characters', 'none', $$insert into groups (name, created_by) values ('   abc   ', {none})$$, 'ok', null),
  ('group', 'name of 2 characters refused', 'none', $$insert into groups (name, created_by) values ('ab', {none})$$, '23514', null),
  ('group', 'padded name of 2 characters refused', 'none', $$insert into groups (name, created_by) values ('  ab  ', {none})$$, '23514', null),
  ('group', 'blank name refused', 'none', $$insert into groups (name, created_by) values ('     ', {none})$$, '23514', null),
  ('group', 'name of 51 characters refused', 'none', $$insert into groups (name, created_by) values (repeat('g', 51), {none})$$, '23514', null),
  ('group', 'null name refused', 'none', $$insert into groups (name, created_by) values (null, {none})$$, '23502', null),
  ('group', 'description of 200 characters', 'none', $$insert into groups (name, description, created_by) values ('Desc', repeat('d', 200), {none})$$, 'ok', null),
  ('group', 'description of 201 characters refused', 'none', $$insert into groups (name, description, created_by) values ('Desc', repeat('d', 201), {none})$$, '23514', null),
  ('group', 'rename to 2 characters refused', 'none', $$update groups set name = 'ab' where id = {group}$$, '23514', null),
  ('group', 'public by default, with an invite code', 'none',
   $$insert into groups (id, name, created_by) values ('b2000000-0000-4000-8000-000000000009', 'Defaults', {none})$$,
   'ok: true', $$select is_public and invite_code is not null from groups where id = 'b2000000-0000-4000-8000-000000000009'$$),
  ('group', 'invite codes are unique', null,
   $$insert into groups (name, invite_code) select 'Copycat', invite_code from groups where id = {group}$$, '23505', null),
  ('group', 'a user is a member only once', null, $$insert into group_members (group_id, user_id) values ({group}, {none})$$, '23505', null),
  ('group', 'membership role defaults to member', 'basic', $$insert into group_members (group_id, user_id) values ({group}, {basic})$$,
   'ok: member', $$select role::text from group_members where group_id = {group} and user_id = {basic}$$),
  ('group', 'unknown membership role refused', null, $$insert into group_members (group_id, user_id, role) values ({group}, {basic}, 'owner')$$, '22P02', null);

-- Support tickets: subject 5-100, content 10-2000 (trimmed), four statuses and priorities.
insert into c (area, descr, actor, stmt, want, read_back) values
  ('ticket', 'subject of 5 characters', 'none', $$insert into support_tickets (subject, content) values ('abcde', 'ten chars!')$$, 'ok', null),
  ('ticket', 'subject of 100 characters', 'none', $$insert into support_tickets (subject, content) values (repeat('s', 100), 'ten chars!')$$, 'ok', null),
  ('ticket', 'subject of 4 characters refused', 'none', $$insert into support_tickets (subject, content) values ('abcd', 'ten chars!')$$, '23514', null),
  ('ticket', 'padded subject of 4 characters refused', 'none', $$insert into support_tickets (subject, content) values ('   abcd   ', 'ten chars!')$$, '23514', null),
  ('ticket', 'subject of 101 characters refused', 'none', $$insert into support_tickets (subject, content) values (repeat('s', 101), 'ten chars!')$$, '23514', null),
  ('ticket', 'content of 10 characters', 'none', $$insert into support_tickets (subject, content) values ('Subject', repeat('c', 10))$$, 'ok', null),
  ('ticket', 'content of 2000 characters', 'none', $$insert into support_tickets (subject, content) values ('Subject', repeat('c', 2000))$$, 'ok', null),
  ('ticket', 'content of 9 characters refused', 'none', $$insert into support_tickets (subject, content) values ('Subject', repeat('c', 9))$$, '23514', null),
  ('ticket', 'content of 2001 characters refused', 'none', $$insert into support_tickets (subject, content) values ('Subject', repeat('c', 2001))$$, '23514', null),
  ('ticket', 'defaults: open, medium, owned by the caller', 'none',
   $$insert into support_tickets (subject, content) values ('Defaults', 'Default values')$$,
   'ok: open/medium/true', $$select status || '/' || priority || '/' || (user_id = {none}) from support_tickets where subject = 'Defaults'$$),
  ('ticket', 'priority low', 'none', $$insert into support_tickets (subject, content, priority) values ('Subject', 'Content ok!', 'low')$$, 'ok', null),
  ('ticket', 'priority medium', 'none', $$insert into support_tickets (subject, content, priority) values ('Subject', 'Content ok!', 'medium')$$, 'ok', null),
  ('ticket', 'priority high', 'none', $$insert into support_tickets (subject, content, priority) values ('Subject', 'Content ok!', 'high')$$, 'ok', null),
  ('ticket', 'priority urgent', 'none', $$insert into support_tickets (subject, content, priority) values ('Subject', 'Content ok!', 'urgent')$$, 'ok', null),
  ('ticket', 'unknown priority refused', 'none', $$insert into support_tickets (subject, content, priority) values ('Subject', 'Content ok!', 'critical')$$, '22P02', null),
  ('ticket', 'status open', null, $$update support_tickets set status = 'open' where id = {ticket}$$, 'ok', null),
  ('ticket', 'status in_progress', null, $$update support_tickets set status = 'in_progress' where id = {ticket}$$, 'ok', null),
  ('ticket', 'status resolved', null, $$update support_tickets set status = 'resolved' where id = {ticket}$$, 'ok', null),
  ('ticket', 'status closed', null, $$update support_tickets set status = 'closed' where id = {ticket}$$, 'ok', null),
  ('ticket', 'unknown status refused', null, $$update support_tickets set status = 'pending' where id = {ticket}$$, '22P02', null),
  ('ticket', 'users cannot choose a status', 'none', $$insert into support_tickets (subject, content, status) values ('Subject', 'Content ok!', 'closed')$$, '42501', null),
  ('ticket', 'users cannot choose a ticket number', 'none', $$insert into support_tickets (subject, content, ticket_number) values ('Subject', 'Content ok!', 1)$$, '42501', null),
  ('ticket', 'a duplicate ticket number refused', null,
   $$insert into support_tickets (user_id, subject, content, ticket_number) select {none}, 'Subject', 'Content ok!', ticket_number from support_tickets where id = {ticket}$$, '23505', null),
  ('ticket reply', 'one character', 'none', $$insert into ticket_messages (ticket_id, content) values ({ticket}, 'a')$$, 'ok', null),
  ('ticket reply', '2000 characters', 'none', $$insert into ticket_messages (ticket_id, content) values ({ticket}, repeat('r', 2000))$$, 'ok', null),
  ('ticket reply', '2001 characters refused', 'none', $$insert into ticket_messages (ticket_id, content) values ({ticket}, repeat('r', 2001))$$, '23514', null),
  ('ticket reply', 'empty refused', 'none', $$insert into ticket_messages (ticket_id, content) values ({ticket}, '')$$, '23514', null),
  ('ticket reply', 'blank refused', 'none', $$insert into ticket_messages (ticket_id, content) values ({ticket}, '   ')$$, '23514', null);

-- Blocks and reports.
insert into c (area, descr, actor, stmt, want) values
  ('block', 'the same pair twice refused', 'none', $$insert into user_blocks (blocked_id) values ({other})$$, '23505'),
  ('block', 'the reverse pair accepted', 'other', $$insert into user_blocks (blocked_id) values ({none})$$, 'ok'),
  ('block', 'blocking oneself refused', 'none', $$insert into user_blocks (blocked_id) values ({none})$$, '23514'),
  ('report', 'the same triple twice refused', 'none', $$insert into user_reports (reported_id, reason) values ({other}, 'spam')$$, '23505'),
  ('report', 'another reason accepted', 'none', $$insert into user_reports (reported_id, reason) values ({other}, 'harassment')$$, 'ok'),
  ('report', 'another reporter accepted', 'basic', $$insert into user_reports (reported_id, reason) values ({other}, 'spam')$$, 'ok'),
  ('report', 'reporting oneself refused', 'none', $$insert into user_reports (reported_id, reason) values ({none}, 'other')$$, '23514'),
  ('report', 'description of 1000 characters', 'none', $$insert into user_reports (reported_id, reason, description) values ({other}, 'other', repeat('d', 1000))$$, 'ok'),
  ('report', 'description of 1001 characters refused', 'none', $$insert into user_reports (reported_id, reason, description) values ({other}, 'other', repeat('d', 1001))$$, '23514'),
  ('report', 'unknown reason refused', 'none', $$insert into user_reports (reported_id, reason) values ({other}, 'rude')$$, '22P02');

-- Market data, alerts, logs and billing (written by the service role).
insert into c (area, descr, actor, stmt, want) values
  ('market', 'instrument symbol required', null, $$insert into instruments (symbol, exchange) values ('', 'X')$$, '23514'),
  ('market', 'instrument exchange of 121 characters refused', null, $$insert into instruments (symbol, exchange) values ('S', repeat('x', 121))$$, '23514'),
  ('market', 'instrument pool URL must be https', null, $$insert into instruments (symbol, exchange, pool_url) values ('S', 'X', 'http://pool.example')$$, '23514'),
  ('market', 'instrument per venue is unique', null, $$insert into instruments (symbol, exchange) values ('CST/USD', 'Constraints')$$, '23505'),
  ('market', 'negative price refused', null, $$insert into price_history (instrument_id, ts, price) select id, now(), -1 from instruments where symbol = 'CST/USD'$$, '23514'),
  ('market', 'one price sample per instrument and time', null,
   $$insert into price_history (instrument_id, ts, price) select id, '2026-01-01', 1 from instruments where symbol = 'CST/USD';
     insert into price_history (instrument_id, ts, price) select id, '2026-01-01', 2 from instruments where symbol = 'CST/USD'$$, '23505'),
  ('market', 'one mover per instrument', null,
   $$insert into movers (instrument_id, symbol, exchange, price) select id, symbol, exchange, 1 from instruments where symbol = 'CST/USD';
     insert into movers (instrument_id, symbol, exchange, price) select id, symbol, exchange, 1 from instruments where symbol = 'CST/USD'$$, '23505'),
  ('market', 'negative mover price refused', null,
   $$insert into movers (instrument_id, symbol, exchange, price) select id, symbol, exchange, -1 from instruments where symbol = 'CST/USD'$$, '23514'),
  ('market', 'signal confidence above 1 refused', null, $$update strategy_signals set confidence = 1.01 where symbol = 'CST/USD'$$, '23514'),
  ('market', 'negative signal confidence refused', null, $$update strategy_signals set confidence = -0.01 where symbol = 'CST/USD'$$, '23514'),
  ('market', 'unknown strategy refused', null, $$update strategy_signals set strategy = 'ichimoku' where symbol = 'CST/USD'$$, '22P02'),
  ('market', 'one outcome per signal', null,
   $$insert into strategy_signal_outcomes (signal_id, symbol, exchange, strategy, signal, entry_price, exit_price, pct_change, was_correct, hours_elapsed)
     select signal_id, symbol, exchange, strategy, signal, 1, 1, 0, true, 1 from strategy_signal_outcomes$$, '23505'),
  ('market', 'negative elapsed hours refused', null, $$update strategy_signal_outcomes set hours_elapsed = -1$$, '23514'),
  ('market', 'negative spread refused', null, $$insert into order_books (symbol, exchange, liquidity_score, spread_pct) values ('S', 'X', 'deep', -1)$$, '23514'),
  ('market', 'negative depth within 1 % refused', null, $$insert into order_books (symbol, exchange, liquidity_score, bid_volume_1pct) values ('S', 'X', 'deep', -1)$$, '23514'),
  ('alerts', 'each delivery hash once', null,
   $$insert into alerts_sent (symbol, exchange, pct, price, ts, recipient, hash) values ('S', 'X', 1, 1, now(), 'r', 'cst-hash')$$, '23505'),
  ('alerts', 'negative price refused', null,
   $$insert into alerts_sent (symbol, exchange, pct, price, ts, recipient, hash) values ('S', 'X', 1, -1, now(), 'r', 'h2')$$, '23514'),
  ('logs', 'empty action refused', null, $$insert into activity_logs (action) values ('')$$, '23514'),
  ('logs', 'action of 65 characters refused', null, $$insert into activity_logs (action) values (repeat('a', 65))$$, '23514'),
  ('billing', 'one Stripe customer id per customer', null,
   $$insert into billing_customers (user_id, stripe_customer_id) values ({pro}, 'cus_cst')$$, '23505'),
  ('billing', 'one customer row per user', null,
   $$insert into billing_customers (user_id, stripe_customer_id) values ({basic}, 'cus_other')$$, '23505'),
  ('billing', 'subscription plan must be a plan', null,
   $$insert into billing_subscriptions (id, user_id, stripe_customer_id, plan, status) values ('sub_x', {pro}, 'cus_x', 'gold', 'active')$$, '22P02'),
  ('billing', 'each webhook event once', null,
   $$insert into billing_events (id, type) values ('evt_cst', 't'); insert into billing_events (id, type) values ('evt_cst', 't')$$, '23505');

-- Windows per plan: every plan × every candidate window, as the user themselves.
create temp table window_rule (actor text, allowed int[]);
insert into window_rule values
  ('none', '{30}'), ('basic', '{30}'), ('pro', '{15,20,25,30}'), ('ent', '{0,5,10,15,20,25,30}');
insert into c (area, descr, actor, stmt, want)
select 'window', format('%s %s %s', w.actor, case when m = any (w.allowed) then 'may select' else 'may not select' end, m),
       w.actor, format('update profiles set selected_window_minutes = %s where id = {%s}', m, w.actor),
       case when m = any (w.allowed) then 'ok' else '23514' end
from window_rule w, unnest('{0,5,7,10,15,20,25,30}'::int[]) with ordinality as u (m, i)
order by w.actor, i;

-- Plan changes (by the service role or the admin RPC) coerce the window to the new plan's
-- fallback when the old window is not offered, and clear e-mail alerts outside enterprise.
create temp table plan_change (from_plan text, win int, email text, to_plan text, want text);
insert into plan_change values
  ('pro',        15, null,            'basic',      '30 null'),
  ('pro',        25, null,            'basic',      '30 null'),
  ('pro',        15, null,            'none',       '30 null'),
  ('pro',        20, null,            'enterprise', '20 null'),
  ('basic',      30, null,            'pro',        '30 null'),
  ('basic',      30, null,            'enterprise', '30 null'),
  ('enterprise',  0, null,            'pro',        '15 null'),
  ('enterprise',  5, 'a@example.com', 'pro',        '15 null'),
  ('enterprise', 10, null,            'basic',      '30 null'),
  ('enterprise', 25, 'a@example.com', 'pro',        '25 null'),
  ('enterprise',  0, 'a@example.com', 'basic',      '30 null'),
  ('enterprise',  5, 'a@example.com', 'none',       '30 null');
insert into c (area, descr, actor, stmt, want, read_back)
select 'plan change', format('%s with window %s%s -> %s gives %s', from_plan, win,
         case when email is null then '' else ' and e-mail' end, to_plan, want),
       null,
       format($f$update profiles set plan = %L, subscription_active = true where id = {other};
                 update profiles set selected_window_minutes = %s, email_alert = %L where id = {other};
                 update profiles set plan = %L where id = {other}$f$, from_plan, win, email, to_plan),
       'ok: ' || want,
       $$select selected_window_minutes || ' ' || coalesce(email_alert, 'null') from profiles where id = {other}$$
from plan_change;
insert into c (area, descr, actor, stmt, want, read_back) values
  ('plan change', 'enterprise keeps its e-mail when another column changes', null,
   $$update profiles set email_alert = 'keep@example.com' where id = {ent};
     update profiles set user_threshold = 20 where id = {ent}$$,
   'ok: keep@example.com', $$select email_alert from profiles where id = {ent}$$),
  ('plan change', 'switching off the subscription keeps plan, window and e-mail', null,
   $$update profiles set selected_window_minutes = 0, email_alert = 'keep@example.com' where id = {ent};
     update profiles set subscription_active = false where id = {ent}$$,
   'ok: enterprise 0 keep@example.com', $$select plan || ' ' || selected_window_minutes || ' ' || email_alert from profiles where id = {ent}$$);

-- Discord and Telegram alerts are enterprise features (migration 001400), like e-mail alerts.
insert into c (area, descr, actor, stmt, want, read_back) values
  ('chat alerts', 'pro may not set a Discord webhook', 'pro',
   $$update profiles set discord_webhook_url = 'https://discord.com/api/webhooks/1/x' where id = {pro}$$, '23514', null),
  ('chat alerts', 'basic may not set a Telegram chat', 'basic',
   $$update profiles set telegram_chat_id = '123456789' where id = {basic}$$, '23514', null),
  ('chat alerts', 'a user without plan may set neither', 'none',
   $$update profiles set telegram_chat_id = '@channel_name' where id = {none}$$, '23514', null),
  ('chat alerts', 'below enterprise, empty values are saved (as null)', 'pro',
   $$update profiles set discord_webhook_url = '', telegram_chat_id = '' where id = {pro}$$,
   'ok: null null', $$select coalesce(discord_webhook_url, 'null') || ' ' || coalesce(telegram_chat_id, 'null') from profiles where id = {pro}$$),
  ('chat alerts', 'leaving enterprise clears both', null,
   $$update profiles set discord_webhook_url = 'https://discord.com/api/webhooks/1/x', telegram_chat_id = '42' where id = {ent};
     update profiles set plan = 'pro' where id = {ent}$$,
   'ok: null null', $$select coalesce(discord_webhook_url, 'null') || ' ' || coalesce(telegram_chat_id, 'null') from profiles where id = {ent}$$),
  ('chat alerts', 'enterprise keeps both when another column changes', null,
   $$update profiles set discord_webhook_url = 'https://discord.com/api/webhooks/1/x', telegram_chat_id = '42' where id = {ent};
     update profiles set user_threshold = 20 where id = {ent}$$,
   'ok: https://discord.com/api/webhooks/1/x 42', $$select discord_webhook_url || ' ' || telegram_chat_id from profiles where id = {ent}$$);

-- The window cannot be changed by its owner while the subscription is inactive (section 5).
insert into c (area, descr, actor, stmt, want, read_back) values
  ('inactive', 'an enterprise user whose subscription is inactive cannot change the window', null,
   $$update profiles set subscription_active = false where id = {ent};
     select tests.authenticate_as({ent});
     update profiles set selected_window_minutes = 10 where id = {ent}$$, '23514', null),
  ('inactive', 'but may change other settings', null,
   $$update profiles set subscription_active = false where id = {ent};
     select tests.authenticate_as({ent});
     update profiles set user_threshold = 12.5 where id = {ent}$$,
   'ok: 12.5', $$select user_threshold::text from profiles where id = {ent}$$),
  ('inactive', 'a plan change still moves an inactive user''s window to the new plan''s fallback', null,
   $$update profiles set selected_window_minutes = 0, subscription_active = false where id = {ent};
     update profiles set plan = 'pro' where id = {ent}$$,
   'ok: 15', $$select selected_window_minutes::text from profiles where id = {ent}$$);

-- ---------------------------------------------------------------------------------------------
select plan((select count(*)::int from c) + 37);

select * from pg_temp.run_cases();

-- Plan helpers: the windows and fallbacks of docs/decisions (pricing-page reading).
select results_eq(
  $$select p::text, public.allowed_windows(p), public.fallback_window(p), public.plan_price_eur(p)
    from unnest(enum_range(null::public.plan)) p$$,
  $$values ('none', '{30}'::int[], 30, 0), ('basic', '{30}', 30, 29), ('pro', '{15,20,25,30}', 15, 69),
           ('enterprise', '{0,5,10,15,20,25,30}', 5, 99)$$,
  'allowed windows, fallback window and price per plan'
);
select ok(public.fallback_window(p) = any (public.allowed_windows(p)), format('the %s fallback is one of its windows', p))
from unnest(enum_range(null::public.plan)) p;

-- Refusing a window names the plan and lists the allowed windows.
select tests.authenticate_as('a2000000-0000-4000-8000-000000000003');
select throws_ok(
  $$update profiles set selected_window_minutes = 5 where id = 'a2000000-0000-4000-8000-000000000003'$$,
  '23514', 'The pro plan does not offer a 5 minute window',
  'a refused window is a check violation with a readable message'
);
reset role;

-- Each refusal carries a stable code in DETAIL, which the SPA translates.
create function pg_temp.detail_of(stmt text, actor text) returns text language plpgsql as $$
declare
  d text;
begin
  begin
    perform tests.authenticate_as((select uid from pg_temp.who where code = actor));
    execute pg_temp.expand(stmt);
    d := 'no error';
  exception when others then
    get stacked diagnostics d = pg_exception_detail;
  end;
  perform set_config('role', 'none', true);
  return d;
end;
$$;
select is(pg_temp.detail_of($$update profiles set selected_window_minutes = 5 where id = {pro}$$, 'pro'),
  'window_not_offered', 'a window the plan does not offer: window_not_offered');
select is(pg_temp.detail_of($$update profiles set email_alert = 'a@example.com' where id = {pro}$$, 'pro'),
  'email_alert_enterprise_only', 'an alert e-mail below enterprise: email_alert_enterprise_only');
select is(pg_temp.detail_of($$update profiles set discord_webhook_url = 'https://discord.com/api/webhooks/1/x' where id = {pro}$$, 'pro'),
  'chat_alerts_enterprise_only', 'Discord or Telegram below enterprise: chat_alerts_enterprise_only');
update profiles set subscription_active = false where id = 'a2000000-0000-4000-8000-000000000003';
select is(pg_temp.detail_of($$update profiles set selected_window_minutes = 20 where id = {pro}$$, 'pro'),
  'window_needs_active_subscription', 'a window change while inactive: window_needs_active_subscription');
update profiles set subscription_active = true where id = 'a2000000-0000-4000-8000-000000000003';

-- Ticket numbers are unique and increase in creation order.
select tests.authenticate_as('a2000000-0000-4000-8000-000000000001');
insert into support_tickets (subject, content) values ('Number one', 'First numbered ticket');
insert into support_tickets (subject, content) values ('Number two', 'Second numbered ticket');
insert into support_tickets (subject, content) values ('Number three', 'Third numbered ticket');
reset role;
select is(
  (select count(distinct ticket_number)::int from support_tickets where subject like 'Number %'),
  3,
  'three new tickets have three distinct numbers'
);
select results_eq(
  $$select subject from support_tickets where subject like 'Number %' order by ticket_number$$,
  $$values ('Number one'::text), ('Number two'), ('Number three')$$,
  'ticket numbers increase in creation order'
);
select cmp_ok((select min(ticket_number) from support_tickets), '>=', 1001::bigint, 'ticket numbers start at 1001');
select col_is_unique('public', 'support_tickets', array['ticket_number'], 'ticket_number is unique');

-- Defaults of the stored data model.
select col_default_is('public', 'profiles', 'plan', 'none'::public.plan, 'plan defaults to none');
select col_default_is('public', 'profiles', 'subscription_active', 'false', 'subscription defaults to inactive');
select col_default_is('public', 'profiles', 'role', 'user'::public.app_role, 'role defaults to user');
select col_default_is('public', 'profiles', 'user_threshold', '10', 'threshold defaults to 10');
select is((select selected_window_minutes from profiles where id = 'a2000000-0000-4000-8000-000000000001'), 30,
  'a new profile gets window 30, the only window of "no plan" (spec''s default of 15 reconciled per plan)');
select col_default_is('public', 'groups', 'is_public', 'true', 'groups are public by default');
select col_default_is('public', 'ticket_messages', 'is_admin_reply', 'false', 'replies are not admin replies by default');

-- Enumerations.
select enums_are('public', array['plan', 'app_role', 'ticket_status', 'ticket_priority', 'report_reason',
  'attachment_type', 'exchange_type', 'timeframe', 'strategy', 'signal_direction', 'confidence_tier',
  'liquidity_score', 'order_book_depth', 'funding_sentiment', 'group_role'], 'exactly the enumerations of the data model');
select enum_has_labels('public', 'plan', array['none', 'basic', 'pro', 'enterprise'], 'plans');
select enum_has_labels('public', 'app_role', array['user', 'admin'], 'roles');
select enum_has_labels('public', 'ticket_status', array['open', 'in_progress', 'resolved', 'closed'], 'ticket statuses');
select enum_has_labels('public', 'ticket_priority', array['low', 'medium', 'high', 'urgent'], 'ticket priorities');
select enum_has_labels('public', 'report_reason', array['spam', 'harassment', 'inappropriate', 'other'], 'report reasons');
select enum_has_labels('public', 'attachment_type', array['none', 'gif'], 'attachment types');
select enum_has_labels('public', 'exchange_type', array['cex', 'dex'], 'exchange types');
select enum_has_labels('public', 'timeframe', array['5min', '15min', '1h', '4h'], 'signal timeframes');
select enum_has_labels('public', 'strategy', array['rsi', 'macd', 'ema_cross', 'bollinger', 'volume_surge'], 'strategies');
select enum_has_labels('public', 'signal_direction', array['bullish', 'bearish', 'neutral'], 'signal directions');
select enum_has_labels('public', 'confidence_tier', array['low', 'medium', 'high'], 'confidence tiers');
select enum_has_labels('public', 'group_role', array['admin', 'member'], 'group roles');
select enum_has_labels('public', 'funding_sentiment',
  array['overcrowded_longs', 'bullish', 'neutral', 'bearish', 'overcrowded_shorts'], 'funding sentiments (spec: five values)');
select enum_has_labels('public', 'liquidity_score', array['good', 'medium', 'poor'], 'analysis liquidity scores');
select col_type_is('public', 'order_books', 'liquidity_score', 'order_book_depth',
  'order-book liquidity uses shallow|moderate|deep (spec), not the analysis score');

select * from finish();
rollback;
