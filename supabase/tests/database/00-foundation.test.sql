-- Foundation: RLS is on everywhere, profiles follow auth users, and users touch only their row.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;
select plan(8);

select is(
  (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('public', 'graphql_public') and c.relkind in ('r', 'p') and not c.relrowsecurity),
  0,
  'every table in exposed schemas has row-level security enabled'
);

insert into auth.users (id, email) values
  ('11111111-1111-4111-8111-111111111111', 'one@example.test'),
  ('22222222-2222-4222-8222-222222222222', 'two@example.test');

select is(
  (select email from public.profiles where id = '11111111-1111-4111-8111-111111111111'),
  'one@example.test',
  'a profile is created when an auth user is created'
);

set local role anon;
select is((select count(*)::int from public.profiles), 0, 'anon reads no profiles');
reset role;

select tests.authenticate_as('11111111-1111-4111-8111-111111111111');

select results_eq(
  'select id from public.profiles',
  $$values ('11111111-1111-4111-8111-111111111111'::uuid)$$,
  'a user reads only their own profile'
);

select lives_ok(
  $$update public.profiles set username = 'first_user' where id = '11111111-1111-4111-8111-111111111111'$$,
  'a user sets their own username'
);

update public.profiles set username = 'stolen_name' where id = '22222222-2222-4222-8222-222222222222';
reset role;
select is(
  (select username from public.profiles where id = '22222222-2222-4222-8222-222222222222'),
  null,
  'a user cannot change another user''s profile'
);

set local role authenticated;
select throws_ok(
  $$update public.profiles set email = 'x@example.test' where id = '11111111-1111-4111-8111-111111111111'$$,
  '42501',
  null,
  'a user cannot change a protected column'
);
select throws_ok(
  $$update public.profiles set username = 'x' where id = '11111111-1111-4111-8111-111111111111'$$,
  '23514',
  null,
  'a username must be 3-30 letters, digits or underscores'
);
reset role;

select * from finish();
rollback;
