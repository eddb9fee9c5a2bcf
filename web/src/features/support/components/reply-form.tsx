import { zodResolver } from "@hookform/resolvers/zod";
import { LockIcon, SendIcon } from "lucide-react";
import { useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import {
  Form,
  FormControl,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from "@/components/ui/form";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { REPLY_MAX, sendReplySchema, useSendReply, type SendReplyInput } from "../api/send-reply";
import { supportErrorText } from "../utils/support-error";
import { CannedReplyPicker } from "./canned-reply-picker";

type ReplyFormProps = {
  ticketId: string;
  /** A closed ticket takes no replies: the box and the button are disabled. */
  closed: boolean;
  /** Admins insert canned replies from here. */
  isAdmin: boolean;
};

export function ReplyForm({ ticketId, closed, isAdmin }: ReplyFormProps) {
  const { t } = useTranslation("support");
  const form = useForm<SendReplyInput>({
    resolver: zodResolver(sendReplySchema),
    defaultValues: { content: "" },
  });
  const send = useSendReply(ticketId);
  const content = useWatch({ control: form.control, name: "content" });

  const onSubmit = form.handleSubmit((values) =>
    send.mutate(values, {
      onSuccess: () => form.reset({ content: "" }),
      onError: (error) =>
        toast.error(t("toast.sendFailed"), { description: supportErrorText(error) ?? undefined }),
    }),
  );

  const insertCanned = (text: string) => {
    const current = form.getValues("content").trimEnd();
    form.setValue("content", current ? `${current}\n\n${text}` : text, { shouldDirty: true });
    form.setFocus("content");
  };

  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
        <FormField
          control={form.control}
          name="content"
          render={({ field }) => (
            <FormItem>
              <div className="flex items-center justify-between gap-2">
                <FormLabel>{t("reply.label")}</FormLabel>
                {isAdmin && !closed ? <CannedReplyPicker onInsert={insertCanned} /> : null}
              </div>
              <FormControl>
                <Textarea
                  {...field}
                  rows={4}
                  maxLength={REPLY_MAX}
                  disabled={closed}
                  placeholder={closed ? t("reply.closedPlaceholder") : t("reply.placeholder")}
                  onKeyDown={(event) => {
                    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) void onSubmit();
                  }}
                />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="flex flex-wrap items-center justify-between gap-2">
          {closed ? (
            <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
              <LockIcon className="size-4" aria-hidden="true" />
              {t("reply.closed")}
            </p>
          ) : (
            <p className="text-xs text-muted-foreground">{t("reply.hint")}</p>
          )}
          <Button type="submit" disabled={closed || send.isPending || content.trim() === ""}>
            {send.isPending ? <Spinner className="size-4" /> : <SendIcon aria-hidden="true" />}
            {t("reply.send")}
          </Button>
        </div>
      </form>
    </Form>
  );
}
