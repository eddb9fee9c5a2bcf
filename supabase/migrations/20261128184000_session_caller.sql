-- Issue 30 (decision 0071, amended): an open /api/sse stream re-checks its caller every 60 s
-- (API_STREAM_REAUTH_MS): a lapsed plan or a ban ends it. The re-check made two requests, Auth's
-- /user and the profile read, for every open stream; a thousand streams made 33 a second.
-- session_caller() answers both in one: the caller's profile fields when the token's session is
-- still live (the check Auth's /user made: a signed-out or banned user's sessions are deleted),
-- else null. movers_stream_open, the connect's one request, now asks it too, so the session rule
-- is written once.
create or replace function public.session_caller()
returns jsonb
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
  sid text := (select auth.jwt()) ->> 'session_id';
  caller public.profiles;
begin
  if uid is null then
    return null;
  end if;
  if sid is not null and to_regclass('auth.sessions') is not null then
    if sid !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
       or not exists (select 1 from auth.sessions s where s.id = sid::uuid) then
      return null;
    end if;
  end if;
  select * into caller from public.profiles p where p.id = uid;
  if caller.id is null then
    return null;
  end if;
  return jsonb_build_object(
    'id', caller.id,
    'plan', caller.plan,
    'subscription_active', caller.subscription_active,
    'banned', caller.banned,
    'selected_window_minutes', caller.selected_window_minutes
  );
end;
$$;
revoke execute on function public.session_caller() from public, anon;
grant execute on function public.session_caller() to authenticated, service_role;
comment on function public.session_caller() is
  'The caller''s plan, subscription, ban and selected window when the token''s session is live, else null: /api/sse''s connect and its 60-s re-check in one request (decision 0071).';

create or replace function public.movers_stream_open(window_minutes integer default null)
returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
as $$
declare
  caller jsonb := public.session_caller();
  w integer;
  feed jsonb;
  err_code text;
  err_message text;
  err_detail text;
  err_hint text;
begin
  if caller is null then
    return jsonb_build_object('caller', null);
  end if;
  w := coalesce(window_minutes, (caller ->> 'selected_window_minutes')::integer);
  begin
    select coalesce(jsonb_agg(to_jsonb(f)), '[]'::jsonb) into feed from public.movers_feed(w) f;
  exception when others then
    get stacked diagnostics err_code = returned_sqlstate, err_message = message_text,
      err_detail = pg_exception_detail, err_hint = pg_exception_hint;
  end;
  return jsonb_build_object(
    'caller', caller,
    'window', w,
    'feed', feed,
    'error', case when err_code is null then null else jsonb_build_object(
      'code', err_code, 'message', err_message,
      'details', nullif(err_detail, ''), 'hint', nullif(err_hint, '')) end
  );
end;
$$;
