import type { User } from "@supabase/supabase-js";
import { hasActivePaidPlan } from "@domain/plans";
import { profileQueryOptions, type Profile } from "@/lib/profile-query";
import { useTransitionQuery } from "./use-transition-query";
import { sessionQueries } from "@/lib/session-query";
import { setDisplayTimeZone } from "@/lib/time-zone";

export type CurrentUser = {
  /** The signed-in Supabase user, or null when logged out. */
  user: User | null;
  /** The user's own profile row, or null when logged out or not loaded (yet). */
  profile: Profile | null;
  /** Paid plan (basic, pro, enterprise) with an active subscription, not banned. */
  isSubscriber: boolean;
  /** role === 'admin', not banned. */
  isAdmin: boolean;
  /** True until the session (and, when logged in, the profile) has been read. */
  isPending: boolean;
};

/** The current user for navigation and gating: session plus profile. */
export function useCurrentUser(): CurrentUser {
  const session = useTransitionQuery(sessionQueries.session());
  const user = session.data?.user ?? null;
  const profileQuery = useTransitionQuery({
    ...profileQueryOptions(user?.id ?? ""),
    enabled: user !== null,
  });
  const profile = user ? (profileQuery.data ?? null) : null;
  const active = profile !== null && !profile.banned;
  // Dates everywhere follow the profile's zone (the browser's when none is set or logged out).
  // Set during render so the page's own dates, rendered below this hook, already use it.
  setDisplayTimeZone(profile?.time_zone);

  return {
    user,
    profile,
    isSubscriber:
      active &&
      hasActivePaidPlan({ plan: profile.plan, subscriptionActive: profile.subscription_active }),
    isAdmin: active && profile.role === "admin",
    isPending: session.isPending || (user !== null && profileQuery.isPending),
  };
}
