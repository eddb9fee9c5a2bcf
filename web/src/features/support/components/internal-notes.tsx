import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { EyeOffIcon, Trash2Icon } from "lucide-react";
import { useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
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
import { addNoteSchema, NOTE_MAX, useAddNote, type AddNoteInput } from "../api/add-note";
import { useDeleteNote } from "../api/delete-note";
import { supportQueries } from "../api/queries";
import { useTicketNotesStream } from "../hooks/use-ticket-notes-stream";
import { supportErrorText } from "../utils/support-error";
import { formatDateTime } from "../utils/ticket-values";

/**
 * Admins only: notes on a ticket that its owner never sees (their own table, their own admin-only
 * topic; decision 0022). Notes arrive live from other admins.
 */
export function InternalNotes({ ticketId, viewerId }: { ticketId: string; viewerId: string }) {
  const { t, i18n } = useTranslation("support");
  const notes = useQuery(supportQueries.notes(ticketId));
  useTicketNotesStream(ticketId);
  const add = useAddNote(ticketId);
  const remove = useDeleteNote(ticketId);
  const form = useForm<AddNoteInput>({
    resolver: zodResolver(addNoteSchema),
    defaultValues: { content: "" },
  });
  const content = useWatch({ control: form.control, name: "content" });

  const onSubmit = form.handleSubmit((values) =>
    add.mutate(values, {
      onSuccess: () => form.reset({ content: "" }),
      onError: (error) =>
        toast.error(t("toast.error"), { description: supportErrorText(error) ?? undefined }),
    }),
  );

  return (
    <Card
      className="border-dashed border-amber-500/60 bg-amber-50/40 dark:bg-amber-950/20"
      data-testid="internal-notes"
    >
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <EyeOffIcon className="size-4" aria-hidden="true" />
          {t("notes.title")}
        </CardTitle>
        <CardDescription>{t("notes.description")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {notes.isPending ? (
          <Spinner label={t("loading")} className="size-5" />
        ) : notes.isError ? (
          <p className="text-sm text-destructive">{t("notes.loadFailed")}</p>
        ) : notes.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("notes.empty")}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {notes.data.map((note) => (
              <li
                key={note.id}
                className="rounded-md border bg-background p-3"
                data-testid="internal-note"
              >
                <div className="flex items-start justify-between gap-2">
                  <div className="min-w-0 text-xs text-muted-foreground">
                    <span className="font-medium break-all text-foreground">
                      {note.author_id === viewerId
                        ? t("thread.you")
                        : note.author?.username || note.author?.email || t("notes.formerAdmin")}
                    </span>{" "}
                    ·{" "}
                    <time dateTime={note.created_at}>
                      {formatDateTime(note.created_at, i18n.language)}
                    </time>
                  </div>
                  {note.author_id === viewerId ? (
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="size-7"
                      aria-label={t("notes.delete")}
                      disabled={remove.isPending}
                      onClick={() =>
                        remove.mutate(note.id, {
                          onError: (error) =>
                            toast.error(t("toast.error"), {
                              description: supportErrorText(error) ?? undefined,
                            }),
                        })
                      }
                    >
                      <Trash2Icon aria-hidden="true" />
                    </Button>
                  ) : null}
                </div>
                <p className="mt-1 text-sm break-words whitespace-pre-wrap">{note.content}</p>
              </li>
            ))}
          </ul>
        )}
        <Form {...form}>
          <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2">
            <FormField
              control={form.control}
              name="content"
              render={({ field }) => (
                <FormItem>
                  <FormLabel className="sr-only">{t("notes.label")}</FormLabel>
                  <FormControl>
                    <Textarea
                      {...field}
                      rows={3}
                      maxLength={NOTE_MAX}
                      placeholder={t("notes.placeholder")}
                    />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <Button
              type="submit"
              variant="secondary"
              className="self-end"
              disabled={add.isPending || content.trim() === ""}
            >
              {add.isPending ? <Spinner className="size-4" /> : null}
              {t("notes.add")}
            </Button>
          </form>
        </Form>
      </CardContent>
    </Card>
  );
}
