import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
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
import {
  Form,
  FormControl,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import {
  CONTENT_MAX,
  createTicketSchema,
  SUBJECT_MAX,
  useCreateTicket,
  type CreateTicketInput,
  type CreateTicketValues,
} from "../api/create-ticket";
import { supportErrorText } from "../utils/support-error";
import { DEFAULT_PRIORITY, USER_PRIORITIES } from "../utils/ticket-values";

const EMPTY: CreateTicketValues = { subject: "", content: "", priority: DEFAULT_PRIORITY };

type NewTicketDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** The New Ticket dialog: Subject, Details and Priority (low, medium, high; medium by default). */
export function NewTicketDialog({ open, onOpenChange }: NewTicketDialogProps) {
  const { t } = useTranslation("support");
  const form = useForm<CreateTicketValues, unknown, CreateTicketInput>({
    resolver: zodResolver(createTicketSchema),
    defaultValues: EMPTY,
  });
  const create = useCreateTicket();

  const onSubmit = form.handleSubmit((values) =>
    create.mutate(values, {
      onSuccess: () => {
        toast.success(t("toast.created"), { description: t("toast.createdDescription") });
        form.reset(EMPTY);
        onOpenChange(false);
      },
      onError: (error) =>
        toast.error(t("toast.creationFailed"), {
          description: supportErrorText(error) ?? undefined,
        }),
    }),
  );

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t("close")}>
        <DialogHeader>
          <DialogTitle>{t("newTicket.title")}</DialogTitle>
          <DialogDescription>{t("newTicket.description")}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
            <FormField
              control={form.control}
              name="subject"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("newTicket.subject")}</FormLabel>
                  <FormControl>
                    <Input
                      {...field}
                      maxLength={SUBJECT_MAX}
                      placeholder={t("newTicket.subjectPlaceholder")}
                      autoComplete="off"
                    />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="content"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("newTicket.details")}</FormLabel>
                  <FormControl>
                    <Textarea
                      {...field}
                      rows={6}
                      maxLength={CONTENT_MAX}
                      placeholder={t("newTicket.detailsPlaceholder")}
                    />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="priority"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("newTicket.priority")}</FormLabel>
                  <Select value={field.value} onValueChange={field.onChange}>
                    <FormControl>
                      <SelectTrigger className="w-full sm:w-48">
                        <SelectValue />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      {USER_PRIORITIES.map((priority) => (
                        <SelectItem key={priority} value={priority}>
                          {t(`priority.${priority}`)}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <FormMessage />
                </FormItem>
              )}
            />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
                {t("cancel")}
              </Button>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? <Spinner className="size-4" /> : null}
                {create.isPending ? t("newTicket.submitting") : t("newTicket.submit")}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
