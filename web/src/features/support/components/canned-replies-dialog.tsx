import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { PencilIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
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
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { useDeleteCannedReply } from "../api/delete-canned-reply";
import { supportQueries, type CannedReply } from "../api/queries";
import {
  CANNED_CONTENT_MAX,
  CANNED_TITLE_MAX,
  cannedReplySchema,
  useSaveCannedReply,
  type CannedReplyInput,
} from "../api/save-canned-reply";
import { supportErrorText } from "../utils/support-error";

const EMPTY: CannedReplyInput = { title: "", content: "" };

type CannedRepliesDialogProps = { open: boolean; onOpenChange: (open: boolean) => void };

/** Admins: the shared library of canned replies — add, edit, delete. */
export function CannedRepliesDialog({ open, onOpenChange }: CannedRepliesDialogProps) {
  const { t } = useTranslation("support");
  const replies = useQuery({ ...supportQueries.cannedReplies(), enabled: open });
  const [editing, setEditing] = useState<CannedReply | null>(null);
  const form = useForm<CannedReplyInput>({
    resolver: zodResolver(cannedReplySchema),
    defaultValues: EMPTY,
  });
  const save = useSaveCannedReply();
  const remove = useDeleteCannedReply();

  const startEdit = (reply: CannedReply | null) => {
    setEditing(reply);
    form.reset(reply ? { title: reply.title, content: reply.content } : EMPTY);
  };

  const onSubmit = form.handleSubmit((values) =>
    save.mutate(
      { ...values, id: editing?.id },
      {
        onSuccess: () => {
          toast.success(editing ? t("canned.updated") : t("canned.saved"));
          startEdit(null);
        },
        onError: (error) =>
          toast.error(t("toast.error"), { description: supportErrorText(error) ?? undefined }),
      },
    ),
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) startEdit(null);
        onOpenChange(next);
      }}
    >
      <DialogContent closeLabel={t("close")} className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t("canned.title")}</DialogTitle>
          <DialogDescription>{t("canned.description")}</DialogDescription>
        </DialogHeader>

        {replies.isPending ? (
          <Spinner label={t("loading")} className="size-5" />
        ) : replies.isError ? (
          <p className="text-sm text-destructive">{t("canned.loadFailed")}</p>
        ) : replies.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("canned.empty")}</p>
        ) : (
          <ul className="flex max-h-60 flex-col divide-y overflow-y-auto rounded-md border">
            {replies.data.map((reply) => (
              <li key={reply.id} className="flex items-start gap-2 p-3">
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-words">{reply.title}</p>
                  <p className="line-clamp-2 text-sm whitespace-pre-wrap text-muted-foreground">
                    {reply.content}
                  </p>
                </div>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={t("canned.edit", { title: reply.title })}
                  onClick={() => startEdit(reply)}
                >
                  <PencilIcon aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={t("canned.delete", { title: reply.title })}
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(reply.id, {
                      onSuccess: () => {
                        if (editing?.id === reply.id) startEdit(null);
                        toast.success(t("canned.deleted"));
                      },
                      onError: (error) =>
                        toast.error(t("toast.error"), {
                          description: supportErrorText(error) ?? undefined,
                        }),
                    })
                  }
                >
                  <Trash2Icon aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}

        <Form {...form}>
          {/* The dialog is portalled, but React passes its events up the component tree: the
              reply form it opens from would take this submit as its own and send the reply. */}
          <form
            onSubmit={(event) => {
              event.stopPropagation();
              void onSubmit(event);
            }}
            noValidate
            className="flex flex-col gap-3 border-t pt-4"
          >
            <p className="text-sm font-semibold">
              {editing ? t("canned.editHeading") : t("canned.addHeading")}
            </p>
            <FormField
              control={form.control}
              name="title"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("canned.titleLabel")}</FormLabel>
                  <FormControl>
                    <Input {...field} maxLength={CANNED_TITLE_MAX} autoComplete="off" />
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
                  <FormLabel>{t("canned.contentLabel")}</FormLabel>
                  <FormControl>
                    <Textarea {...field} rows={4} maxLength={CANNED_CONTENT_MAX} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <div className="flex justify-end gap-2">
              {editing ? (
                <Button type="button" variant="outline" onClick={() => startEdit(null)}>
                  {t("cancel")}
                </Button>
              ) : null}
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? <Spinner className="size-4" /> : null}
                {editing ? t("canned.update") : t("canned.save")}
              </Button>
            </div>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
