import { useQuery } from "@tanstack/react-query";
import { MessageSquareTextIcon, SettingsIcon } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { supportQueries } from "../api/queries";
import { CannedRepliesDialog } from "./canned-replies-dialog";

/** Admins: a menu of the saved answers; choosing one inserts its text into the reply box. */
export function CannedReplyPicker({ onInsert }: { onInsert: (text: string) => void }) {
  const { t } = useTranslation("support");
  const replies = useQuery(supportQueries.cannedReplies());
  const [managing, setManaging] = useState(false);

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button type="button" variant="outline" size="sm">
            <MessageSquareTextIcon aria-hidden="true" />
            {t("canned.menu")}
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-72">
          <DropdownMenuLabel>{t("canned.insert")}</DropdownMenuLabel>
          {replies.isPending ? (
            <DropdownMenuItem disabled>{t("loading")}</DropdownMenuItem>
          ) : replies.isError ? (
            <DropdownMenuItem disabled>{t("canned.loadFailed")}</DropdownMenuItem>
          ) : replies.data.length === 0 ? (
            <DropdownMenuItem disabled>{t("canned.empty")}</DropdownMenuItem>
          ) : (
            replies.data.map((reply) => (
              <DropdownMenuItem
                key={reply.id}
                onSelect={() => onInsert(reply.content)}
                className="flex-col items-start gap-0.5"
              >
                <span className="font-medium">{reply.title}</span>
                <span className="line-clamp-1 text-xs text-muted-foreground">{reply.content}</span>
              </DropdownMenuItem>
            ))
          )}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setManaging(true)}>
            <SettingsIcon aria-hidden="true" />
            {t("canned.manage")}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <CannedRepliesDialog open={managing} onOpenChange={setManaging} />
    </>
  );
}
