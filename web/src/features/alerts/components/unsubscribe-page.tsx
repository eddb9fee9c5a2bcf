import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { unsubscribeAlertEmail } from "../api/alerts";

const TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * /alerts/unsubscribe?token=… — the unsubscribe link of alert e-mails. One click, no login:
 * the token decides. A button rather than an action on load, so that link scanners opening the
 * URL do not unsubscribe anyone (mail clients use the List-Unsubscribe-Post header instead).
 */
export function UnsubscribePage() {
  const { t } = useTranslation("alerts");
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [state, setState] = useState<"idle" | "working" | "done" | "unknown" | "failed">(
    TOKEN.test(token) ? "idle" : "unknown",
  );

  const onClick = async () => {
    setState("working");
    try {
      setState((await unsubscribeAlertEmail(token)) ? "done" : "unknown");
    } catch {
      setState("failed");
    }
  };

  return (
    <div className="container mx-auto flex w-full max-w-lg flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1>{t("unsubscribe.title")}</h1>
          </CardTitle>
          <CardDescription>{t("unsubscribe.description")}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {state === "done" ? (
            <p role="status">{t("unsubscribe.done")}</p>
          ) : state === "unknown" ? (
            <p role="alert" className="text-destructive">
              {t("unsubscribe.invalid")}
            </p>
          ) : (
            <>
              {state === "failed" && (
                <p role="alert" className="text-destructive">
                  {t("unsubscribe.failed")}
                </p>
              )}
              <Button onClick={onClick} disabled={state === "working"}>
                {state === "working" ? t("unsubscribe.working") : t("unsubscribe.action")}
              </Button>
            </>
          )}
          <Link to="/dashboard/settings" className="text-sm underline underline-offset-4">
            {t("unsubscribe.settings")}
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}
