import type { User } from "@supabase/supabase-js";
import { useQuery } from "@tanstack/react-query";
import { authQueries } from "../api/queries";

export type CurrentUser = {
  /** The signed-in Supabase user, or null when logged out. */
  user: User | null;
  /** Paid plan (basic, pro, enterprise) with an active subscription. */
  isSubscriber: boolean;
  isAdmin: boolean;
  /** True until the stored session has been read. */
  isPending: boolean;
};

/**
 * The current user for navigation and gating.
 *
 * For now only the session user is read. The profile query (plan,
 * subscription_active, role) arrives with the data model; then
 * `isSubscriber` becomes `hasActivePaidPlan(profile)` from `@domain/plans`
 * and `isAdmin` becomes `profile.role === 'admin'`.
 */
export function useCurrentUser(): CurrentUser {
  const session = useQuery(authQueries.session());
  return {
    user: session.data?.user ?? null,
    isSubscriber: false,
    isAdmin: false,
    isPending: session.isPending,
  };
}
