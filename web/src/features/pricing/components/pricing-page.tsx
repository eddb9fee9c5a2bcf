import { planChangeKind } from "@domain/billing";
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
import { dateTimeFormat } from "@/lib/time-zone";
import { type ChangePlanResult, useChangePlan, usePendingPlan } from "../api/change-plan";
import { useStartCheckout } from "../api/start-checkout";
import { useCheckoutCancelledToast } from "../hooks/use-checkout-cancelled-toast";
import { PLAN_CARDS } from "../utils/plan-catalogue";
import { PlanCard, type PlanCardAction } from "./plan-card";

/** The codes the change-plan function answers with, and their translations (change.errors.*). */
const CHANGE_ERRORS = {
  same_plan: "samePlan",
  no_active_subscription: "noActiveSubscription",
  change_already_scheduled: "changeAlreadyScheduled",
  cancellation_pending: "cancellationPending",
  too_many_plan_changes: "tooManyPlanChanges",
  payment_declined: "paymentDeclined",
} as const;

function serverMessage(error: unknown): string | null {
  return error instanceof FunctionCallError ? error.serverMessage : null;
}

/** /pricing: the three plans and the checkout flow (spec sections 2 and 4). */
export function PricingPage() {
  const { t, i18n } = useTranslation("pricing");
  const navigate = useNavigate();
  const { user, profile, isSubscriber, isPending } = useCurrentUser();
  const checkout = useStartCheckout();
  const portal = useOpenBillingPortal();
  // After a successful checkout call the browser is on its way to the payment page.
  const [leavingFor, setLeavingFor] = useState<PaidPlanId | null>(null);
  useCheckoutCancelledToast();

  const activatingPlan = checkout.isPending ? (checkout.variables?.plan ?? null) : leavingFor;
  const currentPlan = isSubscriber && profile && isPaidPlan(profile.plan) ? profile.plan : null;
  const change = useChangePlan();
  const pending = usePendingPlan(currentPlan !== null).data ?? null;
  const changingTo = change.isPending ? (change.variables?.plan ?? null) : null;
  const formatDate = (iso: string) =>
    dateTimeFormat(i18n.resolvedLanguage, { dateStyle: "long" }).format(new Date(iso));
  const planName = (plan: PaidPlanId) => t(`plans.${plan}.name`);

  const actionFor = (plan: PaidPlanId): PlanCardAction => {
    if (!currentPlan) return "start";
    if (plan === currentPlan) return pending ? "keep" : "current";
    if (pending && plan === pending.plan) return "scheduled";
    const kind = planChangeKind(currentPlan, plan);
    return kind === "same" ? "current" : kind;
  };

  const changeTo = (plan: PaidPlanId) =>
    change.mutate(
      { plan },
      {
        onSuccess: (result: ChangePlanResult) => {
          if (result.effective === "now") {
            toast.success(t("change.toast.upgradedTitle", { plan: planName(result.plan) }), {
              description: t("change.toast.upgradedDescription"),
            });
            void navigate("/dashboard");
          } else if (result.effective === "period_end") {
            toast.success(t("change.toast.downgradeScheduledTitle"), {
              description: t("change.toast.downgradeScheduledDescription", {
                plan: planName(result.plan),
                date: formatDate(result.at),
              }),
            });
          } else {
            toast.success(t("change.toast.keptTitle"), {
              description: t("change.toast.keptDescription", { plan: planName(result.plan) }),
            });
          }
        },
        onError: (error) => {
          const code = error instanceof FunctionCallError ? error.code : null;
          const known =
            code !== null && Object.hasOwn(CHANGE_ERRORS, code)
              ? CHANGE_ERRORS[code as keyof typeof CHANGE_ERRORS]
              : null;
          toast.error(t("change.toast.changeErrorTitle"), {
            description: t(known ? `change.errors.${known}` : "change.errors.fallback"),
          });
        },
      },
    );

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
            <div className="flex flex-col gap-1">
              <p>{t("subscribedNotice", { plan: t(`plans.${currentPlan}.name`) })}</p>
              {pending && (
                <p data-testid="pending-plan-notice" className="text-muted-foreground">
                  {t("change.pendingNotice", {
                    plan: planName(pending.plan),
                    date: formatDate(pending.at),
                    current: planName(currentPlan),
                  })}
                </p>
              )}
            </div>
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
                action={actionFor(plan.id)}
                isActivating={plan.id === activatingPlan || plan.id === changingTo}
                disabled={isPending || activatingPlan !== null || changingTo !== null}
                scheduledDate={pending?.plan === plan.id ? formatDate(pending.at) : undefined}
                onChoose={() => (currentPlan ? changeTo(plan.id) : choose(plan.id))}
              />
            </li>
          ))}
        </ul>

        <p className="text-center text-xs text-muted-foreground">{t("footnote")}</p>
      </div>
    </section>
  );
}
