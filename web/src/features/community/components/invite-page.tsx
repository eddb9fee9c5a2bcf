import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router-dom";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import { useJoinGroupByInvite } from "../api/join-group-by-invite";
import { isUuid } from "@domain/chat-gifs";

/** /community/join/:code: a group's invite link; joins (after login) and opens the chat. */
export function InvitePage() {
  const { t } = useTranslation("community");
  const { code = "" } = useParams();
  const navigate = useNavigate();
  const join = useJoinGroupByInvite();
  const handleSessionExpired = useSessionExpiredHandler();
  const started = useRef(false);
  const valid = isUuid(code);

  useEffect(() => {
    if (!valid || started.current) return;
    started.current = true;
    join.mutate(
      { code },
      {
        onSuccess: (groupId) => {
          toast.success(t("groups.joined"));
          void navigate(`/community/chat?groupId=${groupId}`, { replace: true });
        },
        onError: (error) => {
          if (handleSessionExpired(error)) return;
          toast.error(t("groups.joinFailed"), { description: error.message });
        },
      },
    );
  }, [valid, code, join, navigate, t, handleSessionExpired]);

  if (!valid || join.isError) {
    return (
      <div className="container mx-auto flex max-w-xl flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
        <p role="alert">{t("invite.invalid")}</p>
        <Button asChild>
          <Link to="/community/groups">{t("invite.goToGroups")}</Link>
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-1 items-center justify-center gap-2 p-16 text-muted-foreground">
      <Spinner /> {t("invite.joining")}
    </div>
  );
}
