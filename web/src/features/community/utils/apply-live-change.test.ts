import { afterEach, describe, expect, it, vi } from "vitest";
import { applyLiveChange } from "./apply-live-change";
import { type ChatHistory, type ChatMessageRow, flattenHistory } from "./chat-pages";

const row = (
  id: string,
  sender_id = "alice",
  created_at = "2026-01-01T10:00:00Z",
): ChatMessageRow => ({
  id,
  group_id: "g",
  sender_id,
  content: `text ${id}`,
  attachment_type: "none",
  attachment_url: null,
  created_at,
  updated_at: created_at,
  sender_name: "alice",
});
const change = (operation: string, record: unknown, old_record: unknown = null) => ({
  schema: "public",
  table: "messages",
  operation,
  record,
  old_record,
});
const start = (): ChatHistory => ({ pages: [[row("m1")]], pageParams: [null] });

afterEach(() => vi.restoreAllMocks());

describe("applyLiveChange", () => {
  it("appends a new message once, even when it arrives twice", () => {
    const next = applyLiveChange(
      start(),
      change("INSERT", row("m2", "bob", "2026-01-01T10:00:01Z")),
    );
    const twice = applyLiveChange(next, change("INSERT", row("m2", "bob", "2026-01-01T10:00:01Z")));
    expect(flattenHistory(twice).map((m) => m.id)).toEqual(["m1", "m2"]);
  });

  it("keeps a known sender's name when the edit arrives without it", () => {
    const edited = { ...row("m1"), content: "new", updated_at: "2026-01-01T11:00:00Z" };
    delete edited.sender_name;
    const next = applyLiveChange(start(), change("UPDATE", edited, row("m1")));
    expect(flattenHistory(next)[0]).toMatchObject({ content: "new", sender_name: "alice" });
  });

  it("removes a deleted message by old_record.id", () => {
    const next = applyLiveChange(start(), change("DELETE", null, { id: "m1" }));
    expect(flattenHistory(next)).toEqual([]);
  });

  it("skips new messages of blocked senders", () => {
    const history = start();
    expect(
      applyLiveChange(history, change("INSERT", row("m2", "mallory")), new Set(["mallory"])),
    ).toBe(history);
  });

  it("logs and ignores what is not a message change", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const history = start();
    expect(applyLiveChange(history, { hello: 1 })).toBe(history);
    expect(applyLiveChange(history, change("INSERT", { id: 3 }))).toBe(history);
    expect(applyLiveChange(history, change("DELETE", null, {}))).toBe(history);
    expect(applyLiveChange(history, { ...change("INSERT", row("x")), table: "tickets" })).toBe(
      history,
    );
    expect(warn).toHaveBeenCalledTimes(3);
  });
});
