import { afterEach, describe, expect, it, vi } from "vitest";
import { csvField, exportRows, toCsv } from "./csv";

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

describe("exportRows", () => {
  afterEach(() => vi.restoreAllMocks());

  /** Runs an export and returns the downloaded file's name, type and text. */
  async function captured(run: () => void) {
    let blob: Blob | undefined;
    vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
      blob = b as Blob;
      return "blob:export";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    let name = "";
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      name = this.download;
    });
    run();
    return { name, type: blob!.type, text: await blob!.text() };
  }

  const rows = [
    { symbol: "PEPE/WETH", pct: "+12,35 %" },
    { symbol: "=HYPERLINK(evil)", pct: "-3,20 %" },
  ];
  const columns = [
    { header: "Symbol", value: (r: (typeof rows)[number]) => r.symbol },
    { header: "% (15 Min.)", value: (r: (typeof rows)[number]) => r.pct },
  ];
  const at = {
    header: "Exportiert am",
    value: "25.11.2026, 21:30:00",
    fileStamp: "2026-11-25T21-30-00",
  };

  it("writes CSV with the header row, the export time and guarded fields", async () => {
    const file = await captured(() => exportRows("csv", "movers", columns, rows, at));
    expect(file.name).toBe("movers-2026-11-25T21-30-00.csv");
    expect(file.type).toBe("text/csv;charset=utf-8");
    expect(file.text.split("\r\n")).toEqual([
      "Symbol,% (15 Min.),Exportiert am",
      `PEPE/WETH,"'+12,35 %","25.11.2026, 21:30:00"`,
      `'=HYPERLINK(evil),"'-3,20 %","25.11.2026, 21:30:00"`,
      "",
    ]);
  });

  it("writes JSON objects keyed by the same headers", async () => {
    const file = await captured(() => exportRows("json", "movers", columns, rows, at));
    expect(file.name).toBe("movers-2026-11-25T21-30-00.json");
    expect(JSON.parse(file.text)).toEqual([
      { Symbol: "PEPE/WETH", "% (15 Min.)": "+12,35 %", "Exportiert am": "25.11.2026, 21:30:00" },
      {
        Symbol: "=HYPERLINK(evil)",
        "% (15 Min.)": "-3,20 %",
        "Exportiert am": "25.11.2026, 21:30:00",
      },
    ]);
  });
});
