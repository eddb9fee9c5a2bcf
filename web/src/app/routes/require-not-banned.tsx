import { BanIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Outlet } from "react-router-dom";
import { useCurrentUser } from "@/hooks/use-current-user";
import { RoutePending } from "./route-pending";

/**
 * Route element for the pages every signed-in account may use but a banned one may not (the
 * community: decision 0021). A ban made while the page is open takes it away at once: the
 * profile stream refreshes the profile and this element replaces the page. The database
 * refuses banned accounts on its own; this spares them a page that cannot work.
 */
export function RequireNotBanned() {
  const { t } = useTranslation("admin");
  const { profile, isPending } = useCurrentUser();
  if (isPending) return <RoutePending />;
  if (profile?.banned) {
    return (
      <div
        role="alert"
        className="container mx-auto flex max-w-xl flex-1 flex-col items-center justify-center gap-3 px-4 py-16 text-center"
      >
        <BanIcon className="size-10 text-destructive" aria-hidden="true" />
        <h1 className="text-2xl font-bold">{t("account.bannedTitle")}</h1>
        <p className="text-muted-foreground">{t("account.bannedDescription")}</p>
      </div>
    );
  }
  return <Outlet />;
}
