import type { InfiniteData } from "@tanstack/react-query";
import type { Database } from "@/lib/database.types";

type Plan = Database["public"]["Enums"]["plan"];
type AttachmentType = Database["public"]["Enums"]["attachment_type"];

/** Messages per history page (the latest 50 on open, 50 more per scroll back). */
export const CHAT_PAGE_SIZE = 50;

/** A message as the chat holds it: the table's row plus its sender's public face when known. */
export type ChatMessageRow = {
  id: string;
  group_id: string;
  sender_id: string;
  content: string;
  attachment_type: AttachmentType;
  attachment_url: string | null;
  created_at: string;
  updated_at: string;
  sender_name?: string | null;
  sender_avatar_url?: string | null;
  sender_plan?: Plan | null;
};

export type ChatCursor = { createdAt: string; id: string };

/** Newest page first; each page newest first. */
export type ChatHistory = InfiniteData<ChatMessageRow[], unknown>;

export function cursorOf(row: Pick<ChatMessageRow, "created_at" | "id">): ChatCursor {
  return { createdAt: row.created_at, id: row.id };
}

/**
 * A timestamp as a number that keeps microseconds: Postgres sends 6 fraction digits, which
 * `Date.parse` would cut to milliseconds, and the REST and Realtime spellings differ.
 */
export function timeKey(timestamp: string): number {
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) return 0;
  const fraction = /\.(\d+)/.exec(timestamp)?.[1] ?? "";
  const micros = Number(fraction.padEnd(6, "0").slice(3, 6));
  return ms * 1000 + micros;
}

/** Order of (created_at, id), ascending; equal timestamps are ordered by id, like the database. */
export function compareMessages(
  a: Pick<ChatMessageRow, "created_at" | "id">,
  b: Pick<ChatMessageRow, "created_at" | "id">,
): number {
  const byTime = timeKey(a.created_at) - timeKey(b.created_at);
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Inserts or replaces a message; a new one goes into the newest page, in order. */
export function upsertMessage(
  data: ChatHistory | undefined,
  row: ChatMessageRow,
): ChatHistory | undefined {
  if (!data) return data;
  if (data.pages.some((page) => page.some((message) => message.id === row.id))) {
    return patchMessage(data, row);
  }
  const [first = [], ...rest] = data.pages;
  const newest = [...first, row].sort((a, b) => compareMessages(b, a));
  return { ...data, pages: [newest, ...rest] };
}

/** Merges an edit into the message with its id; unknown ids (not loaded, blocked) change nothing. */
export function patchMessage(
  data: ChatHistory | undefined,
  row: Partial<ChatMessageRow> & { id: string },
): ChatHistory | undefined {
  if (!data) return data;
  let found = false;
  const pages = data.pages.map((page) => {
    if (!page.some((message) => message.id === row.id)) return page;
    found = true;
    return page.map((message) => (message.id === row.id ? { ...message, ...row } : message));
  });
  return found ? { ...data, pages } : data;
}

export function removeMessage(data: ChatHistory | undefined, id: string): ChatHistory | undefined {
  if (!data) return data;
  let found = false;
  const pages = data.pages.map((page) => {
    if (!page.some((message) => message.id === id)) return page;
    found = true;
    return page.filter((message) => message.id !== id);
  });
  return found ? { ...data, pages } : data;
}

/** All held messages, oldest first, each id once. */
export function flattenHistory(data: ChatHistory | undefined): ChatMessageRow[] {
  if (!data) return [];
  const byId = new Map<string, ChatMessageRow>();
  for (const page of data.pages) for (const row of page) byId.set(row.id, row);
  return [...byId.values()].sort(compareMessages);
}

/** The newest message held, from which a reconnect catches up. */
export function newestCursor(data: ChatHistory | undefined): ChatCursor | null {
  const all = flattenHistory(data);
  const last = all[all.length - 1];
  return last ? cursorOf(last) : null;
}

/** A row from the `group_messages` RPC (typed with nullable columns) as a ChatMessageRow. */
export function toChatMessageRow(raw: {
  [K in keyof ChatMessageRow]-?: ChatMessageRow[K] | null;
}): ChatMessageRow {
  return {
    id: raw.id ?? "",
    group_id: raw.group_id ?? "",
    sender_id: raw.sender_id ?? "",
    content: raw.content ?? "",
    attachment_type: raw.attachment_type ?? "none",
    attachment_url: raw.attachment_url,
    created_at: raw.created_at ?? "",
    updated_at: raw.updated_at ?? "",
    sender_name: raw.sender_name,
    sender_avatar_url: raw.sender_avatar_url,
    sender_plan: raw.sender_plan,
  };
}

/** "(edited)" shows when updated_at differs from created_at. */
export function isEdited(row: Pick<ChatMessageRow, "created_at" | "updated_at">): boolean {
  return timeKey(row.updated_at) !== timeKey(row.created_at);
}
