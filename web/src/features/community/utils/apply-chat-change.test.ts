import { type BroadcastChange, type ChangeEvent } from "@domain/realtime";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { applyChatChange, type ChatMessage } from "./apply-chat-change";

function message(id: string, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    group_id: "group-1",
    sender_id: "user-1",
    content: `message ${id}`,
    attachment_type: "none",
    attachment_url: null,
    created_at: "2026-11-21T12:00:00Z",
    updated_at: "2026-11-21T12:00:00Z",
    ...overrides,
  };
}

function change<Row>(
  operation: ChangeEvent,
  record: Row | null,
  oldRecord: Row | null = null,
  table = "messages",
): BroadcastChange<Row> {
  return { schema: "public", table, operation, record, old_record: oldRecord };
}

/** A payload from the network that does not have the promised shape. */
function malformed<T>(value: unknown): T {
  return value as T;
}

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  warn.mockRestore();
});

describe("applyChatChange", () => {
  const list = [message("a"), message("b")];

  it("appends an INSERT", () => {
    const next = applyChatChange(list, change("INSERT", message("c")));
    expect(next.map((m) => m.id)).toEqual(["a", "b", "c"]);
    expect(list).toHaveLength(2);
  });

  it("appends an INSERT to an empty or missing list", () => {
    expect(applyChatChange(undefined, change("INSERT", message("a")))).toEqual([message("a")]);
    expect(applyChatChange([], change("INSERT", message("a")))).toEqual([message("a")]);
  });

  it("ignores an INSERT whose id is already there", () => {
    expect(applyChatChange(list, change("INSERT", message("a", { content: "again" })))).toBe(list);
  });

  it("merges an UPDATE into the message with the same id", () => {
    const edited = message("b", { content: "edited", updated_at: "2026-11-21T12:05:00Z" });
    const next = applyChatChange(list, change("UPDATE", edited, message("b")));
    expect(next).toEqual([message("a"), edited]);
    expect(next[0]).toBe(list[0]);
  });

  it("merges only the fields an UPDATE carries", () => {
    const partial = malformed<ChatMessage>({ id: "a", content: "only this" });
    expect(applyChatChange(list, change("UPDATE", partial))[0]).toEqual(
      message("a", { content: "only this" }),
    );
  });

  it("ignores an UPDATE of a message that is not in the list", () => {
    expect(applyChatChange(list, change("UPDATE", message("z")))).toBe(list);
  });

  it("removes the message of a DELETE by old_record.id", () => {
    expect(applyChatChange(list, change("DELETE", null, message("a")))).toEqual([message("b")]);
  });

  it("returns the same list when a DELETE matches nothing", () => {
    expect(applyChatChange(list, change("DELETE", null, message("z")))).toBe(list);
  });

  it("ignores changes of other tables without logging", () => {
    expect(applyChatChange(list, change("INSERT", message("c"), null, "groups"))).toBe(list);
    expect(warn).not.toHaveBeenCalled();
  });

  it.each<[string, BroadcastChange<ChatMessage>]>([
    ["an INSERT without record", change<ChatMessage>("INSERT", null)],
    ["an INSERT without record.id", change("INSERT", malformed({ content: "x" }))],
    ["an INSERT with an empty id", change("INSERT", message(""))],
    ["an UPDATE without record", change("UPDATE", null, message("a"))],
    ["a DELETE without old_record", change("DELETE", message("a"))],
    ["a DELETE with a numeric id", change<ChatMessage>("DELETE", null, malformed({ id: 7 }))],
    ["something that is not a change", malformed({ hello: "world" })],
    ["null", malformed(null)],
  ])("ignores and logs %s", (_label, payload) => {
    expect(applyChatChange(list, payload)).toBe(list);
    expect(warn).toHaveBeenCalledOnce();
  });

  it("gives an empty list for malformed payloads when nothing is cached", () => {
    expect(applyChatChange(undefined, change<ChatMessage>("DELETE", null, null))).toEqual([]);
  });
});
