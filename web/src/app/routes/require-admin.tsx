import { ShieldAlertIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Outlet } from "react-router-dom";
import { useCurrentUser } from "@/hooks/use-current-user";
import { RoutePending } from "./route-pending";

/** What a signed-in non-admin sees on an admin page. */
export function AdminAccessRequired() {
  const { t } = useTranslation("admin");
  return (
    <div
      role="alert"
      className="container mx-auto flex max-w-xl flex-1 flex-col items-center justify-center gap-3 px-4 py-16 text-center"
    >
      <ShieldAlertIcon className="size-10 text-destructive" aria-hidden="true" />
      <h1 className="text-2xl font-bold">{t("accessRequired")}</h1>
    </div>
  );
}

/**
 * Route element for admin pages: admins (not banned) pass; others see "Admin access required".
 * Nest it inside `RequireAuth`, which sends logged-out visitors to the login page.
 */
export function RequireAdmin() {
  const { isAdmin, isPending } = useCurrentUser();
  if (isPending) return <RoutePending />;
  if (!isAdmin) return <AdminAccessRequired />;
  return <Outlet />;
}
