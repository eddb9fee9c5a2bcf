import { isUuid } from "@domain/chat-gifs";
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { toast } from "sonner";
import { LiveIndicator } from "@/components/live-indicator";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/hooks/use-current-user";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import { communityQueries, groupKeys } from "../api/queries";
import { useSendMessage } from "../api/send-message";
import { useChatLive } from "../hooks/use-chat-live";
import {
  type PendingMessage,
  usePendingActions,
  usePendingMessages,
} from "../stores/pending-messages";
import { flattenHistory, isEdited } from "../utils/chat-pages";
import { MembersSheet } from "./members-sheet";
import { MessageComposer } from "./message-composer";
import { type DisplayMessage } from "./message-item";
import { MessageList } from "./message-list";
import { writeLimitMessage } from "@/lib/write-limit";

export const GROUPS_PATH = "/community/groups";

/** /community/chat?groupId=…: a group's live chat (spec section 2, "Group chat"). */
export function ChatPage() {
  const [params] = useSearchParams();
  const groupId = params.get("groupId");
  if (!groupId || !isUuid(groupId)) return <NoGroupSelected />;
  return <GroupChat key={groupId} groupId={groupId.toLowerCase()} />;
}

function NoGroupSelected() {
  const { t } = useTranslation("community");
  return (
    <div className="container mx-auto flex max-w-3xl flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <h1 className="text-xl font-semibold">{t("chat.noGroup")}</h1>
      <Button asChild>
        <Link to={GROUPS_PATH}>{t("chat.goToGroups")}</Link>
      </Button>
    </div>
  );
}

function ChatNotice({ text }: { text: string }) {
  const { t } = useTranslation("community");
  return (
    <div
      className="flex flex-1 flex-col items-center justify-center gap-4 p-8 text-center"
      role="alert"
    >
      <p className="text-muted-foreground">{text}</p>
      <Button asChild variant="outline">
        <Link to={GROUPS_PATH}>{t("chat.goToGroups")}</Link>
      </Button>
    </div>
  );
}

