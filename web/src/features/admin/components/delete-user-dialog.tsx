import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { buttonVariants } from "@/components/ui/button";
import { adminUserActions, useAdminAction } from "../api/user-actions";

type Props = {
  user: { id: string; email: string } | null;
  onOpenChange: (open: boolean) => void;
};

/** Deleting a user asks first; the action reads "Delete Permanently". */
export function DeleteUserDialog({ user, onOpenChange }: Props) {
  const { t } = useTranslation("admin");
  const remove = useAdminAction(adminUserActions.remove);
  return (
    <AlertDialog open={user !== null} onOpenChange={onOpenChange}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{t("delete.title")}</AlertDialogTitle>
          <AlertDialogDescription>
            {t("delete.description", { email: user?.email ?? "" })}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{t("actions.cancel")}</AlertDialogCancel>
          <AlertDialogAction
            className={buttonVariants({ variant: "destructive" })}
            disabled={remove.isPending}
            onClick={() => {
              if (!user) return;
              remove.mutate(
                { userId: user.id },
                {
                  onSuccess: () => toast.success(t("toast.userDeleted")),
                  onError: (error) => toast.error(t("toast.error"), { description: error.message }),
                },
              );
            }}
          >
            {t("delete.confirm")}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
