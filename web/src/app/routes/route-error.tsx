import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useRouteError } from "react-router-dom";
import { Button } from "@/components/ui/button";

/** Shown in place of a page that threw while rendering; header and footer stay. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();

  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <section
      role="alert"
      className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center gap-4 px-4 py-24 text-center"
    >
      <h1 className="text-3xl font-bold tracking-tight">{t("error.title")}</h1>
      <p className="text-muted-foreground">{t("error.description")}</p>
      <Button onClick={() => window.location.reload()}>{t("error.reload")}</Button>
    </section>
  );
}
