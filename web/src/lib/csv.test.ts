import { describe, expect, it } from "vitest";
import { csvField, toCsv } from "./csv";

describe("csv", () => {
  it("quotes fields with commas, quotes and line breaks", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(null)).toBe("");
  });

  it("makes spreadsheet formulas inert", () => {
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("-> basic")).toBe("'-> basic");
  });

  it("writes a header and one CRLF line per row", () => {
    const csv = toCsv(
      [
        { header: "Action", value: (row: { a: string; n: number }) => row.a },
        { header: "N", value: (row: { a: string; n: number }) => row.n },
      ],
      [
        { a: "ban_user", n: 1 },
        { a: "set_plan", n: 2 },
      ],
    );
    expect(csv).toBe("Action,N\r\nban_user,1\r\nset_plan,2\r\n");
  });
});
