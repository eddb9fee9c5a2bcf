import { describe, expect, it } from "vitest";
import {
  type ChatHistory,
  type ChatMessageRow,
  compareMessages,
  flattenHistory,
  isEdited,
  newestCursor,
  patchMessage,
  removeMessage,
  timeKey,
  upsertMessage,
} from "./chat-pages";

const row = (
  id: string,
  created_at: string,
  extra: Partial<ChatMessageRow> = {},
): ChatMessageRow => ({
  id,
  group_id: "g",
  sender_id: "s",
  content: id,
  attachment_type: "none",
  attachment_url: null,
  created_at,
  updated_at: created_at,
  ...extra,
});

const history = (...pages: ChatMessageRow[][]): ChatHistory => ({
  pages,
  pageParams: pages.map((_, i) => (i === 0 ? null : { createdAt: "", id: "" })),
});

describe("timeKey and compareMessages", () => {
  it("keeps microseconds and reads REST and Realtime spellings alike", () => {
    expect(timeKey("2026-01-01T10:00:00.123456+00:00")).toBeGreaterThan(
      timeKey("2026-01-01T10:00:00.123455+00:00"),
    );
    expect(timeKey("2026-01-01T10:00:00+00:00")).toBe(timeKey("2026-01-01 10:00:00.000000+00"));
  });

  it("orders equal timestamps by id, like the database", () => {
    const a = row("a", "2026-01-01T10:00:00Z");
    const b = row("b", "2026-01-01T10:00:00Z");
    expect([b, a].sort(compareMessages).map((m) => m.id)).toEqual(["a", "b"]);
  });
});

describe("history pages", () => {
  const older = [row("m2", "2026-01-01T10:00:02Z"), row("m1", "2026-01-01T10:00:01Z")];
  const newest = [row("m4", "2026-01-01T10:00:04Z"), row("m3", "2026-01-01T10:00:03Z")];

  it("flattens pages oldest first without duplicates", () => {
    const data = history(newest, [...older, row("m3", "2026-01-01T10:00:03Z")]);
    expect(flattenHistory(data).map((m) => m.content)).toEqual(["m1", "m2", "m3", "m4"]);
    expect(newestCursor(data)).toEqual({ createdAt: "2026-01-01T10:00:04Z", id: "m4" });
    expect(newestCursor(history())).toBeNull();
  });

  it("adds a new message to the newest page in order, and replaces an existing one", () => {
    const data = history(newest, older);
    const added = upsertMessage(data, row("m5", "2026-01-01T10:00:05Z"))!;
    expect(added.pages[0]!.map((m) => m.id)).toEqual(["m5", "m4", "m3"]);
    expect(added.pages[1]).toBe(data.pages[1]);
    const again = upsertMessage(added, row("m5", "2026-01-01T10:00:05Z", { content: "x" }))!;
    expect(flattenHistory(again).filter((m) => m.id === "m5")).toHaveLength(1);
    expect(flattenHistory(again).at(-1)!.content).toBe("x");
    expect(upsertMessage(undefined, row("m9", "2026-01-01T10:00:09Z"))).toBeUndefined();
  });

  it("patches and removes by id in any page; unknown ids change nothing", () => {
    const data = history(newest, older);
    const patched = patchMessage(data, {
      id: "m1",
      content: "edited",
      updated_at: "2026-01-02T00:00:00Z",
    })!;
    expect(flattenHistory(patched)[0]).toMatchObject({
      id: "m1",
      content: "edited",
      sender_id: "s",
    });
    expect(isEdited(flattenHistory(patched)[0]!)).toBe(true);
    expect(isEdited(flattenHistory(data)[0]!)).toBe(false);
    expect(patchMessage(data, { id: "nope", content: "x" })).toBe(data);
    const removed = removeMessage(data, "m2")!;
    expect(flattenHistory(removed).map((m) => m.id)).toEqual(["m1", "m3", "m4"]);
    expect(removeMessage(data, "nope")).toBe(data);
  });
});
