import { describe, expect, it } from "vitest";
import { badRequestTarget } from "./http-guard.ts";

describe("badRequestTarget", () => {
  it("accepts ordinary targets, encoded characters and PostgREST filters", () => {
    for (const t of [
      "/",
      "/assets/index-abc.js",
      "/rest/v1/instruments?symbol=like.*%25*&select=*",
      "/storage/v1/object/public/avatars/u/a%20b.png",
      "/api/gainers/history/BTC%2FUSDT",
      "/rest/v1/x?q=50%",
    ]) {
      expect(badRequestTarget(t), t).toBeNull();
    }
  });

  it("refuses malformed escapes in the path, NUL anywhere and unparseable URLs", () => {
    expect(badRequestTarget("/%")).toMatch(/percent-escape/);
    expect(badRequestTarget("/%E0%A4%A")).toMatch(/percent-escape/);
    expect(badRequestTarget("/a%00b")).toMatch(/NUL/);
    expect(badRequestTarget("/rest/v1/x?symbol=eq.%00")).toMatch(/NUL/);
    expect(badRequestTarget("/a\0b")).toMatch(/NUL/);
    expect(badRequestTarget("http://[bad/")).toMatch(/not valid/);
  });
});
