/**
 * Private Realtime topics of migration 20261124300000_admin_panel.sql (decision 0023):
 * - `user:<id>`: the user alone; `profile_changed` after a change of plan, subscription, role or ban.
 * - `admin:visitors`: active admins only; `activity` each time touch_activity records a user's
 *   activity (at most once a minute per user).
 */
export function userTopic(userId: string): string {
  return `user:${userId}`;
}
export const PROFILE_CHANGED_EVENT = "profile_changed";
export const ADMIN_VISITORS_TOPIC = "admin:visitors";
export const ACTIVITY_EVENT = "activity";

export type ProfileChangedPayload = {
  plan?: string;
  subscription_active?: boolean;
  banned?: boolean;
  role?: string;
};
