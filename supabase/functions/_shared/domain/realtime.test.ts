import { describe, expect, it } from "vitest";
import { type BroadcastChange, type ChangeEvent, isBroadcastChange } from "./realtime.ts";

type Row = { id: string; content: string };

const row: Row = { id: "a", content: "message a" };

function change(
  operation: ChangeEvent,
  record: Row | null,
  oldRecord: Row | null = null,
): BroadcastChange<Row> {
  return { schema: "public", table: "messages", operation, record, old_record: oldRecord };
}

describe("isBroadcastChange", () => {
  it("accepts what broadcast_changes sends", () => {
    expect(isBroadcastChange(change("INSERT", row))).toBe(true);
    expect(isBroadcastChange(change("UPDATE", row, row))).toBe(true);
    expect(isBroadcastChange(change("DELETE", null, row))).toBe(true);
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a string", "INSERT"],
    ["an array", []],
    ["no table", { operation: "INSERT", record: {} }],
    ["a numeric table", { table: 7, operation: "INSERT", record: null }],
    ["no operation", { table: "messages", record: null }],
    ["an unknown operation", { table: "messages", operation: "TRUNCATE", record: null }],
    ["a lowercase operation", { table: "messages", operation: "insert", record: null }],
  ])("rejects %s", (_label, payload) => {
    expect(isBroadcastChange(payload)).toBe(false);
  });
});
