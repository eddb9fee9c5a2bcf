import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import { communityQueries } from "../api/queries";
import { useUnblockUser } from "../api/unblock-user";
import { SenderAvatar } from "./sender-avatar";
import { dateTimeFormat } from "@/lib/time-zone";

/** The users the viewer blocked, each with "Unblock" (shown on the profile page). */
export function BlockedUsersCard() {
  const { t, i18n } = useTranslation("community");
  const blocked = useQuery(communityQueries.blocked());
  const unblock = useUnblockUser();
  const handleSessionExpired = useSessionExpiredHandler();
  const date = dateTimeFormat(i18n.language, { dateStyle: "medium" });

  return (
    <Card data-testid="blocked-users">
      <CardHeader>
        <CardTitle>{t("blocks.title")}</CardTitle>
        <CardDescription>{t("blocks.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        {blocked.isPending ? (
          <Spinner label={t("blocks.loading")} />
        ) : (blocked.data ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("blocks.empty")}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {(blocked.data ?? []).map((b) => {
              const name = b.name || t("chat.unknown");
              return (
                <li key={b.blocked_id} className="flex items-center gap-3">
                  <SenderAvatar name={b.name} avatarUrl={b.avatar_url} />
                  <div className="flex min-w-0 flex-1 flex-col">
                    <span className="truncate font-medium">{name}</span>
                    {b.created_at && (
                      <span className="text-xs text-muted-foreground">
                        {t("blocks.since", { date: date.format(new Date(b.created_at)) })}
                      </span>
                    )}
                  </div>
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={t("blocks.unblockLabel", { name })}
                    disabled={unblock.isPending}
                    onClick={() =>
                      unblock.mutate(
                        { userId: b.blocked_id ?? "" },
                        {
                          onSuccess: () => toast.success(t("blocks.unblocked")),
                          onError: (error) => {
                            if (handleSessionExpired(error)) return;
                            toast.error(t("chat.error"), { description: error.message });
                          },
                        },
                      )
                    }
                  >
                    {t("blocks.unblock")}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
