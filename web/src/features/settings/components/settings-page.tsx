import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate } from "react-router-dom";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/hooks/use-current-user";
import type { Profile } from "@/lib/profile-query";
import { LOGIN_PATH } from "@/lib/redirect";
import { AccountInfoCard } from "./account-info-card";
import { AlertSettingsForm } from "./alert-settings-form";

/**
 * /dashboard/settings (subscribers only; the route guard sees to that). `extra` renders other
 * features' cards below the form; the route composes them (app/routes/settings-route.tsx).
 */
export function SettingsPage({ extra }: { extra?: (profile: Profile) => ReactNode } = {}) {
  const { t } = useTranslation("settings");
  const { profile, isPending } = useCurrentUser();

  if (isPending) {
    return (
      <div className="flex flex-1 items-center justify-center p-8">
        <Spinner label={t("loading")} className="size-6" />
      </div>
    );
  }
  if (!profile) return <Navigate to={LOGIN_PATH} replace />;

  return (
    <div className="container mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("title")}</h1>
        <p className="text-muted-foreground">{t("description")}</p>
      </header>
      <AccountInfoCard
        email={profile.email}
        plan={profile.plan}
        subscriptionActive={profile.subscription_active}
      />
      {/* Keyed by plan: a plan change brings other windows and rules, so the form starts afresh. */}
      <AlertSettingsForm key={profile.plan} profile={profile} />
      {extra?.(profile)}
    </div>
  );
}
