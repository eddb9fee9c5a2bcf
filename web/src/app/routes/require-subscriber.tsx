import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet, useLocation, useSearchParams } from "react-router-dom";
import { useCurrentUser } from "@/hooks/use-current-user";
import { toastErrorLater } from "@/lib/lazy-toast";
import { profileQueryKey } from "@/lib/profile-query";
import { drawsOwnPendingFrame, RoutePending } from "./route-pending";

function SubscriptionRequired() {
  const { t } = useTranslation();

  useEffect(() => {
    // A fixed id: React's development double effects must not show it twice.
    toastErrorLater(t("guard.subscriptionRequiredTitle"), {
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
/** After a payment the webhook may still be on its way: how long to wait for the plan. */
export const CHECKOUT_ACTIVATION_WAIT_MS = 15_000;
const CHECKOUT_POLL_MS = 1_000;

/**
 * Back from Checkout (`?checkout=success`) but not subscribed yet: Stripe's webhook may arrive
 * after the browser. Re-read the profile every second for a while before giving up.
 */
function useAwaitingActivation(isSubscriber: boolean): boolean {
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const returning = params.get("checkout") === "success";
  const [expired, setExpired] = useState(false);
  const waiting = returning && !isSubscriber && !expired;

  useEffect(() => {
    if (!waiting) return;
    const poll = setInterval(
      () => void queryClient.invalidateQueries({ queryKey: profileQueryKey }),
      CHECKOUT_POLL_MS,
    );
    const stop = setTimeout(() => setExpired(true), CHECKOUT_ACTIVATION_WAIT_MS);
    return () => {
      clearInterval(poll);
      clearTimeout(stop);
    };
  }, [waiting, queryClient]);

  return waiting;
}

export function RequireSubscriber() {
  const { isSubscriber, isPending } = useCurrentUser();
  const awaitingActivation = useAwaitingActivation(isSubscriber);
  const { pathname } = useLocation();

  // The dashboard draws its frame while the profile is read (not while a payment is awaited).
  if (isPending && drawsOwnPendingFrame(pathname)) return <Outlet />;
  if (isPending || awaitingActivation) return <RoutePending />;
  if (!isSubscriber) return <SubscriptionRequired />;
  return <Outlet />;
}
