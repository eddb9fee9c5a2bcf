import { effectiveWindow, hasSelectableWindow, allowedWindows, windowLabel } from "@domain/plans";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { cn } from "@/lib/utils";
import { useChooseWindow, type WindowProfile } from "../hooks/use-choose-window";

type WindowSelectorProps = {
  profile: WindowProfile;
  /** The window on screen, when the page's address chose it (decision 0045); else the stored one. */
  shown?: number;
  /** Called with each chosen window before it is saved (the page puts it in its address). */
  onShow?: (windowMinutes: number) => void;
  /** The page's own useChooseWindow, shared with the 1–7 shortcuts (the select shows their save). */
  choice?: ReturnType<typeof useChooseWindow>;
};

/**
 * The observation window: basic reads "Fixed: 30 min"; pro and enterprise choose from their
 * plan's windows (decision 0005), disabled while the subscription is inactive. A change is saved
 * to the profile at once; a refusal by the database's plan rules is shown translated.
 */
export function WindowSelector({ profile, shown, onShow, choice }: WindowSelectorProps) {
  const { t } = useTranslation("dashboard");
  const id = useId();
  const own = useChooseWindow(profile);
  const { choose, pendingMinutes, isPending } = choice ?? own;

  if (!hasSelectableWindow(profile.plan)) {
    return (
      <div className="flex flex-col gap-1.5">
        <span className="text-sm font-medium">{t("window.label")}</span>
        <p className="flex h-9 items-center text-sm text-muted-foreground">{t("window.fixed")}</p>
      </div>
    );
  }

  const stored = effectiveWindow(profile.plan, profile.selected_window_minutes);
  const value = pendingMinutes ?? shown ?? stored;
  const disabled = !profile.subscription_active || isPending;
  const onChange = (windowMinutes: number) => {
    onShow?.(windowMinutes);
    // The stored window is the one a clean /dashboard shows: it follows the last choice.
    choose(windowMinutes);
  };

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {t("window.label")}
      </label>
      <select
        id={id}
        value={String(value)}
        disabled={disabled}
        aria-describedby={profile.subscription_active ? undefined : `${id}-hint`}
        onChange={(event) => onChange(Number(event.target.value))}
        className={cn(
          "flex h-9 w-full min-w-36 rounded-md border border-input bg-transparent px-3 py-1 text-base shadow-xs outline-none disabled:cursor-not-allowed disabled:opacity-50 sm:w-auto md:text-sm dark:bg-input/30 [&>option]:bg-popover [&>option]:text-popover-foreground",
          "focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50",
        )}
      >
        {allowedWindows(profile.plan).map((minutes) => {
          const label = windowLabel(minutes);
          return (
            <option key={minutes} value={String(minutes)}>
              {t(`window.${label.unit}`, { count: label.count })}
            </option>
          );
        })}
      </select>
      {!profile.subscription_active && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {t("window.inactive")}
        </p>
      )}
    </div>
  );
}

/**
 * The selector's place while the plan is read: its label and a box of the select's size, so
 * nothing moves when the selector arrives.
 */
export function WindowSelectorPlaceholder() {
  const { t } = useTranslation("dashboard");
  return (
    <div aria-hidden="true" data-testid="window-pending" className="flex flex-col gap-1.5">
      <span className="text-sm font-medium">{t("window.label")}</span>
      <div className="h-9 w-full min-w-36 rounded-md border border-input sm:w-auto dark:bg-input/30" />
    </div>
  );
}
