-- Text rules trim white space, not the letter v (decision 0113).
--
-- The rules that measure or compare text without its surrounding white space wrote the set as
-- E' \t\r\n\f\v'. PostgreSQL 15's escape strings know no \v (PostgreSQL 17's, PGlite's, do): a
-- backslash before any other character stands for that character, so on PostgreSQL 15 the set
-- held the letter `v` instead of the vertical tab. So:
-- - a canned reply "Nav" and another "NAV" were told apart (the key trimmed "Nav" to "na"), and
--   a title ending in v stood beside the same title in capitals: the stack test that saves a
--   random title and its capitals failed whenever the title ended in v (1 run in 36);
-- - a ban reason lost the v's at its ends when stored ("Spam, see rev" became "Spam, see re");
-- - a group named "vvv", or a ticket subject "vvvvv", was refused as too short.
-- The vertical tab is E'\x0b'. The same rules, with that set:
alter table public.profiles drop constraint profiles_ban_reason;
alter table public.profiles add constraint profiles_ban_reason check (
  (banned and banned_reason is not null
   and char_length(btrim(banned_reason, E' \t\r\n\f\x0b')) between 5 and 500)
  or not banned);

alter table public.groups drop constraint groups_name_check;
alter table public.groups add constraint groups_name_check
  check (char_length(btrim(name, E' \t\r\n\f\x0b')) between 3 and 50);

alter table public.support_tickets drop constraint support_tickets_subject_check;
alter table public.support_tickets add constraint support_tickets_subject_check
  check (char_length(btrim(subject, E' \t\r\n\f\x0b')) between 5 and 100);
alter table public.support_tickets drop constraint support_tickets_content_check;
alter table public.support_tickets add constraint support_tickets_content_check
  check (char_length(btrim(content, E' \t\r\n\f\x0b')) between 10 and 2000);

alter table public.canned_replies drop constraint canned_replies_title_check;
alter table public.canned_replies add constraint canned_replies_title_check
  check (char_length(btrim(title, E' \t\r\n\f\x0b')) between 1 and 80);

-- Titles the old key told apart only by a v at an end, and that are the same title now, keep
-- both replies: every one after the first (by age) gets " (2)", " (3)", ... so the new key can be
-- unique.
with ranked as (
  select c.id, row_number() over (partition by lower(btrim(c.title, E' \t\r\n\f\x0b'))
                                  order by c.created_at, c.id) as n
  from public.canned_replies c
)
update public.canned_replies c
  set title = left(btrim(c.title, E' \t\r\n\f\x0b'), 74) || ' (' || r.n || ')'
from ranked r
where r.id = c.id and r.n > 1;
drop index public.canned_replies_title_key;
create unique index canned_replies_title_key on public.canned_replies (lower(btrim(title, E' \t\r\n\f\x0b')));

create or replace function public.admin_ban_user(target uuid, reason text)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  p public.profiles;
begin
  perform private.require_admin();
  if reason is null or char_length(btrim(reason, E' \t\r\n\f\x0b')) not between 5 and 500 then
    raise exception 'Ban reason must be at least 5 characters long (500 at most)' using errcode = '23514';
  end if;
  p := private.target_profile(target);
  if p.role = 'admin' then
    raise exception 'Admins cannot be banned' using errcode = 'PT403';
  end if;
  update public.profiles set banned = true, banned_reason = btrim(reason, E' \t\r\n\f\x0b'), banned_at = now() where id = target;
  perform private.log_admin_action('ban_user', target, btrim(reason));
end;
$$;
