import { MonitorIcon, MoonIcon, SunIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { useThemeActions, useThemePreference } from "../stores/theme-store";

const ICON = { dark: MoonIcon, light: SunIcon, system: MonitorIcon } as const;
const NEXT_LABEL = {
  dark: "theme.switchToLight",
  light: "theme.switchToSystem",
  system: "theme.switchToDark",
} as const;

/** Cycles the theme: dark → light → the system's (following `prefers-color-scheme`) → dark. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const theme = useThemePreference();
  const { cycleTheme } = useThemeActions();
  const label = t(NEXT_LABEL[theme]);
  const Icon = ICON[theme];

  return (
    <Button variant="ghost" size="icon" onClick={cycleTheme} aria-label={label} title={label}>
      <Icon aria-hidden="true" />
    </Button>
  );
}
