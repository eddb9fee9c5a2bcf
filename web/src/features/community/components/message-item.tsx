import { Ban, Flag, MoreHorizontal, Pencil, RotateCw, Trash2, X } from "lucide-react";
import { type KeyboardEvent, lazy, Suspense, useRef, useState } from "react";
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
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Textarea } from "@/components/ui/textarea";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import { cn } from "@/lib/utils";
import type { Database } from "@/lib/database.types";
import { useBlockUser } from "../api/block-user";
import { useDeleteMessage } from "../api/delete-message";
import { useEditMessage } from "../api/edit-message";
import { ChatGif } from "./chat-gif";
import { PlanBadge } from "./plan-badge";
import { SenderAvatar } from "./sender-avatar";
import { dateTimeFormat } from "@/lib/time-zone";

// The report form (its reason select) loads when someone reports, not with the chat.
const ReportDialog = lazy(() =>
  import("./report-dialog").then((m) => ({ default: m.ReportDialog })),
);

export type DisplayMessage = {
  id: string;
  senderId: string;
  senderName: string | null;
  senderAvatarUrl: string | null;
  senderPlan: Database["public"]["Enums"]["plan"] | null;
  content: string;
  createdAt: string;
  edited: boolean;
  attachmentUrl: string | null;
  /** Set for a message not stored yet. */
  pending?: { status: "sending" | "failed"; error: string | null };
};

type MessageItemProps = {
  groupId: string;
  message: DisplayMessage;
  isOwn: boolean;
  /** The viewer is the group's admin: they may delete others' messages. */
  canModerate: boolean;
  onRetry?: () => void;
  onDiscard?: () => void;
};

