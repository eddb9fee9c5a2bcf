import { DownloadIcon } from "lucide-react";
import type { ComponentProps } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";

type ExportButtonProps = Omit<ComponentProps<typeof Button>, "children"> & {
  /** The accessible name: what is exported ("Export the movers on screen"). */
  label: string;
};

/**
 * The export menu's button: "Export" with its icon. Also the menu's stand-in, disabled, where the
 * menu's code loads on demand, so nothing beside it moves when the menu arrives.
 */
export function ExportButton({ label, ...props }: ExportButtonProps) {
  const { t } = useTranslation();
  return (
    <Button type="button" variant="outline" size="sm" aria-label={label} {...props}>
      <DownloadIcon aria-hidden="true" />
      {t("export.button")}
    </Button>
  );
}
