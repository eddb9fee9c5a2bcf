import { LockIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

/**
 * What a Pro feature shows a plan that does not include it, in the feature's place: what it is
 * and a way to upgrade (never an empty chart or a silent gap). The database refuses the data
 * itself (PT403 'The Pro plan is required').
 */
export function UpgradePrompt({
  title,
  description,
  className,
}: {
  title: string;
  description: string;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <section
      data-testid="upgrade-prompt"
      aria-label={title}
      className={cn(
        "flex flex-col items-start gap-3 rounded-lg border border-dashed border-primary/50 bg-primary/5 p-4",
        className,
      )}
    >
      <div className="flex items-center gap-2">
        <LockIcon className="size-4 text-primary" aria-hidden="true" />
        <h3 className="font-semibold">{title}</h3>
      </div>
      <p className="text-sm text-muted-foreground">{description}</p>
      <Button asChild size="sm">
        <Link to="/pricing">{t("upgradePrompt.action")}</Link>
      </Button>
    </section>
  );
}
