import { describe, expect, it } from "vitest";
import { parseNumeric, parseTimestamp, postgresJsTypes } from "./pg-types.ts";

describe("PostgREST-compatible value parsing", () => {
  it("turns numeric text into numbers, keeping NaN and infinities as text", () => {
    expect(parseNumeric("10.0")).toBe(10);
    expect(parseNumeric("-6.20")).toBe(-6.2);
    expect(parseNumeric("0.0000142")).toBe(0.0000142);
    expect(parseNumeric("NaN")).toBe("NaN");
    expect(parseNumeric("Infinity")).toBe("Infinity");
  });

  it("renders timestamps as ISO 8601 like to_json", () => {
    expect(parseTimestamp("2026-11-21 06:02:23.693+00")).toBe("2026-11-21T06:02:23.693+00:00");
    expect(parseTimestamp("2026-11-21 06:02:23+05:30")).toBe("2026-11-21T06:02:23+05:30");
    expect(parseTimestamp("2026-11-21 06:02:23.5")).toBe("2026-11-21T06:02:23.5");
    expect(parseTimestamp("infinity")).toBe("infinity");
  });
});

describe("json parameters on Postgres", () => {
  it("sends JSON text once, not as a JSON string of JSON (lite already stringifies)", () => {
    expect(postgresJsTypes.jsonb.serialize('[{"a":1}]')).toBe('[{"a":1}]');
    expect(postgresJsTypes.jsonb.serialize([{ a: 1 }])).toBe('[{"a":1}]');
    expect(postgresJsTypes.json.serialize({ b: true })).toBe('{"b":true}');
  });
});
