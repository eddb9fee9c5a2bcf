import { RefreshCwIcon } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { useServiceWorker } from "../hooks/use-service-worker";

/**
 * "A new version is available — Reload": shown after a deploy instead of silently serving the
 * old build. Announced politely to screen readers; "Later" hides it until the next page load.
 */
export function UpdatePrompt() {
  const { t } = useTranslation("shell");
  const { updateReady, reload } = useServiceWorker();
  const [dismissed, setDismissed] = useState(false);

  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex justify-center p-4"
    >
      {updateReady && !dismissed && (
        <div
          data-testid="update-prompt"
          className="pointer-events-auto flex flex-wrap items-center gap-3 rounded-lg border bg-popover px-4 py-3 text-sm text-popover-foreground shadow-lg"
        >
          <span>{t("update.available")}</span>
          <div className="flex gap-2">
            <Button size="sm" onClick={reload}>
              <RefreshCwIcon aria-hidden="true" />
              {t("update.reload")}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setDismissed(true)}>
              {t("update.dismiss")}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
