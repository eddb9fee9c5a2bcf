import { MoonIcon, SunIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { useTheme, useThemeActions } from "../stores/theme-store";

export function ThemeToggle() {
  const { t } = useTranslation();
  const theme = useTheme();
  const { toggleTheme } = useThemeActions();
  const label = theme === "dark" ? t("theme.switchToLight") : t("theme.switchToDark");

  return (
    <Button variant="ghost" size="icon" onClick={toggleTheme} aria-label={label} title={label}>
      {theme === "dark" ? <SunIcon aria-hidden="true" /> : <MoonIcon aria-hidden="true" />}
    </Button>
  );
}
