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
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import {
  ALREADY_REPORTED,
  REPORT_REASONS,
  type ReportReason,
  useReportUser,
} from "../api/report-user";
import { writeLimitMessage } from "@/lib/write-limit";

type ReportDialogProps = {
  userId: string;
  /** The message the report is about (the admins see it with the report). */
  messageId?: string;
  name: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where the focus goes when the dialog closes (Radix' `onCloseAutoFocus`). */
  onCloseAutoFocus?: (event: Event) => void;
};

/** Reports a user to the admins with a reason and optional details (stored in user_reports). */
export function ReportDialog({
  userId,
  messageId,
  name,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: ReportDialogProps) {
  const { t } = useTranslation("community");
  const [reason, setReason] = useState<ReportReason>("spam");
  const [description, setDescription] = useState("");
  const report = useReportUser();
  const handleSessionExpired = useSessionExpiredHandler();
  const tooLong = description.trim().length > 1000;

  const submit = () =>
    report.mutate(
      { userId, messageId, reason, description },
      {
        onSuccess: () => {
          toast.success(t("report.sent"), { description: t("report.sentDescription") });
          onOpenChange(false);
        },
        onError: (error) => {
          if (handleSessionExpired(error)) return;
          const code = (error as { code?: unknown }).code;
          toast.error(t("chat.error"), {
            description:
              code === ALREADY_REPORTED
                ? t("report.already")
                : (writeLimitMessage(error) ?? error.message),
          });
        },
      },
    );

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t("report.cancel")} onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{t("report.title", { name })}</DialogTitle>
          <DialogDescription>{t("report.description")}</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <Label htmlFor="report-reason">{t("report.reason")}</Label>
            <Select value={reason} onValueChange={(value) => setReason(value as ReportReason)}>
              <SelectTrigger id="report-reason" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {REPORT_REASONS.map((r) => (
                  <SelectItem key={r} value={r}>
                    {t(`report.reasons.${r}`)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="report-details">{t("report.details")}</Label>
            <Textarea
              id="report-details"
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              placeholder={t("report.detailsPlaceholder")}
              aria-invalid={tooLong}
              rows={4}
            />
            {tooLong && (
              <p className="text-sm text-destructive">{t("report.descriptionTooLong")}</p>
            )}
          </div>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {t("report.cancel")}
          </Button>
          <Button onClick={submit} disabled={report.isPending || tooLong}>
            {report.isPending ? t("report.sending") : t("report.submit")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