export function MessageItem({
  groupId,
  message,
  isOwn,
  canModerate,
  onRetry,
  onDiscard,
}: MessageItemProps) {
  const { t, i18n } = useTranslation("community");
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(message.content);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [reporting, setReporting] = useState(false);
  // Keyboard use: choosing Edit puts the focus in the editor (not back on the menu's button), and
  // leaving the editor puts it back on the button.
  const actionsRef = useRef<HTMLButtonElement>(null);
  const editorRef = useRef<HTMLTextAreaElement>(null);
  const focusEditorOnClose = useRef(false);
  // A dialog opened from the menu gives the focus back to the menu's button (the item that
  // opened it is gone); if the message is gone too, the browser's default applies.
  const returnFocus = (event: Event) => {
    if (!actionsRef.current?.isConnected) return;
    event.preventDefault();
    actionsRef.current.focus();
  };
  const stopEditing = () => {
    setEditing(false);
    requestAnimationFrame(() => actionsRef.current?.focus());
  };
  const edit = useEditMessage(groupId);
  const remove = useDeleteMessage(groupId);
  const block = useBlockUser();
  const handleSessionExpired = useSessionExpiredHandler();

  const name = message.senderName || t("chat.unknown");
  const time = dateTimeFormat(i18n.language, {
    dateStyle: "short",
    timeStyle: "short",
  }).format(new Date(message.createdAt));

  const fail = (error: Error) => {
    if (handleSessionExpired(error)) return;
    toast.error(t("chat.error"), { description: error.message });
  };

  const save = () => {
    if (draft.trim() === "") return;
    if (draft === message.content) {
      stopEditing();
      return;
    }
    edit.mutate(
      { id: message.id, content: draft },
      {
        onSuccess: () => {
          stopEditing();
          toast.success(t("chat.updated"));
        },
        onError: fail,
      },
    );
  };

  const onEditKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      save();
    } else if (event.key === "Escape") {
      event.preventDefault();
      setDraft(message.content);
      stopEditing();
    }
  };

  const pending = message.pending;
  const showMenu = !pending && (isOwn || !editing);

  return (
    <li
      className={cn(
        "group flex gap-3 rounded-md px-2 py-2 hover:bg-muted/40",
        pending && "opacity-80",
      )}
      data-testid="chat-message"
      data-message-id={message.id}
      data-sender-id={message.senderId}
    >
      <SenderAvatar name={message.senderName} avatarUrl={message.senderAvatarUrl} />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-sm">
          <span className="font-semibold break-all" data-testid="chat-sender">
            {name}
          </span>
          <PlanBadge plan={message.senderPlan} />
          <time className="text-xs text-muted-foreground" dateTime={message.createdAt}>
            {time}
          </time>
          {message.edited && (
            <span className="text-xs text-muted-foreground" data-testid="chat-edited">
              {t("chat.edited")}
            </span>
          )}
          {pending?.status === "sending" && (
            <span className="text-xs text-muted-foreground">{t("chat.sending")}</span>
          )}
        </div>

        {editing ? (
          <div className="flex flex-col gap-2">
            <Textarea
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={onEditKey}
              ref={editorRef}
              aria-label={t("chat.editLabel")}
              maxLength={2000}
              autoFocus
              rows={2}
            />
            <div className="flex flex-wrap items-center gap-2">
              <Button size="sm" onClick={save} disabled={draft.trim() === "" || edit.isPending}>
                {t("chat.save")}
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  setDraft(message.content);
                  stopEditing();
                }}
              >
                {t("chat.cancel")}
              </Button>
              <span className="text-xs text-muted-foreground">{t("chat.editHint")}</span>
            </div>
          </div>
        ) : (
          <p className="text-sm break-words whitespace-pre-wrap" data-testid="chat-content">
            {message.content}
          </p>
        )}

        {message.attachmentUrl && (
          <ChatGif attachmentUrl={message.attachmentUrl} alt={t("gif.alt", { name })} />
        )}

        {pending?.status === "failed" && (
          <div
            className="flex flex-wrap items-center gap-2 text-sm text-destructive"
            role="alert"
            data-testid="chat-failed"
          >
            <span>
              {t("chat.notSent")}
              {pending.error ? `: ${pending.error}` : ""}
            </span>
            <Button size="sm" variant="outline" onClick={onRetry}>
              <RotateCw aria-hidden="true" />
              {t("chat.retry")}
            </Button>
            <Button size="sm" variant="ghost" onClick={onDiscard}>
              <X aria-hidden="true" />
              {t("chat.discard")}
            </Button>
          </div>
        )}
      </div>

      {showMenu && (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button
              variant="ghost"
              size="icon"
              className="size-8 shrink-0 opacity-70 group-hover:opacity-100 focus-visible:opacity-100"
              ref={actionsRef}
              aria-label={t("chat.actions")}
            >
              <MoreHorizontal aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent
            align="end"
            onCloseAutoFocus={(event) => {
              if (!focusEditorOnClose.current) return;
              focusEditorOnClose.current = false;
              event.preventDefault();
              editorRef.current?.focus();
            }}
          >
            {isOwn ? (
              <>
                <DropdownMenuItem
                  onSelect={() => {
                    setDraft(message.content);
                    setEditing(true);
                    focusEditorOnClose.current = true;
                  }}
                >
                  <Pencil aria-hidden="true" />
                  {t("chat.edit")}
                </DropdownMenuItem>
                <DropdownMenuItem variant="destructive" onSelect={() => setConfirmDelete(true)}>
                  <Trash2 aria-hidden="true" />
                  {t("chat.delete")}
                </DropdownMenuItem>
              </>
            ) : (
              <>
                <DropdownMenuItem
                  onSelect={() =>
                    // The item unmounts as the sender's messages hide: no per-call callbacks.
                    block
                      .mutateAsync({ userId: message.senderId })
                      .then(() => toast.success(t("chat.blocked")), fail)
                  }
                >
                  <Ban aria-hidden="true" />
                  {t("chat.block")}
                </DropdownMenuItem>
                <DropdownMenuItem onSelect={() => setReporting(true)}>
                  <Flag aria-hidden="true" />
                  {t("chat.report")}
                </DropdownMenuItem>
                {canModerate && (
                  <DropdownMenuItem variant="destructive" onSelect={() => setConfirmDelete(true)}>
                    <Trash2 aria-hidden="true" />
                    {t("chat.delete")}
                  </DropdownMenuItem>
                )}
              </>
            )}
          </DropdownMenuContent>
        </DropdownMenu>
      )}

      <AlertDialog open={confirmDelete} onOpenChange={setConfirmDelete}>
        <AlertDialogContent onCloseAutoFocus={returnFocus}>
          <AlertDialogHeader>
            <AlertDialogTitle>{t("chat.deleteTitle")}</AlertDialogTitle>
            <AlertDialogDescription>{t("chat.deleteDescription")}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>{t("chat.cancel")}</AlertDialogCancel>
            <AlertDialogAction
              onClick={() =>
                // The live DELETE may unmount this item before the answer: no per-call callbacks.
                remove
                  .mutateAsync({ id: message.id })
                  .then(() => toast.success(t("chat.deleted")), fail)
              }
            >
              {t("chat.delete")}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>

      {reporting && (
        <Suspense fallback={null}>
          <ReportDialog
            userId={message.senderId}
            messageId={message.id}
            name={name}
            open={reporting}
            onOpenChange={setReporting}
            onCloseAutoFocus={returnFocus}
          />
        </Suspense>
      )}
    </li>
  );
}