function GroupChat({ groupId }: { groupId: string }) {
  const { t, i18n } = useTranslation("community");
  const queryClient = useQueryClient();
  const { user, profile } = useCurrentUser();
  const meId = user?.id ?? "";
  const meName = profile?.username || (profile?.email ?? "").split("@")[0] || "";

  const groups = useQuery(communityQueries.groups());
  const group = groups.data?.find((g) => g.id === groupId);
  const isGroupAdmin = group?.my_role === "admin";

  const blockedQuery = useQuery(communityQueries.blocked());
  const blocked = useMemo(
    () => new Set((blockedQuery.data ?? []).map((b) => b.blocked_id ?? "")),
    [blockedQuery.data],
  );

  const history = useInfiniteQuery(communityQueries.history(groupId));
  const members = useQuery({ ...communityQueries.members(groupId), enabled: history.isSuccess });
  const live = useChatLive({
    groupId,
    enabled: !history.isError,
    me: { id: meId, name: meName },
    blocked,
  });

  const pending = usePendingMessages(groupId);
  const pendingActions = usePendingActions();
  const send = useSendMessage(groupId);
  const handleSessionExpired = useSessionExpiredHandler();

  const loadFailedShown = useRef(false);
  useEffect(() => {
    if (history.isError && !loadFailedShown.current) {
      loadFailedShown.current = true;
      if (!handleSessionExpired(history.error)) {
        toast.error(t("chat.loadFailed"), { description: history.error.message });
      }
    }
  }, [history.isError, history.error, handleSessionExpired, t]);

  const stored = useMemo(() => flattenHistory(history.data), [history.data]);
  const storedIds = useMemo(() => new Set(stored.map((m) => m.id)), [stored]);

  // A pending message whose stored twin arrived (echo or send answer) is done.
  useEffect(() => {
    for (const p of pending) if (storedIds.has(p.id)) pendingActions.remove(p.id);
  }, [pending, storedIds, pendingActions]);

  // Live messages carry no sender profile: look senders up among the members, and read the
  // members again when someone new speaks.
  const profiles = useMemo(
    () => new Map((members.data ?? []).map((m) => [m.user_id ?? "", m])),
    [members.data],
  );
  const askedFor = useRef(new Set<string>());
  useEffect(() => {
    if (!members.isSuccess || members.isFetching) return;
    const unknown = stored.find(
      (m) =>
        m.sender_name === undefined &&
        !profiles.has(m.sender_id) &&
        !askedFor.current.has(m.sender_id),
    );
    if (unknown) {
      askedFor.current.add(unknown.sender_id);
      void queryClient.invalidateQueries({ queryKey: groupKeys.members(groupId) });
    }
  }, [stored, profiles, members.isSuccess, members.isFetching, queryClient, groupId]);

  const messages: DisplayMessage[] = useMemo(() => {
    const shown: DisplayMessage[] = stored
      .filter((m) => !blocked.has(m.sender_id))
      .map((m) => {
        const p = profiles.get(m.sender_id);
        return {
          id: m.id,
          senderId: m.sender_id,
          senderName: m.sender_name ?? p?.name ?? null,
          senderAvatarUrl: m.sender_avatar_url ?? p?.avatar_url ?? null,
          senderPlan: m.sender_plan ?? p?.plan ?? null,
          content: m.content,
          createdAt: m.created_at,
          edited: isEdited(m),
          attachmentUrl: m.attachment_type === "gif" ? m.attachment_url : null,
        };
      });
    const mine = profiles.get(meId);
    for (const p of pending) {
      if (storedIds.has(p.id)) continue;
      shown.push({
        id: p.id,
        senderId: meId,
        senderName: meName || null,
        senderAvatarUrl: profile?.avatar_url ?? null,
        senderPlan: mine?.plan ?? null,
        content: p.content,
        createdAt: p.createdAt,
        edited: false,
        attachmentUrl: p.attachmentUrl,
        pending: { status: p.status, error: p.error },
      });
    }
    return shown;
  }, [stored, blocked, profiles, pending, storedIds, meId, meName, profile?.avatar_url]);

  const deliver = (message: PendingMessage) => {
    pendingActions.setStatus(message.id, "sending");
    send
      .mutateAsync({
        id: message.id,
        groupId,
        content: message.content,
        attachmentUrl: message.attachmentUrl,
      })
      .then(() => pendingActions.remove(message.id))
      .catch((error: Error) => {
        // Too fast: the text stays in the list as a failed message the user can retry.
        const text = writeLimitMessage(error) ?? error.message;
        pendingActions.setStatus(message.id, "failed", text);
        if (handleSessionExpired(error)) return;
        toast.error(t("chat.sendFailed"), { description: text });
      });
  };

  const onSend = (content: string, attachmentUrl: string | null) => {
    live.stopTyping();
    const message: PendingMessage = {
      id: crypto.randomUUID(),
      groupId,
      content,
      attachmentUrl,
      createdAt: new Date().toISOString(),
      status: "sending",
      error: null,
    };
    pendingActions.add(message);
    deliver(message);
  };

  const onRetry = (id: string) => {
    const message = pending.find((p) => p.id === id);
    if (message) deliver(message);
  };

  const others = live.online.filter((m) => !m.isMe);
  const typing = others.filter((m) => m.typing).map((m) => m.name || t("chat.unknown"));
  const onlineIds = useMemo(() => new Set(live.online.map((m) => m.userId)), [live.online]);
  const notMember = history.isError && /not a member/i.test(history.error.message);

  return (
    <div className="container mx-auto flex w-full max-w-4xl flex-1 flex-col gap-4 px-2 py-4 sm:px-4 sm:py-6">
      <div className="flex items-center gap-2">
        <Button asChild variant="ghost" size="sm">
          <Link to={GROUPS_PATH}>
            <ArrowLeft aria-hidden="true" />
            {t("chat.back")}
          </Link>
        </Button>
      </div>
      <Card className="flex h-[calc(100dvh-11rem)] min-h-[26rem] flex-col gap-0 overflow-hidden py-0">
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 border-b px-4 py-3">
          <div className="flex min-w-0 flex-col gap-0.5">
            <CardTitle className="text-lg">{t("chat.title")}</CardTitle>
            {group && <CardDescription className="truncate">{group.name}</CardDescription>}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {live.status === "live" && (
              <span className="text-xs text-muted-foreground" data-testid="online-count">
                {t("chat.online", { count: live.online.length })}
              </span>
            )}
            <LiveIndicator status={live.status} />
            {history.isSuccess && (
              <MembersSheet
                groupId={groupId}
                meId={meId}
                isGroupAdmin={isGroupAdmin}
                onlineIds={onlineIds}
              />
            )}
          </div>
        </CardHeader>
        <CardContent className="flex min-h-0 flex-1 flex-col p-0">
          {live.status === "denied" && history.isSuccess ? (
            <ChatNotice text={t("chat.removed")} />
          ) : notMember ? (
            <ChatNotice text={t("chat.notMember")} />
          ) : history.isPending ? (
            <div className="flex flex-1 items-center justify-center p-8">
              <Spinner label={t("chat.loading")} />
              <span className="ml-2 text-sm text-muted-foreground">{t("chat.loading")}</span>
            </div>
          ) : history.isError ? (
            <ChatNotice text={t("chat.loadFailed")} />
          ) : (
            <>
              {messages.length === 0 ? (
                <p className="flex flex-1 items-center justify-center p-8 text-center text-muted-foreground">
                  {t("chat.empty")}
                </p>
              ) : (
                <MessageList
                  groupId={groupId}
                  meId={meId}
                  isGroupAdmin={isGroupAdmin}
                  messages={messages}
                  hasOlder={history.hasNextPage}
                  loadingOlder={history.isFetchingNextPage}
                  onLoadOlder={() => void history.fetchNextPage()}
                  onRetry={onRetry}
                  onDiscard={(id) => pendingActions.remove(id)}
                />
              )}
              <p
                className="min-h-5 px-4 text-xs text-muted-foreground"
                aria-live="polite"
                data-testid="typing"
              >
                {typing.length > 0 &&
                  t("chat.typing", {
                    count: typing.length,
                    names: new Intl.ListFormat(i18n.language, { type: "conjunction" }).format(
                      typing,
                    ),
                  })}
              </p>
              <MessageComposer groupId={groupId} onSend={onSend} onTyping={live.notifyTyping} />
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
