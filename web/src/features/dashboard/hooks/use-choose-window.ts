import { effectiveWindow, windowLabel } from "@domain/plans";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import type { Profile } from "@/lib/profile-query";
import { serverRuleText } from "@/lib/server-rule-error";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import { useUpdateWindow } from "../api/update-window";

export type WindowProfile = Pick<
  Profile,
  "id" | "plan" | "subscription_active" | "selected_window_minutes"
>;

/**
 * Saves a new observation window to the profile (the window selector and the 1–7 shortcuts): a
 * toast says it is saved, or why the database's plan rules refused it, in the user's language.
 */
export function useChooseWindow(profile: WindowProfile | null) {
  const { t } = useTranslation("dashboard");
  const save = useUpdateWindow();
  const handleSessionExpired = useSessionExpiredHandler();
  const stored = profile ? effectiveWindow(profile.plan, profile.selected_window_minutes) : null;

  const choose = (windowMinutes: number) => {
    if (!profile || windowMinutes === stored) return;
    save.mutate(
      { userId: profile.id, windowMinutes },
      {
        onSuccess: () => {
          const label = windowLabel(windowMinutes);
          toast.success(t("window.saved.title"), {
            description: t(`window.saved.${label.unit}`, { count: label.count }),
          });
        },
        onError: (error) => {
          if (handleSessionExpired(error)) return;
          // A plan rule's refusal (window not offered, subscription inactive) in the user's
          // language; any other failure keeps the general text.
          toast.error(t("window.failed.title"), {
            description: serverRuleText(error, profile.plan) ?? t("window.failed.description"),
          });
        },
      },
    );
  };

  return {
    choose,
    stored,
    isPending: save.isPending,
    pendingMinutes: save.isPending ? save.variables.windowMinutes : null,
  };
}
