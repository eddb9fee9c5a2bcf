-- promote_self is limited per IP as well as per account: throwaway accounts from one address
-- share 10 failed attempts per 15 minutes.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
set local client_min_messages = warning;
select plan(9);

delete from private.app_settings;
delete from private.promotion_attempts;
insert into private.app_settings (key, value) values ('admin_setup_secret', 'correct-horse-battery');

create temp table u (code text primary key, uid uuid);
insert into u values
  ('a', 'a1000000-0000-4000-8000-00000000000a'),
  ('b', 'a1000000-0000-4000-8000-00000000000b'),
  ('c', 'a1000000-0000-4000-8000-00000000000c'),
  ('d', 'a1000000-0000-4000-8000-00000000000d');
grant select on u to authenticated;
insert into auth.users (id, email) select uid, code || '@ip-limit.test' from u;

create function pg_temp.login(who text, ip text) returns void language plpgsql as $$
declare
  id uuid;
begin
  select uid into strict id from pg_temp.u where code = who;
  perform tests.authenticate_as(id);
  perform set_config('request.headers',
    case when ip is null then '{}' else json_build_object('x-forwarded-for', ip)::text end, true);
end;
$$;
create function pg_temp.logout() returns void language plpgsql as $$
begin
  perform set_config('role', 'none', true);
end;
$$;

-- Two accounts spend five failed attempts each from one IP.
select pg_temp.login('a', '198.51.100.9');
select is((select count(*)::int from generate_series(1, 5) i where public.promote_self('wrong-a' || i) is null), 5,
  'the first account''s five failed attempts are answered');
select pg_temp.login('b', '198.51.100.9');
select is((select count(*)::int from generate_series(1, 5) i where public.promote_self('wrong-b' || i) is null), 5,
  'the second account''s five failed attempts are answered');
select pg_temp.login('c', '198.51.100.9');
select throws_ok($$select public.promote_self('wrong-c')$$, 'PT429', 'Too many attempts. Try again in 15 minutes.',
  'a fresh account from the same IP is refused after 10 failed attempts from that IP');
select throws_ok($$select public.promote_self('correct-horse-battery')$$, 'PT429', null,
  'while the IP is locked out even the right secret is refused');
select pg_temp.logout();
select is((select count(*)::int from private.promotion_attempts where ip = '198.51.100.9'), 10,
  'refused attempts are not recorded as guesses');

select pg_temp.login('c', '192.0.2.44');
select is(public.promote_self('wrong-c'), null::public.plan, 'another IP is not affected');
select pg_temp.login('d', null);
select is(public.promote_self('wrong-d'), null::public.plan, 'a call without a request IP keeps the per-account limit only');
select pg_temp.logout();

update private.promotion_attempts set attempted_at = now() - interval '16 minutes' where ip = '198.51.100.9';
select pg_temp.login('c', '198.51.100.9');
select is(public.promote_self('correct-horse-battery'), 'enterprise'::public.plan,
  'failed attempts older than 15 minutes no longer count against the IP');
select pg_temp.logout();
select is((select host(ip) from private.promotion_attempts where succeeded), '198.51.100.9',
  'attempts record the caller''s IP');

select * from finish();
rollback;
