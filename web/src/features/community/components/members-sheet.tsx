import { useQuery } from "@tanstack/react-query";
import { Users } from "lucide-react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
  SheetTrigger,
} from "@/components/ui/sheet";
import { Spinner } from "@/components/ui/spinner";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import { communityQueries } from "../api/queries";
import { useRemoveMember } from "../api/remove-member";
import { PlanBadge } from "./plan-badge";
import { SenderAvatar } from "./sender-avatar";

type MembersSheetProps = {
  groupId: string;
  meId: string;
  isGroupAdmin: boolean;
  onlineIds: ReadonlySet<string>;
};

/** The group's members, who of them is online, and (for the group admin) removing one. */
export function MembersSheet({ groupId, meId, isGroupAdmin, onlineIds }: MembersSheetProps) {
  const { t } = useTranslation("community");
  const members = useQuery(communityQueries.members(groupId));
  const remove = useRemoveMember(groupId);
  const handleSessionExpired = useSessionExpiredHandler();

  return (
    <Sheet>
      <SheetTrigger asChild>
        <Button variant="outline" size="sm">
          <Users aria-hidden="true" />
          {t("chat.members")}
        </Button>
      </SheetTrigger>
      <SheetContent closeLabel={t("chat.cancel")} className="overflow-y-auto">
        <SheetHeader>
          <SheetTitle>{t("chat.members")}</SheetTitle>
          <SheetDescription>{t("chat.membersDescription")}</SheetDescription>
        </SheetHeader>
        {members.isPending ? (
          <Spinner className="m-4" />
        ) : (
          <ul className="flex flex-col gap-1 px-4 pb-4" data-testid="member-list">
            {(members.data ?? []).map((member) => {
              const id = member.user_id ?? "";
              const name = member.name || t("chat.unknown");
              return (
                <li key={id} className="flex items-center gap-3 rounded-md py-1.5">
                  <span className="relative">
                    <SenderAvatar name={member.name} avatarUrl={member.avatar_url} />
                    {onlineIds.has(id) && (
                      <span
                        className="absolute -right-0.5 -bottom-0.5 size-3 rounded-full border-2 border-background bg-success"
                        aria-label={t("chat.onlineNow")}
                        role="img"
                      />
                    )}
                  </span>
                  <span className="flex min-w-0 flex-1 flex-wrap items-center gap-1.5 text-sm">
                    <span className="truncate font-medium">
                      {id === meId ? t("chat.you") : name}
                    </span>
                    <PlanBadge plan={member.plan} />
                    {member.role === "admin" && (
                      <Badge variant="outline">{t("chat.groupAdmin")}</Badge>
                    )}
                  </span>
                  {isGroupAdmin && id !== meId && member.role !== "admin" && (
                    <Button
                      size="sm"
                      variant="ghost"
                      className="text-destructive"
                      aria-label={t("chat.removeMemberLabel", { name })}
                      disabled={remove.isPending}
                      onClick={() =>
                        remove.mutate(id, {
                          onSuccess: () => toast.success(t("chat.memberRemoved")),
                          onError: (error) => {
                            if (handleSessionExpired(error)) return;
                            toast.error(t("chat.error"), { description: error.message });
                          },
                        })
                      }
                    >
                      {t("chat.removeMember")}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </SheetContent>
    </Sheet>
  );
}
