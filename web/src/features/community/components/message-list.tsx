import { useLayoutEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { type DisplayMessage, MessageItem } from "./message-item";

type MessageListProps = {
  groupId: string;
  meId: string;
  isGroupAdmin: boolean;
  messages: DisplayMessage[];
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  onRetry: (id: string) => void;
  onDiscard: (id: string) => void;
};

/** Distance from an edge (px) that counts as being at it. */
const EDGE = 80;

/**
 * The messages, oldest at the top. Scrolling up to the top loads the previous page and keeps the
 * view where it was; while the reader is at the bottom, new messages keep it there.
 */
export function MessageList({
  groupId,
  meId,
  isGroupAdmin,
  messages,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  onRetry,
  onDiscard,
}: MessageListProps) {
  const { t } = useTranslation("community");
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const keepFromBottom = useRef<number | null>(null);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (keepFromBottom.current !== null) {
      el.scrollTop = el.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    } else if (atBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [messages]);

  const loadOlder = () => {
    const el = scroller.current;
    if (!el || !hasOlder || loadingOlder) return;
    keepFromBottom.current = el.scrollHeight - el.scrollTop;
    onLoadOlder();
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < EDGE;
    if (el.scrollTop < EDGE) loadOlder();
  };

  return (
    <div
      ref={scroller}
      onScroll={onScroll}
      className="min-h-0 flex-1 overflow-y-auto px-2 py-3 sm:px-4"
      data-testid="chat-scroller"
    >
      <div className="flex justify-center pb-2">
        {loadingOlder ? (
          <Spinner label={t("chat.loadingOlder")} />
        ) : hasOlder ? (
          <Button variant="ghost" size="sm" onClick={loadOlder}>
            {t("chat.loadingOlder")}
          </Button>
        ) : (
          <p className="text-xs text-muted-foreground">{t("chat.beginning")}</p>
        )}
      </div>
      <ol className="flex flex-col gap-0.5" aria-live="polite" aria-relevant="additions">
        {messages.map((message) => (
          <MessageItem
            key={message.id}
            groupId={groupId}
            message={message}
            isOwn={message.senderId === meId}
            canModerate={isGroupAdmin}
            onRetry={() => onRetry(message.id)}
            onDiscard={() => onDiscard(message.id)}
          />
        ))}
      </ol>
    </div>
  );
}
