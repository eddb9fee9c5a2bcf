import { strictEqual as assertEquals } from "node:assert/strict";
import { Backoff, retryAfterMs, toNumber } from "./http.ts";

const NOW = new Date("2026-03-02T12:00:00.000Z");

Deno.test("Retry-After is read as seconds or as an HTTP date", () => {
  assertEquals(retryAfterMs("120", NOW), 120_000);
  assertEquals(retryAfterMs(" 1.5 ", NOW), 1_500);
  assertEquals(retryAfterMs("Mon, 02 Mar 2026 12:02:00 GMT", NOW), 120_000);
  assertEquals(retryAfterMs("Mon, 02 Mar 2026 11:00:00 GMT", NOW), 0);
  assertEquals(retryAfterMs(null, NOW), null);
  assertEquals(retryAfterMs("soon", NOW), null);
  assertEquals(retryAfterMs("-5", NOW), null);
});

Deno.test("a backoff never shortens an earlier, longer pause", () => {
  const b = new Backoff();
  assertEquals(b.activeAt(NOW), null);
  assertEquals(b.pause(NOW, "300"), "2026-03-02T12:05:00.000Z");
  assertEquals(b.pause(NOW, "10"), "2026-03-02T12:05:00.000Z");
  assertEquals(b.activeAt(new Date("2026-03-02T12:04:59.999Z")), "2026-03-02T12:05:00.000Z");
  assertEquals(b.activeAt(new Date("2026-03-02T12:05:00.000Z")), null);
});

Deno.test("numbers come from JSON numbers or numeric strings only", () => {
  assertEquals(toNumber("0.00001084"), 0.00001084);
  assertEquals(toNumber(12), 12);
  assertEquals(toNumber(""), null);
  assertEquals(toNumber("  "), null);
  assertEquals(toNumber("abc"), null);
  assertEquals(toNumber(null), null);
  assertEquals(toNumber(Number.NaN), null);
  assertEquals(toNumber("Infinity"), null);
});
