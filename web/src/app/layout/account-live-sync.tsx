import { useTranslation } from "react-i18next";
import { useActivityHeartbeat } from "@/hooks/use-activity-heartbeat";
import { useCurrentUser } from "@/hooks/use-current-user";
import { useProfileStream } from "@/hooks/use-profile-stream";
import { toastErrorLater } from "@/lib/lazy-toast";

/**
 * App-wide live account state: records activity while a tab is visible, and follows changes an
 * admin makes to the signed-in account (a ban is announced; the guards then close the pages).
 */
export function AccountLiveSync() {
  const { t } = useTranslation("admin");
  const { user, profile } = useCurrentUser();
  const userId = user?.id ?? null;
  useActivityHeartbeat(userId !== null && profile !== null && !profile.banned);
  useProfileStream(userId, (change) => {
    if (change.banned === true) {
      toastErrorLater(t("account.bannedTitle"), {
        id: "account-banned",
        description: t("account.bannedDescription"),
      });
    }
  });
  return null;
}
