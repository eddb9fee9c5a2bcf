import {
  effectiveWindow,
  hasSelectableWindow,
  isWindowAllowed,
  WINDOW_MINUTES,
  type PlanId,
} from "@domain/plans";

/** What pressing 1–7 on the dashboard does, as the window selector's rules allow. */
export type WindowShortcut =
  /** Save this window (the plan offers it and it is not the current one). */
  | { kind: "choose"; minutes: number }
  /** It is the current window already. */
  | { kind: "current"; minutes: number }
  /** The plan has one fixed window (basic). */
  | { kind: "fixed" }
  /** The subscription is inactive: the selector is disabled. */
  | { kind: "inactive" }
  /** The plan does not offer this window (pro: 10 s, 5 and 10 min). */
  | { kind: "notInPlan"; minutes: number };

/**
 * Keys 1–7 are the selector's windows in order: 10 s, 5, 10, 15, 20, 25, 30 min. Null for any
 * other key.
 */
export function windowShortcut(
  key: string,
  profile: { plan: PlanId; subscription_active: boolean; selected_window_minutes: number },
): WindowShortcut | null {
  if (!/^[1-7]$/.test(key)) return null;
  const minutes = WINDOW_MINUTES[Number(key) - 1]!;
  if (!hasSelectableWindow(profile.plan)) return { kind: "fixed" };
  if (!profile.subscription_active) return { kind: "inactive" };
  if (!isWindowAllowed(profile.plan, minutes)) return { kind: "notInPlan", minutes };
  if (minutes === effectiveWindow(profile.plan, profile.selected_window_minutes)) {
    return { kind: "current", minutes };
  }
  return { kind: "choose", minutes };
}
