import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet } from "react-router-dom";
import { toast } from "sonner";
import { useCurrentUser } from "@/hooks/use-current-user";
import { RoutePending } from "./route-pending";

function SubscriptionRequired() {
  const { t } = useTranslation();

  useEffect(() => {
    // A fixed id: React's development double effects must not show it twice.
    toast.error(t("guard.subscriptionRequiredTitle"), {
      id: "subscription-required",
      description: t("guard.subscriptionRequiredDescription"),
    });
  }, [t]);

  return <Navigate to="/pricing" replace />;
}

/**
 * Route element for the dashboard area: only a paid plan with an active
 * subscription (and no ban) passes; everybody else lands on /pricing with a
 * toast. Nest it inside `RequireAuth` so visitors are asked to log in first.
 */
export function RequireSubscriber() {
  const { isSubscriber, isPending } = useCurrentUser();

  if (isPending) return <RoutePending />;
  if (!isSubscriber) return <SubscriptionRequired />;
  return <Outlet />;
}
