import { Link as LinkIcon, LogOut, MessageSquare, UserPlus } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "@/components/ui/card";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import { useJoinGroup } from "../api/join-group";
import { useLeaveGroup } from "../api/leave-group";
import type { GroupRow } from "../api/queries";

/** The path of a group's invite link (joins after login). */
export function invitePath(code: string): string {
  return `/community/join/${code}`;
}

export function GroupCard({ group }: { group: GroupRow }) {
  const { t } = useTranslation("community");
  const join = useJoinGroup();
  const leave = useLeaveGroup();
  const handleSessionExpired = useSessionExpiredHandler();
  const id = group.id ?? "";
  const isMember = group.my_role !== null;

  const copyInvite = async () => {
    const link = `${window.location.origin}${invitePath(group.invite_code ?? "")}`;
    try {
      await navigator.clipboard.writeText(link);
      toast.success(t("groups.inviteCopied"));
    } catch {
      toast.message(t("groups.inviteCopyFailed", { link }));
    }
  };

  return (
    <Card className="gap-3 py-4" data-testid="group-card" data-group-id={id}>
      <CardHeader className="px-4">
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle className="text-base break-all">{group.name}</CardTitle>
          <Badge variant="outline">
            {group.is_public ? t("groups.public") : t("groups.private")}
          </Badge>
          {group.my_role === "admin" && <Badge variant="secondary">{t("groups.admin")}</Badge>}
        </div>
        {group.description && (
          <CardDescription className="break-words">{group.description}</CardDescription>
        )}
      </CardHeader>
      <CardContent className="px-4 text-sm text-muted-foreground">
        {t("groups.members", { count: group.member_count ?? 0 })}
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2 px-4">
        {isMember ? (
          <>
            <Button asChild size="sm">
              <Link to={`/community/chat?groupId=${id}`}>
                <MessageSquare aria-hidden="true" />
                {t("groups.openChat")}
              </Link>
            </Button>
            {group.invite_code && (
              <Button size="sm" variant="outline" onClick={() => void copyInvite()}>
                <LinkIcon aria-hidden="true" />
                {t("groups.copyInvite")}
              </Button>
            )}
            <Button
              size="sm"
              variant="ghost"
              disabled={leave.isPending}
              onClick={() =>
                leave.mutate(
                  { groupId: id },
                  {
                    onSuccess: () => toast.success(t("groups.left")),
                    onError: (error) => {
                      if (handleSessionExpired(error)) return;
                      toast.error(t("groups.leaveFailed"), { description: error.message });
                    },
                  },
                )
              }
            >
              <LogOut aria-hidden="true" />
              {t("groups.leave")}
            </Button>
          </>
        ) : (
          <Button
            size="sm"
            disabled={join.isPending}
            onClick={() =>
              join.mutate(
                { groupId: id },
                {
                  onSuccess: () => toast.success(t("groups.joined")),
                  onError: (error) => {
                    if (handleSessionExpired(error)) return;
                    toast.error(t("groups.joinFailed"), { description: error.message });
                  },
                },
              )
            }
          >
            <UserPlus aria-hidden="true" />
            {t("groups.join")}
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}
