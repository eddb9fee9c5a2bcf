import { i18n } from "@/i18n/i18n";

/**
 * The database's per-user write limits (migration 20261125600100, decision 0040) refuse a write
 * with HTTP 429, code `PT429`, `details` `retry-after=N` and the limit's kind in `hint`; the
 * message is English for API callers. The SPA words it in the user's language.
 */
export const WRITE_LIMIT_KINDS = [
  "chat_message",
  "group_create",
  "report",
  "ticket_create",
  "ticket_reply",
  "gif_upload",
] as const;

export type WriteLimitKind = (typeof WRITE_LIMIT_KINDS)[number];

function read(error: unknown, key: string): unknown {
  return typeof error === "object" && error !== null
    ? (error as Record<string, unknown>)[key]
    : undefined;
}

/** The refused write's kind and the seconds to wait, or null when the error is not the limit. */
export function writeLimitOf(error: unknown): { kind: WriteLimitKind; seconds: number } | null {
  if (read(error, "code") !== "PT429") return null;
  const match = /^retry-after=(\d+)$/.exec(String(read(error, "details") ?? ""));
  const kind = String(read(error, "hint") ?? "");
  if (!match || !(WRITE_LIMIT_KINDS as readonly string[]).includes(kind)) return null;
  return { kind: kind as WriteLimitKind, seconds: Number(match[1]) };
}

/** "You're sending messages too fast — try again in 8 s" in the current language, else null. */
export function writeLimitMessage(error: unknown): string | null {
  const limit = writeLimitOf(error);
  if (!limit) return null;
  const key = {
    chat_message: "common:tooFast.messages",
    group_create: "common:tooFast.groups",
    report: "common:tooFast.reports",
    ticket_create: "common:tooFast.tickets",
    ticket_reply: "common:tooFast.replies",
    gif_upload: "common:tooFast.gifs",
  } as const satisfies Record<WriteLimitKind, string>;
  return i18n.t(key[limit.kind], { seconds: limit.seconds });
}
