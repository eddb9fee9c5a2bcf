import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { toast } from "sonner";

/**
 * After the payment page sends the user back with `?checkout=success`: one success toast, then the
 * parameter is removed (replacing the history entry) so a reload does not show it again.
 */
export function useCheckoutSuccessToast(): void {
  const { t } = useTranslation("dashboard");
  const [params, setParams] = useSearchParams();
  const success = params.get("checkout") === "success";

  useEffect(() => {
    if (!success) return;
    // A fixed id: React's development double effects must not show it twice.
    toast.success(t("checkout.title"), {
      id: "checkout-success",
      description: t("checkout.description"),
    });
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.delete("checkout");
        return next;
      },
      { replace: true },
    );
  }, [success, setParams, t]);
}
