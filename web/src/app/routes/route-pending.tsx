import { useTranslation } from "react-i18next";
import { Spinner } from "@/components/ui/spinner";

/** What a guarded route shows while the session and profile are read: a small spinner. */
export function RoutePending() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-1 items-center justify-center py-24">
      <Spinner className="size-6 text-muted-foreground" label={t("guard.loading")} />
    </div>
  );
}
