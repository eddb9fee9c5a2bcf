import type { PaidPlanId } from "@domain/plans";
import { isPaidPlan } from "@domain/plans";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/hooks/use-current-user";
import { assignLocation } from "@/lib/browser-location";
import { FunctionCallError } from "@/lib/functions";
import { loginPath } from "@/lib/redirect";
import { useOpenBillingPortal } from "@/lib/billing-portal";
import { useStartCheckout } from "../api/start-checkout";
import { useCheckoutCancelledToast } from "../hooks/use-checkout-cancelled-toast";
import { PLAN_CARDS } from "../utils/plan-catalogue";
import { PlanCard } from "./plan-card";

function serverMessage(error: unknown): string | null {
  return error instanceof FunctionCallError ? error.serverMessage : null;
}

/** /pricing: the three plans and the checkout flow (spec sections 2 and 4). */
export function PricingPage() {
  const { t } = useTranslation("pricing");
  const navigate = useNavigate();
  const { user, profile, isSubscriber, isPending } = useCurrentUser();
  const checkout = useStartCheckout();
  const portal = useOpenBillingPortal();
  // After a successful checkout call the browser is on its way to the payment page.
  const [leavingFor, setLeavingFor] = useState<PaidPlanId | null>(null);
  useCheckoutCancelledToast();

  const activatingPlan = checkout.isPending ? (checkout.variables?.plan ?? null) : leavingFor;
  const currentPlan = isSubscriber && profile && isPaidPlan(profile.plan) ? profile.plan : null;

  const choose = (plan: PaidPlanId) => {
    if (!user) {
      toast.error(t("toast.loginRequiredTitle"), {
        description: t("toast.loginRequiredDescription"),
      });
      void navigate(loginPath("/pricing"));
      return;
    }
    checkout.mutate(
      { plan },
      {
        onSuccess: (sessionUrl) => {
          if (sessionUrl === null) {
            toast.error(t("toast.checkoutErrorTitle"), {
              description: t("toast.checkoutErrorDescription"),
            });
            return;
          }
          setLeavingFor(plan);
          assignLocation(sessionUrl);
        },
        onError: (error) => {
          toast.error(t("toast.paymentErrorTitle"), {
            description: serverMessage(error) ?? t("toast.paymentErrorFallback"),
          });
        },
      },
    );
  };

  const manage = () =>
    portal.mutate(undefined, {
      onSuccess: (url) => {
        if (url === null) {
          toast.error(t("toast.portalErrorTitle"), {
            description: t("toast.portalErrorFallback"),
          });
          return;
        }
        assignLocation(url);
      },
      onError: (error) => {
        toast.error(t("toast.portalErrorTitle"), {
          description: serverMessage(error) ?? t("toast.portalErrorFallback"),
        });
      },
    });

  return (
    <section
      aria-labelledby="pricing-title"
      className="bg-gradient-to-b from-primary/10 via-background to-background"
    >
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-10 px-4 py-16 md:py-24">
        <header className="flex flex-col items-center gap-3 text-center">
          <h1
            id="pricing-title"
            className="text-4xl font-extrabold tracking-tight text-balance md:text-5xl"
          >
            {t("title")}
          </h1>
          <p className="max-w-2xl text-lg text-pretty text-muted-foreground">{t("subtitle")}</p>
        </header>

        {currentPlan && (
          <div className="mx-auto flex w-full max-w-2xl flex-col items-center justify-between gap-3 rounded-lg border bg-card px-4 py-3 text-sm sm:flex-row">
            <p>{t("subscribedNotice", { plan: t(`plans.${currentPlan}.name`) })}</p>
            <Button variant="outline" size="sm" disabled={portal.isPending} onClick={manage}>
              {portal.isPending && <Spinner />}
              {portal.isPending ? t("openingPortal") : t("manageSubscription")}
            </Button>
          </div>
        )}

        <ul className="grid items-stretch gap-8 md:grid-cols-3 md:gap-6">
          {PLAN_CARDS.map((plan) => (
            <li key={plan.id}>
              <PlanCard
                plan={plan}
                isCurrent={plan.id === currentPlan}
                isActivating={plan.id === activatingPlan}
                disabled={isPending || activatingPlan !== null}
                onChoose={() => choose(plan.id)}
              />
            </li>
          ))}
        </ul>

        <p className="text-center text-xs text-muted-foreground">{t("footnote")}</p>
      </div>
    </section>
  );
}
