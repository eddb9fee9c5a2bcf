import { useTranslation } from "react-i18next";
import { Spinner } from "@/components/ui/spinner";

/**
 * What a guarded route shows while the session and profile are read: a small spinner, on a screen's
 * height, like the layout's own fallback, so the footer is not on screen to be pushed down when
 * the page arrives (it was most of the signed-in dashboard's layout shift; decision 0065).
 */
export function RoutePending() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-svh flex-1 items-center justify-center py-24">
      <Spinner className="size-6 text-muted-foreground" label={t("guard.loading")} />
    </div>
  );
}

/**
 * Guarded pages that draw their own frame while the session and the profile are read, so their
 * first paint does not wait for them (decision 0070): the guards render them at once and decide
 * when the reads are done (a visitor still goes to the login page, a free account to pricing).
 * They show no data of their own before that; what data they fetch, RLS and the API answer.
 */
const DRAWS_OWN_PENDING_FRAME = new Set(["/dashboard"]);

export function drawsOwnPendingFrame(pathname: string): boolean {
  return DRAWS_OWN_PENDING_FRAME.has(pathname.replace(/\/+$/, "") || "/");
}
