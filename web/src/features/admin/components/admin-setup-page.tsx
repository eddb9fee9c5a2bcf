import { CheckCircle2Icon } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/hooks/use-current-user";
import { loginPath } from "@/lib/redirect";
import { PromotionError, type PromotionFailure, usePromoteSelf } from "../api/promote-self";

/** /admin-setup: the account's email, role and plan; self-promotion with the shared secret. */
export function AdminSetupPage() {
  const { t } = useTranslation("admin");
  const { user, profile, isPending } = useCurrentUser();
  const [secret, setSecret] = useState("");
  const [result, setResult] = useState<string | null>(null);
  const promote = usePromoteSelf();

  if (isPending) {
    return (
      <div className="flex flex-1 items-center justify-center p-8">
        <Spinner label={t("loading")} className="size-6" />
      </div>
    );
  }

  if (!user || !profile) {
    return (
      <div className="container mx-auto flex max-w-md flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
        <p role="alert" className="text-lg font-medium">
          {t("setup.loginRequired")}
        </p>
        <Button asChild>
          <Link to={loginPath("/admin-setup")}>{t("setup.login")}</Link>
        </Button>
      </div>
    );
  }

  const failureText = (failure: PromotionFailure): string => {
    switch (failure.kind) {
      case "wrongSecret":
        return t("setup.inlineError", { error: t("setup.wrongSecret") });
      case "rateLimited":
        return t("setup.inlineError", { error: t("setup.rateLimited") });
      case "server":
        return t("setup.inlineError", { error: failure.message });
      case "network":
        return t("setup.inlineNetworkError", { message: failure.message });
    }
  };

  const submit = () => {
    setResult(null);
    if (secret.trim() === "") {
      toast.error(t("toast.error"), { description: t("setup.secretRequired") });
      return;
    }
    promote.mutate(
      { secret },
      {
        onSuccess: () => {
          setSecret("");
          toast.success(t("setup.successToast"), {
            description: t("setup.successToastDescription"),
          });
        },
        onError: (error) => {
          const failure: PromotionFailure =
            error instanceof PromotionError
              ? error.failure
              : { kind: "server", message: error.message };
          if (failure.kind === "network") {
            toast.error(t("setup.networkErrorTitle"), {
              description: t("setup.networkErrorDescription"),
            });
          } else {
            toast.error(t("toast.error"), {
              description:
                failure.kind === "wrongSecret"
                  ? t("setup.wrongSecret")
                  : failure.kind === "rateLimited"
                    ? t("setup.rateLimited")
                    : failure.message,
            });
          }
          setResult(failureText(failure));
        },
      },
    );
  };

  const done = profile.role === "admin" && profile.plan === "enterprise" && !profile.banned;

  return (
    <div className="container mx-auto flex w-full max-w-lg flex-col gap-6 px-4 py-8">
      <Card>
        <CardHeader>
          <CardTitle className="text-2xl">{t("setup.title")}</CardTitle>
          <CardDescription>{t("setup.description")}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted-foreground">{t("setup.email")}</dt>
            <dd className="font-medium break-all" data-testid="setup-email">
              {profile.email}
            </dd>
            <dt className="text-muted-foreground">{t("setup.role")}</dt>
            <dd className="font-medium" data-testid="setup-role">
              {t(`setup.roles.${profile.role}`)}
            </dd>
            <dt className="text-muted-foreground">{t("setup.plan")}</dt>
            <dd className="font-medium" data-testid="setup-plan">
              {t(`plan.${profile.plan}`)}
            </dd>
          </dl>

          {done ? (
            <div
              role="status"
              className="flex items-start gap-3 rounded-md border border-emerald-600/40 bg-emerald-600/10 p-4 text-sm text-emerald-800 dark:text-emerald-300"
            >
              <CheckCircle2Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
              <div className="flex flex-col gap-2">
                <p className="font-medium">{t("setup.alreadyAdmin")}</p>
                <Link to="/admin" className="underline underline-offset-4">
                  {t("setup.openPanel")}
                </Link>
              </div>
            </div>
          ) : (
            <form
              className="flex flex-col gap-3"
              onSubmit={(event) => {
                event.preventDefault();
                submit();
              }}
            >
              <Label htmlFor="admin-secret">{t("setup.secret")}</Label>
              <Input
                id="admin-secret"
                type="password"
                autoComplete="off"
                value={secret}
                onChange={(event) => setSecret(event.target.value)}
              />
              <Button type="submit" disabled={promote.isPending}>
                {promote.isPending ? t("setup.activating") : t("setup.activate")}
              </Button>
              {result && (
                <p role="alert" className="text-sm text-destructive" data-testid="setup-result">
                  {result}
                </p>
              )}
            </form>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
