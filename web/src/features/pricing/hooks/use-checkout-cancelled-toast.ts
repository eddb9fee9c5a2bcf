import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { toast } from "sonner";

/**
 * The payment page sends a user who backs out to /pricing?checkout=cancelled:
 * say so once, then drop the parameter so a reload does not repeat it.
 * (`?checkout=success` goes to the dashboard, which handles it.)
 */
export function useCheckoutCancelledToast() {
  const { t } = useTranslation("pricing");
  const [searchParams, setSearchParams] = useSearchParams();
  const cancelled = searchParams.get("checkout") === "cancelled";

  useEffect(() => {
    if (!cancelled) return;
    toast.info(t("toast.cancelledTitle"), {
      id: "checkout-cancelled",
      description: t("toast.cancelledDescription"),
    });
    setSearchParams(
      (params) => {
        params.delete("checkout");
        return params;
      },
      { replace: true },
    );
  }, [cancelled, setSearchParams, t]);
}
