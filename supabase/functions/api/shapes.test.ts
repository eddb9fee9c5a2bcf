import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import { HttpError } from "../_shared/http.ts";
import { httpErrorFromDb, windowNotAllowed } from "./errors.ts";
import { feedRow } from "./fake-market-db.ts";
import { toGainer, toGainers, toHistoryPoints, toIso, toNumber, toSignal } from "./shapes.ts";
import { formatSse, SseStream } from "./sse.ts";

// ---------------------------------------------------------------------------------------------
// camelCase shapes
// ---------------------------------------------------------------------------------------------

Deno.test("toGainer camelCases a feed row, reads numeric text and names the window's percent", () => {
  const cases = [[0, "pct10sec"], [5, "pct5min"], [10, "pct10min"], [25, "pct25min"]] as const;
  for (const [w, key] of cases) {
    const g = toGainer(feedRow({ window_used: w, pct: "-3.25" }))!;
    assertEquals(g.pct, -3.25);
    assertEquals(g.windowUsed, w);
    assertEquals((g as Record<string, unknown>)[key], -3.25);
  }
  const dex = toGainer(
    feedRow({
      exchange_type: "dex",
      network: "base",
      pool_url: "https://x.test/pool",
      price_3hour_ago: null,
      volume_24h: "NaN",
    }),
  )!;
  assertEquals(dex.exchangeType, "dex");
  assertEquals(dex.network, "base");
  assertEquals(dex.poolUrl, "https://x.test/pool");
  assertEquals(dex.price3hourAgo, null);
  assertEquals(dex.volume24h, null);
});

Deno.test("toGainers drops rows without instrument, symbol, price, percent or time", () => {
  const rows = [
    feedRow(),
    feedRow({ instrument_id: null }),
    feedRow({ symbol: "" }),
    feedRow({ price: "abc" }),
    feedRow({ pct: null }),
    feedRow({ ts: "yesterday" }),
  ];
  assertEquals(toGainers(rows).length, 1);
  // An id falls back to the instrument id; an unknown window has no window field.
  const g = toGainer(feedRow({ id: null, window_used: 7 }))!;
  assertEquals(g.id, 7);
  assertEquals(Object.keys(g).filter((k) => /^pct\d+(sec|min)$/.test(k)).length, 0);
});

Deno.test("history points keep ts and positive prices only", () => {
  deepStrictEqual(
    toHistoryPoints([
      { ts: "2026-11-21T10:00:00+00:00", price: "1.5" },
      { ts: "2026-11-21T10:00:10+00:00", price: 0 },
      { ts: "bad", price: 2 },
    ]),
    [{ ts: "2026-11-21T10:00:00.000Z", price: 1.5 }],
  );
});

Deno.test("toSignal defaults odd fields and drops rows without id, symbol or time", () => {
  const s = toSignal({
    id: "5",
    symbol: "A",
    computed_at: "2026-11-21T10:00:00Z",
    indicator_values: [1],
  })!;
  assertEquals(s.id, 5);
  deepStrictEqual(s.indicatorValues, {});
  assertEquals(s.exchangeType, "dex");
  assertEquals(toSignal({ symbol: "A", computed_at: "2026-11-21T10:00:00Z" }), null);
});

Deno.test("toNumber and toIso", () => {
  assertEquals(toNumber("1e3"), 1000);
  assertEquals(toNumber(""), null);
  assertEquals(toNumber(Infinity), null);
  assertEquals(toNumber(null), null);
  assertEquals(toIso("2026-11-21 10:00:00+02"), "2026-11-21T08:00:00.000Z");
  assertEquals(toIso(12), null);
});

// ---------------------------------------------------------------------------------------------
// Error mapping
// ---------------------------------------------------------------------------------------------

Deno.test("database errors map to HTTP errors", () => {
  const map = (code: string, message = "", status?: number) => {
    const e = httpErrorFromDb({ code, message }, { status, plan: "pro", windowMinutes: 5 });
    return e ? [e.status, e.code] : null;
  };
  deepStrictEqual(map("PT403", "Active subscription required"), [403, "subscription_required"]);
  deepStrictEqual(map("PT403", "The pro plan does not offer a 5 minute window"), [
    403,
    "window_not_allowed",
  ]);
  deepStrictEqual(map("42501"), [403, "subscription_required"]);
  deepStrictEqual(map("PGRST301"), [401, "unauthorized"]);
  deepStrictEqual(map("PGRST303", "JWT expired"), [401, "unauthorized"]);
  deepStrictEqual(map("", "", 401), [401, "unauthorized"]);
  deepStrictEqual(map("22P02"), [400, "invalid_request"]);
  deepStrictEqual(map("", "", 403), [403, "subscription_required"]);
  assertEquals(map("57014", "canceling statement due to statement timeout", 500), null);
  // Without the plan, the database's own words.
  const bare = httpErrorFromDb({
    code: "PT403",
    message: "The x plan does not offer a 5 minute window",
  });
  assertEquals(
    bare instanceof HttpError && bare.message,
    "The x plan does not offer a 5 minute window",
  );
});

Deno.test("the window refusal names the plan's windows", () => {
  assertEquals(
    windowNotAllowed("basic", 15).message,
    "The basic plan does not offer a 15-minute window. Allowed windows (minutes): 30.",
  );
  assertEquals(
    windowNotAllowed("enterprise", null).message,
    "The enterprise plan does not offer this window. Allowed windows (minutes): 0 (10 seconds), 5, 10, 15, 20, 25 or 30.",
  );
});

// ---------------------------------------------------------------------------------------------
// SSE framing
// ---------------------------------------------------------------------------------------------

Deno.test("formatSse frames comments, retry, events and JSON data, ending with a blank line", () => {
  assertEquals(formatSse({ comment: "keep-alive" }), ": keep-alive\n\n");
  assertEquals(formatSse({ comment: "a\nb" }), ": a\n: b\n\n");
  assertEquals(formatSse({ data: { a: "x\ny" } }), 'data: {"a":"x\\ny"}\n\n');
  assertEquals(
    formatSse({ event: "error", data: { error: "e" }, retry: 5000 }),
    'retry: 5000\nevent: error\ndata: {"error":"e"}\n\n',
  );
  assertEquals(formatSse({ event: "a\nb" }), "event: a b\n\n");
});

Deno.test("SseStream ends once: on end, cancel or abort, running its handlers once", async () => {
  const ac = new AbortController();
  const stream = new SseStream({ keepAliveMs: 60_000, signal: ac.signal });
  let ended = 0;
  stream.onEnd(() => void ended++);
  stream.send({ data: 1 });
  ac.abort();
  stream.end();
  stream.send({ data: 2 });
  assertEquals(ended, 1);
  assertEquals(stream.ended, true);
  const text = await new Response(stream.body).text();
  assertEquals(text, "data: 1\n\n");
  // A handler added after the end runs at once.
  let late = 0;
  stream.onEnd(() => void late++);
  await new Promise((r) => setTimeout(r, 0));
  assertEquals(late, 1);

  const cancelled = new SseStream({ keepAliveMs: 60_000 });
  let gone = 0;
  cancelled.onEnd(() => void gone++);
  await cancelled.body.cancel();
  assertEquals(gone, 1);

  const discarded = new SseStream({ keepAliveMs: 60_000 });
  discarded.discard();
  assertEquals(discarded.ended, true);
});
