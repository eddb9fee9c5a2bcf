import { ShieldAlertIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/hooks/use-current-user";

/**
 * Renders its children for admins only; anyone else sees "Admin access required" (spec section 2,
 * Admin tickets). Logged-out visitors never get here: the route sits behind `RequireAuth`. The
 * database refuses non-admins on its own; this only spares them an empty screen.
 */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation("support");
  const { isAdmin, isPending } = useCurrentUser();

  if (isPending) {
    return (
      <div className="flex flex-1 items-center justify-center p-8">
        <Spinner label={t("loading")} className="size-6" />
      </div>
    );
  }
  if (!isAdmin) {
    return (
      <div className="container mx-auto flex w-full max-w-xl flex-1 items-center px-4 py-12">
        <Card className="w-full" role="alert">
          <CardHeader className="items-center text-center">
            <ShieldAlertIcon className="size-10 text-destructive" aria-hidden="true" />
            <CardTitle className="text-xl">{t("admin.accessRequired")}</CardTitle>
            <CardDescription>{t("admin.accessRequiredDescription")}</CardDescription>
          </CardHeader>
          <CardContent className="flex justify-center">
            <Button asChild variant="outline">
              <Link to="/">{t("admin.backHome")}</Link>
            </Button>
          </CardContent>
        </Card>
      </div>
    );
  }
  return children;
}
