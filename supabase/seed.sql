-- Local demo data (`npm start`, `supabase db reset`). Never run against a hosted project.
-- Demo accounts, all with the password demo-password-1 (listed in devstack/demo-accounts.ts).
insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select u.id, 'authenticated', 'authenticated', u.email,
       extensions.crypt('demo-password-1', extensions.gen_salt('bf', 10)), now(),
       '{"provider":"email","providers":["email"]}'::jsonb, '{}'::jsonb, now(), now()
from (values
  ('00000000-0000-4000-8000-000000000001'::uuid, 'free@demo.local'),
  ('00000000-0000-4000-8000-000000000002'::uuid, 'basic@demo.local'),
  ('00000000-0000-4000-8000-000000000003'::uuid, 'pro@demo.local'),
  ('00000000-0000-4000-8000-000000000004'::uuid, 'enterprise@demo.local'),
  ('00000000-0000-4000-8000-000000000005'::uuid, 'admin@demo.local')
) as u (id, email)
on conflict do nothing;

insert into auth.identities (id, provider, provider_id, user_id, identity_data, created_at, updated_at)
select gen_random_uuid(), 'email', u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true), now(), now()
from auth.users u
where u.email like '%@demo.local'
on conflict do nothing;

update public.profiles set username = split_part(email, '@', 1) where email like '%@demo.local';
