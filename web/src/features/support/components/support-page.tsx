import { useQuery } from "@tanstack/react-query";
import { LifeBuoyIcon, PlusIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/hooks/use-current-user";
import { loginPath } from "@/lib/redirect";
import { isSessionExpiredError } from "@/lib/session-expired";
import { supportQueries } from "../api/queries";
import { TicketList } from "./ticket-list";

// The New Ticket form (its validation and form library) loads when it is first opened, then
// stays mounted so a closed dialog keeps what was typed.
const NewTicketDialog = lazy(() =>
  import("./new-ticket-dialog").then((m) => ({ default: m.NewTicketDialog })),
);

/** /support: the Support Center, the signed-in user's own tickets and the New Ticket dialog. */
export function SupportPage() {
  const { t } = useTranslation("support");
  const { user } = useCurrentUser();
  const location = useLocation();
  const [dialogOpen, setDialogOpenState] = useState(false);
  const [dialogOpened, setDialogOpened] = useState(false);
  const setDialogOpen = (open: boolean) => {
    if (open) setDialogOpened(true);
    setDialogOpenState(open);
  };
  const tickets = useQuery({ ...supportQueries.mine(user?.id ?? ""), enabled: user !== null });

  // Spec: a list that cannot be loaded because the session is gone sends the user to log in.
  if (!user || (tickets.isError && isSessionExpiredError(tickets.error))) {
    return <Navigate to={loginPath(location.pathname)} replace />;
  }

  return (
    <div className="container mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("center.title")}</h1>
          <p className="text-muted-foreground">{t("center.description")}</p>
        </div>
        <Button onClick={() => setDialogOpen(true)} className="self-start sm:self-auto">
          <PlusIcon aria-hidden="true" />
          {t("center.newTicket")}
        </Button>
      </header>

      {tickets.isPending ? (
        <div className="flex justify-center p-8">
          <Spinner label={t("loading")} className="size-6" />
        </div>
      ) : tickets.isError ? (
        <Card role="alert">
          <CardHeader>
            <CardTitle>{t("center.loadFailed")}</CardTitle>
            <CardDescription>{tickets.error.message}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button variant="outline" onClick={() => void tickets.refetch()}>
              {t("retry")}
            </Button>
          </CardContent>
        </Card>
      ) : tickets.data.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-4 py-12 text-center">
            <LifeBuoyIcon className="size-10 text-muted-foreground" aria-hidden="true" />
            <p className="text-muted-foreground">{t("center.empty")}</p>
            <Button onClick={() => setDialogOpen(true)}>{t("center.createFirst")}</Button>
          </CardContent>
        </Card>
      ) : (
        <TicketList tickets={tickets.data} />
      )}

      {dialogOpened ? (
        <Suspense fallback={null}>
          <NewTicketDialog open={dialogOpen} onOpenChange={setDialogOpen} />
        </Suspense>
      ) : null}
    </div>
  );
}
