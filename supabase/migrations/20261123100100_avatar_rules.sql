-- Avatars (issue 12, decision 0016).
--
-- 1. Only the user's own stored object can become their avatar: profiles.avatar_url is null
--    or the public URL of an existing object in the avatars bucket inside the profile's own
--    folder (`…/storage/v1/object/public/avatars/<profile id>/<file>`), checked by a trigger
--    for every writer. Users lose their column privilege on avatar_url: only the avatar
--    function (service role), which checks the image's content and size, sets it.
-- 2. Listing the avatars bucket is not public: anon loses its select policy on the bucket's
--    objects and users see only their own folder (what storage's list and remove need). The
--    bucket stays public, so an avatar is still readable by its URL, which the avatar
--    function makes unguessable.

drop policy "avatars: anyone reads" on storage.objects;
create policy "avatars: users read their own folder" on storage.objects
  for select to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);

revoke update (avatar_url) on public.profiles from authenticated;

create function private.check_avatar_url() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  file text;
begin
  if new.avatar_url is null then
    return new;
  end if;
  file := substring(new.avatar_url from
    '^https?://[^/?#[:space:]]+(?:/[^?#[:space:]]*)?/storage/v1/object/public/avatars/' || new.id::text
    || '/([A-Za-z0-9._-]+)$');
  if file is null or not exists (
    select 1 from storage.objects o
    where o.bucket_id = 'avatars' and o.name = new.id::text || '/' || file
  ) then
    raise exception 'An avatar must be an image stored by the avatar upload for this account'
      using errcode = '23514', detail = 'avatar_not_own_object';
  end if;
  return new;
end;
$$;
comment on function private.check_avatar_url() is
  'Refuses an avatar_url that is not the public URL of an object in the profile''s own avatars folder.';

create trigger profiles_check_avatar_url
  before insert or update of avatar_url on public.profiles
  for each row
  when (new.avatar_url is not null)
  execute function private.check_avatar_url();

revoke execute on function private.check_avatar_url() from public, anon, authenticated;
