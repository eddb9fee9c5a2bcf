import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import {
  adminUserActions,
  BAN_REASON_MAX,
  BAN_REASON_MIN,
  useAdminAction,
} from "../api/user-actions";

type Props = {
  user: { id: string; email: string } | null;
  onOpenChange: (open: boolean) => void;
};

/** Ban with a reason (5 to 500 characters; a shorter one gets the "Invalid reason" toast). */
export function BanDialog({ user, onOpenChange }: Props) {
  const { t } = useTranslation("admin");
  const [reason, setReason] = useState("");
  const ban = useAdminAction(adminUserActions.ban);

  const close = () => {
    setReason("");
    onOpenChange(false);
  };
  const submit = () => {
    if (!user) return;
    if (reason.trim().length < BAN_REASON_MIN) {
      toast.error(t("toast.invalidReason"), { description: t("toast.invalidReasonDescription") });
      return;
    }
    ban.mutate(
      { userId: user.id, reason },
      {
        onSuccess: () => {
          toast.success(t("toast.userBanned"));
          close();
        },
        onError: (error) => toast.error(t("toast.error"), { description: error.message }),
      },
    );
  };

  return (
    <Dialog open={user !== null} onOpenChange={(open) => (open ? onOpenChange(true) : close())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("ban.title")}</DialogTitle>
          <DialogDescription>
            {t("ban.description", { email: user?.email ?? "" })}
          </DialogDescription>
        </DialogHeader>
        <form
          className="flex flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Label htmlFor="ban-reason">{t("ban.reason")}</Label>
          <Textarea
            id="ban-reason"
            value={reason}
            maxLength={BAN_REASON_MAX}
            placeholder={t("ban.reasonPlaceholder")}
            onChange={(event) => setReason(event.target.value)}
          />
          <p className="text-xs text-muted-foreground">
            {t("ban.reasonHint", { min: BAN_REASON_MIN, max: BAN_REASON_MAX })}
          </p>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close}>
              {t("actions.cancel")}
            </Button>
            <Button type="submit" variant="destructive" disabled={ban.isPending}>
              {t("ban.confirm")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
