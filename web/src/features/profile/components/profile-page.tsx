import { useTranslation } from "react-i18next";
import { Navigate } from "react-router-dom";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/hooks/use-current-user";
import { LOGIN_PATH } from "@/lib/redirect";
import { hasActivePaidPlan } from "@domain/plans";
import { AccountDetailsCard } from "./account-details-card";
import { AvatarCard } from "./avatar-card";
import { TimeZoneCard } from "./time-zone-card";
import { UsernameCard } from "./username-card";

/** /profile: avatar, username, time zone and account details of the signed-in user. */
export function ProfilePage() {
  const { t } = useTranslation("profile");
  const { profile, isPending } = useCurrentUser();

  if (isPending) {
    return (
      <div className="flex flex-1 items-center justify-center p-8">
        <Spinner label={t("loading")} className="size-6" />
      </div>
    );
  }
  if (!profile) return <Navigate to={LOGIN_PATH} replace />;

  const initial = (profile.username || profile.email).charAt(0) || "U";

  return (
    <div className="container mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("title")}</h1>
        <p className="text-muted-foreground">{t("description")}</p>
      </header>
      <AvatarCard userId={profile.id} avatarUrl={profile.avatar_url} initial={initial} />
      <UsernameCard userId={profile.id} currentName={profile.username} />
      <TimeZoneCard key={profile.time_zone ?? ""} userId={profile.id} current={profile.time_zone} />
      <AccountDetailsCard
        email={profile.email}
        plan={profile.plan}
        subscribed={hasActivePaidPlan({
          plan: profile.plan,
          subscriptionActive: profile.subscription_active,
        })}
      />
    </div>
  );
}
