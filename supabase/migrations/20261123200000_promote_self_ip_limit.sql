-- promote_self: limit failed attempts per IP as well as per account. The per-account limit
-- alone let one caller sign up throwaway accounts and guess five times with each; now at most
-- 10 failed attempts per IP (private.request_ip(), the gateway's X-Forwarded-For) per 15 minutes
-- are answered, whatever the account. Calls without a request IP (SQL, tests) keep only the
-- per-account limit.
alter table private.promotion_attempts add column ip inet;
comment on column private.promotion_attempts.ip is 'The caller''s IP as the API gateway reported it.';
create index promotion_attempts_ip_idx on private.promotion_attempts (ip, attempted_at desc)
  where ip is not null and not succeeded;

create or replace function public.promote_self(secret text) returns public.plan
  language plpgsql security definer
  set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
  caller_ip inet := private.request_ip();
  stored text;
  recent integer;
  ok boolean;
begin
  if uid is null then
    raise exception 'You must be logged in to use this page.' using errcode = 'PT401';
  end if;
  if not private.is_active_user() then
    raise exception 'Your account cannot be promoted' using errcode = 'PT403';
  end if;
  select s.value into stored from private.app_settings s where s.key = 'admin_setup_secret';
  if coalesce(stored, '') = '' then
    raise exception 'Admin self-promotion is disabled' using errcode = 'PT403';
  end if;
  select count(*) into recent from private.promotion_attempts a
  where a.user_id = uid and not a.succeeded and a.attempted_at > now() - interval '15 minutes';
  if recent >= 5 then
    raise exception 'Too many attempts. Try again in 15 minutes.' using errcode = 'PT429';
  end if;
  if caller_ip is not null then
    select count(*) into recent from private.promotion_attempts a
    where a.ip = caller_ip and not a.succeeded and a.attempted_at > now() - interval '15 minutes';
    if recent >= 10 then
      raise exception 'Too many attempts. Try again in 15 minutes.' using errcode = 'PT429';
    end if;
  end if;
  ok := extensions.digest(coalesce(secret, ''), 'sha256') = extensions.digest(stored, 'sha256');
  insert into private.promotion_attempts (user_id, succeeded, ip) values (uid, ok, caller_ip);
  insert into public.activity_logs (admin_id, action, target_user_id, target_user_email, details, ip_address)
  values (case when ok then uid end, case when ok then 'promote_self' else 'promote_self_failed' end,
          uid, (select p.email from public.profiles p where p.id = uid), null, caller_ip);
  if not ok then
    return null;
  end if;
  update public.profiles set role = 'admin', plan = 'enterprise', subscription_active = true where id = uid;
  return 'enterprise'::public.plan;
end;
$$;
comment on function public.promote_self(text) is
  'Returns the new plan on success and null for a wrong secret (so the failed attempt stays recorded). At most 5 failed attempts per account and 10 per IP in 15 minutes.';

revoke execute on function public.promote_self(text) from public, anon;
grant execute on function public.promote_self(text) to authenticated, service_role;
