import { EyeOffIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { useFilterActions } from "../stores/filters-store";

type TrustHiddenNoteProps = {
  /** Thin moves the default hides. */
  hiddenThin: number;
  /** Moves "Confirmed only" hides. */
  hiddenUnconfirmed: number;
};

/** Says how many moves the trust switches hide, with one click to show them: nothing silently. */
export function TrustHiddenNote({ hiddenThin, hiddenUnconfirmed }: TrustHiddenNoteProps) {
  const { t } = useTranslation("dashboard");
  const actions = useFilterActions();
  if (hiddenThin === 0 && hiddenUnconfirmed === 0) return null;
  return (
    <div
      role="status"
      data-testid="trust-hidden"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-dashed px-3 py-2 text-sm text-muted-foreground"
    >
      <EyeOffIcon className="size-4 shrink-0" aria-hidden="true" />
      {hiddenThin > 0 && (
        <span className="flex items-center gap-2">
          {t("trust.hiddenThin", { count: hiddenThin })}
          <Button
            type="button"
            size="sm"
            variant="link"
            className="h-auto p-0"
            onClick={() => actions.setSwitch("showThin", true)}
          >
            {t("trust.showThinAction")}
          </Button>
        </span>
      )}
      {hiddenUnconfirmed > 0 && (
        <span className="flex items-center gap-2">
          {t("trust.hiddenUnconfirmed", { count: hiddenUnconfirmed })}
          <Button
            type="button"
            size="sm"
            variant="link"
            className="h-auto p-0"
            onClick={() => actions.setSwitch("confirmedOnly", false)}
          >
            {t("trust.showThinAction")}
          </Button>
        </span>
      )}
    </div>
  );
}
