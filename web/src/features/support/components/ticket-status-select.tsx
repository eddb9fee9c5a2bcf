import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "@/components/ui/select";
import { cn } from "@/lib/utils";
import { useSetTicketStatus } from "../api/set-ticket-status";
import { supportErrorText } from "../utils/support-error";
import { statusLabelKey, TICKET_STATUSES, type TicketStatus } from "../utils/ticket-values";

type TicketStatusSelectProps = {
  ticketId: string;
  ticketNumber: number;
  status: TicketStatus;
  className?: string;
};

/** Admins set any of the four stored statuses (decision 0022); the database logs each change. */
export function TicketStatusSelect({
  ticketId,
  ticketNumber,
  status,
  className,
}: TicketStatusSelectProps) {
  const { t } = useTranslation("support");
  const setStatus = useSetTicketStatus();

  const change = (value: string) => {
    const next = TICKET_STATUSES.find((candidate) => candidate === value);
    if (!next || next === status) return;
    setStatus.mutate(
      { ticketId, status: next },
      {
        onSuccess: () =>
          toast.success(t("toast.statusUpdated"), {
            description: t("toast.statusUpdatedDescription", {
              number: ticketNumber,
              status: t(statusLabelKey(next)),
            }),
          }),
        onError: (error) =>
          toast.error(t("toast.updateFailed"), {
            description: supportErrorText(error) ?? undefined,
          }),
      },
    );
  };

  return (
    <Select
      value={setStatus.isPending ? setStatus.variables.status : status}
      onValueChange={change}
    >
      <SelectTrigger
        className={cn("w-40", className)}
        aria-label={t("admin.statusFor", { number: ticketNumber })}
        disabled={setStatus.isPending}
      >
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {TICKET_STATUSES.map((value) => (
          <SelectItem key={value} value={value}>
            {t(statusLabelKey(value))}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
