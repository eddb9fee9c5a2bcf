import { PAID_PLAN_IDS, PLAN_PRICES_EUR, type PaidPlanId } from "@domain/plans";
import type { ParseKeys } from "i18next";

export type PlanCard = {
  id: PaidPlanId;
  priceEur: number;
  popular: boolean;
  /** Keys under `pricing:plans.<id>.features`, in display order. */
  featureKeys: ParseKeys<"pricing">[];
};

/**
 * The three plan cards (spec sections 2 and 6; windows per decision 0005:
 * basic 30 min fixed, pro 15–30 min, enterprise 10 s to 30 min).
 */
const FEATURES: Record<PaidPlanId, ParseKeys<"pricing">[]> = {
  basic: [
    "plans.basic.features.dashboard",
    "plans.basic.features.analysis",
    "plans.basic.features.charts",
  ],
  pro: [
    "plans.pro.features.everything",
    "plans.pro.features.selectableWindow",
    "plans.pro.features.analytics",
    "plans.pro.features.history",
    "plans.pro.features.indicators",
    "plans.pro.features.support",
  ],
  enterprise: [
    "plans.enterprise.features.everything",
    "plans.enterprise.features.alerts",
    "plans.enterprise.features.email",
    "plans.enterprise.features.community",
    "plans.enterprise.features.support",
  ],
};

export const PLAN_CARDS: readonly PlanCard[] = PAID_PLAN_IDS.map((id) => ({
  id,
  priceEur: PLAN_PRICES_EUR[id],
  popular: id === "pro",
  featureKeys: FEATURES[id],
}));
