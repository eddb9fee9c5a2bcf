import type { User } from "@supabase/supabase-js";
import { LogOutIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

type AccountActionsProps = {
  user: User | null;
  isAdmin: boolean;
  orientation: "horizontal" | "vertical";
  isSigningOut: boolean;
  onSignOut: () => void;
  /** Called when the user picks a link or logs out (closes the mobile sheet). */
  onNavigate?: () => void;
};

/** Login / start-now for visitors; upgrade, e-mail and logout for users. */
export function AccountActions({
  user,
  isAdmin,
  orientation,
  isSigningOut,
  onSignOut,
  onNavigate,
}: AccountActionsProps) {
  const { t } = useTranslation();
  const vertical = orientation === "vertical";
  const layout = cn("flex gap-2", vertical ? "flex-col items-stretch" : "items-center");

  if (!user) {
    return (
      <div className={layout}>
        <Button asChild variant="ghost">
          <Link to="/auth/login" onClick={onNavigate}>
            {t("nav.login")}
          </Link>
        </Button>
        <Button asChild>
          <Link to="/pricing" onClick={onNavigate}>
            {t("nav.startNow")}
          </Link>
        </Button>
      </div>
    );
  }

  return (
    <div className={layout}>
      <Button asChild variant="outline">
        <Link to="/pricing" onClick={onNavigate}>
          {t("nav.upgrade")}
        </Link>
      </Button>
      <div className={cn("flex min-w-0 items-center gap-2", vertical && "justify-center py-1")}>
        {isAdmin && <Badge variant="destructive">{t("header.adminBadge")}</Badge>}
        {user.email && (
          <span
            className={cn(
              "truncate text-sm text-muted-foreground",
              // The header bar has room for the e-mail from 2xl (with every link of an admin); the
              // mobile sheet always shows it.
              !vertical && "hidden max-w-48 2xl:inline",
            )}
            title={t("header.signedInAs", { email: user.email })}
          >
            {user.email}
          </span>
        )}
      </div>
      <Button
        variant="ghost"
        disabled={isSigningOut}
        onClick={() => {
          onNavigate?.();
          onSignOut();
        }}
      >
        <LogOutIcon aria-hidden="true" />
        <span className={cn(!vertical && "sr-only 2xl:not-sr-only")}>{t("nav.logout")}</span>
      </Button>
    </div>
  );
}
