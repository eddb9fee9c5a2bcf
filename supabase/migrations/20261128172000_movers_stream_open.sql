-- Issue 30 (decision 0071): one request per /api/sse connect. The api function used to make
-- three before it joined the window's shared Realtime channel: Auth's /user (the session),
-- the caller's profile, and movers_feed. On PGlite's one connection, a hundred connects' three
-- requests each queued ahead of the join's authorisation check. movers_stream_open answers all
-- three in one transaction, with the same rules:
-- - the session: a token whose session_id claim names a session that no longer exists (signed
--   out, or ended by a ban) gets `{"caller": null}`, as Auth's /user refuses it;
-- - the caller's profile (plan, subscription, ban, selected window), for the api's 401/403s;
-- - the window's movers through movers_feed itself (its plan and window checks): its refusal is
--   returned as `error` (SQLSTATE, message, detail, hint) so the api answers it as it answers a
--   refused movers_feed call.
create or replace function public.movers_stream_open(window_minutes integer default null)
returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
  sid text := (select auth.jwt()) ->> 'session_id';
  caller public.profiles;
  w integer;
  feed jsonb;
  err_code text;
  err_message text;
  err_detail text;
  err_hint text;
begin
  if uid is null then
    return jsonb_build_object('caller', null);
  end if;
  if sid is not null and to_regclass('auth.sessions') is not null then
    if sid !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
       or not exists (select 1 from auth.sessions s where s.id = sid::uuid) then
      return jsonb_build_object('caller', null);
    end if;
  end if;
  select * into caller from public.profiles p where p.id = uid;
  if caller.id is null then
    return jsonb_build_object('caller', null);
  end if;
  w := coalesce(window_minutes, caller.selected_window_minutes);
  begin
    select coalesce(jsonb_agg(to_jsonb(f)), '[]'::jsonb) into feed from public.movers_feed(w) f;
  exception when others then
    get stacked diagnostics err_code = returned_sqlstate, err_message = message_text,
      err_detail = pg_exception_detail, err_hint = pg_exception_hint;
  end;
  return jsonb_build_object(
    'caller', jsonb_build_object(
      'id', caller.id,
      'plan', caller.plan,
      'subscription_active', caller.subscription_active,
      'banned', caller.banned,
      'selected_window_minutes', caller.selected_window_minutes
    ),
    'window', w,
    'feed', feed,
    'error', case when err_code is null then null else jsonb_build_object(
      'code', err_code, 'message', err_message,
      'details', nullif(err_detail, ''), 'hint', nullif(err_hint, '')) end
  );
end;
$$;
revoke execute on function public.movers_stream_open(integer) from public, anon;
grant execute on function public.movers_stream_open(integer) to authenticated, service_role;
comment on function public.movers_stream_open(integer) is
  'One /api/sse connect in one request (decision 0071): the caller''s live session and profile, and movers_feed of the window (or its refusal as error).';
