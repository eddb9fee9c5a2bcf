// The /api compatibility layer's market routes through the gateway (/api/* and
// /functions/v1/api/*) against the real database rules, on PGlite and on PostgreSQL: the caller's
// token decides (401 without a session, 403 without an active plan or for a window the plan
// does not offer), history and analysis of a seeded symbol, signals, and the server-sent stream
// fed by the Realtime channel market:movers:<window>.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoEmail, demoUser, serviceClient, stackInfo } from "../support/clients.ts";

const tag = Date.now().toString(36).toUpperCase();
const SYMBOL = `APIM${tag}/USDT`;
const UNKNOWN = `NOPE${tag}/USDT`;
/** The symbol trades on two venues: a strong climb on Binance, a small move on Kraken. */
const STRONG = "Binance";
const WEAK = "Kraken";
const STEPS = 13; // one sample every 5 minutes over the last hour
const strongPrice = (i: number) => 2 ** i;
const weakPrice = (i: number) => 10 + i * 0.01;

type Gainer = {
  symbol: string;
  exchange: string;
  instrumentId: number;
  pct: number;
  windowUsed: number;
  price: number;
  ts: string;
};

const tokens = new Map<DemoEmail, string>();
async function tokenOf(email: DemoEmail): Promise<string> {
  const known = tokens.get(email);
  if (known) return known;
  const { client } = await demoUser(email);
  const { data } = await client.auth.getSession();
  const token = data.session!.access_token;
  tokens.set(email, token);
  return token;
}

async function api(path: string, email: DemoEmail | null, init: RequestInit = {}) {
  const { url, publishableKey } = stackInfo();
  const headers: Record<string, string> = { apikey: publishableKey };
  if (email) headers.authorization = `Bearer ${await tokenOf(email)}`;
  return fetch(`${url}${path}`, { ...init, headers });
}

async function expectError(res: Response, status: number, error: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { error: string; code: string; message: string };
  expect(body.code).toBe(error);
  expect(body.error).toBe(body.message);
  expect(typeof body.message).toBe("string");
  return body;
}

const quote = (exchange: string, price: number, ts: string) => ({
  symbol: SYMBOL,
  exchange,
  exchangeType: "cex",
  source: "simulated",
  price,
  volume24h: 2_000_000,
  ts,
});

async function ingest(quotes: ReturnType<typeof quote>[], scannedAt: string) {
  const { error } = await serviceClient().rpc("ingest_scan", {
    quotes: quotes as never,
    scanned_at: scannedAt,
  });
  expect(error).toBeNull();
}

/** The selected window stored in a demo user's profile (other suites may change it). */
async function selectedWindow(email: DemoEmail): Promise<number> {
  const { client, user } = await demoUser(email);
  const { data, error } = await client
    .from("profiles")
    .select("selected_window_minutes")
    .eq("id", user.id)
    .single();
  expect(error).toBeNull();
  return data!.selected_window_minutes;
}

/** Reads an event stream until `done(text)` holds, for at most `ms`. */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  seen: { text: string },
  done: (text: string) => boolean,
  ms = 5_000,
): Promise<string> {
  const decoder = new TextDecoder();
  const deadline = Date.now() + ms;
  while (!done(seen.text)) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), Math.max(0, deadline - Date.now()));
    });
    const next = await Promise.race([reader.read(), timeout]);
    clearTimeout(timer);
    if (next === "timeout") throw new Error(`stream: timed out after ${ms} ms: ${seen.text}`);
    if (next.done) throw new Error(`stream: ended early: ${seen.text}`);
    seen.text += decoder.decode(next.value, { stream: true });
  }
  return seen.text;
}

const t0 = Date.now();
const stepTs = (i: number) => new Date(t0 - (STEPS - 1 - i) * 5 * 60_000).toISOString();

beforeAll(async () => {
  // An hour of history, one scan per sample (each scan keeps one quote per instrument).
  for (let i = 0; i < STEPS; i++) {
    const ts = stepTs(i);
    await ingest([quote(STRONG, strongPrice(i), ts), quote(WEAK, weakPrice(i), ts)], ts);
  }
});

afterAll(async () => {
  const service = serviceClient();
  await service.from("strategy_signals").delete().eq("symbol", SYMBOL);
  await service.from("instruments").delete().eq("symbol", SYMBOL);
});

describe("who may read market data through /api", () => {
  it("refuses anonymous callers (the publishable key alone) with 401", async () => {
    for (const path of ["/api/gainers/recent", "/api/signals/recent", "/api/sse"]) {
      await expectError(await api(path, null), 401, "unauthorized");
    }
    const { url, publishableKey } = stackInfo();
    const res = await fetch(`${url}/api/gainers/recent`, {
      headers: { apikey: publishableKey, authorization: `Bearer ${publishableKey}` },
    });
    await expectError(res, 401, "unauthorized");
  });

  it("refuses a user without an active plan with 403 subscription_required", async () => {
    for (const path of [
      "/api/gainers/recent",
      `/api/gainers/history/${encodeURIComponent(SYMBOL)}`,
      `/api/gainers/analysis/${encodeURIComponent(SYMBOL)}`,
      "/api/signals/recent",
      "/api/sse",
    ]) {
      const body = await expectError(
        await api(path, "free@demo.local"),
        403,
        "subscription_required",
      );
      expect(body.message).toBe("An active subscription is required to see market data.");
    }
    await expectError(await api("/api/gainers/recent", "banned@demo.local"), 403, "banned");
  });
});

describe("GET /api/gainers/recent", () => {
  it("gives basic the 30-minute list and refuses the 5-minute window", async () => {
    for (const path of ["/api/gainers/recent", "/api/gainers/recent?window=30"]) {
      const res = await api(path, "basic@demo.local");
      expect(res.status, path).toBe(200);
      const list = (await res.json()) as Gainer[];
      expect(list.length).toBeGreaterThan(0);
      expect(list.length).toBeLessThanOrEqual(100);
      expect(list.every((g) => g.windowUsed === 30)).toBe(true);
      const mine = list.find((g) => g.symbol === SYMBOL && g.exchange === STRONG);
      expect(mine).toMatchObject({
        exchangeType: "cex",
        price: strongPrice(STEPS - 1),
        // 30 minutes before the last sample: step STEPS - 7.
        pct: ((strongPrice(STEPS - 1) - strongPrice(STEPS - 7)) / strongPrice(STEPS - 7)) * 100,
        volume24h: 2_000_000,
      });
      expect(mine).toHaveProperty("pct30min", mine!.pct);
      expect(mine).toHaveProperty("price3hourAgo");
      expect(mine).toHaveProperty("instrumentId");
    }
    const body = await expectError(
      await api("/api/gainers/recent?window=5", "basic@demo.local"),
      403,
      "window_not_allowed",
    );
    expect(body.message).toContain("Allowed windows (minutes): 30");
  });

  it("gives pro its selected window by default, other pro windows on request", async () => {
    const selected = await selectedWindow("pro@demo.local");
    const list = (await (await api("/api/gainers/recent", "pro@demo.local")).json()) as Gainer[];
    expect(list.every((g) => g.windowUsed === selected)).toBe(true);
    expect(list.some((g) => g.symbol === SYMBOL)).toBe(true);
    const w30 = (await (
      await api("/api/gainers/recent?window=30", "pro@demo.local")
    ).json()) as Gainer[];
    expect(w30.every((g) => g.windowUsed === 30)).toBe(true);
    await expectError(
      await api("/api/gainers/recent?window=5", "pro@demo.local"),
      403,
      "window_not_allowed",
    );
  });

  it("gives enterprise the short windows; bad window values are a 400", async () => {
    const selected = await selectedWindow("enterprise@demo.local");
    const mine = (await (
      await api("/api/gainers/recent", "enterprise@demo.local")
    ).json()) as Gainer[];
    expect(mine.every((g) => g.windowUsed === selected)).toBe(true);
    const w5 = (await (
      await api("/api/gainers/recent?window=5", "enterprise@demo.local")
    ).json()) as Gainer[];
    const entry = w5.find((g) => g.symbol === SYMBOL && g.exchange === STRONG);
    expect(entry).toMatchObject({ windowUsed: 5, pct: 100 });
    expect(entry).toHaveProperty("pct5min", 100);
    for (const w of ["abc", "7", "-5"]) {
      await expectError(
        await api(`/api/gainers/recent?window=${w}`, "enterprise@demo.local"),
        400,
        "invalid_request",
      );
    }
  });

  it("is served at /functions/v1/api/* as well", async () => {
    const res = await api("/functions/v1/api/gainers/recent?window=30", "pro@demo.local");
    expect(res.status).toBe(200);
    expect(((await res.json()) as Gainer[]).some((g) => g.symbol === SYMBOL)).toBe(true);
  });
});

describe("GET /api/gainers/history/{symbol} and /analysis/{symbol}", () => {
  it("answers the symbol's last 3 hours as { ts, price }, oldest first", async () => {
    const encoded = encodeURIComponent(SYMBOL);
    const res = await api(`/api/gainers/history/${encoded}?exchange=${STRONG}`, "pro@demo.local");
    expect(res.status).toBe(200);
    const points = (await res.json()) as { ts: string; price: number }[];
    expect(points).toEqual(
      Array.from({ length: STEPS }, (_, i) => ({ ts: stepTs(i), price: strongPrice(i) })),
    );
    // Without ?exchange=: the venue of the strongest current entry (Binance); the symbol's
    // slash may also be sent as is.
    const chosen = await (await api(`/api/gainers/history/${SYMBOL}`, "pro@demo.local")).json();
    expect(chosen).toEqual(points);
    const weak = (await (
      await api(`/api/gainers/history/${encoded}?exchange=${WEAK}`, "basic@demo.local")
    ).json()) as { price: number }[];
    expect(weak.map((p) => p.price)).toEqual(Array.from({ length: STEPS }, (_, i) => weakPrice(i)));
  });

  it("answers the analysis computed over that history", async () => {
    const res = await api(
      `/api/gainers/analysis/${encodeURIComponent(SYMBOL)}?exchange=${STRONG}`,
      "enterprise@demo.local",
    );
    expect(res.status).toBe(200);
    const analysis = await res.json();
    expect(analysis).toMatchObject({
      symbol: SYMBOL,
      exchange: STRONG,
      enoughData: true,
      trend: "bullish",
      forecast: "up",
      momentum: "strong",
      liquidityScore: "good",
      dataPoints: STEPS,
      timeframe: "1h",
    });
    expect(analysis.riskScore).toBeGreaterThanOrEqual(1);
    expect(analysis.riskScore).toBeLessThanOrEqual(5);
    expect(["low", "medium", "high"]).toContain(analysis.riskText);
    expect(analysis.confidence).toBeGreaterThanOrEqual(0);
  });

  it("answers an unknown symbol or venue with 404", async () => {
    for (const kind of ["history", "analysis"]) {
      await expectError(
        await api(`/api/gainers/${kind}/${encodeURIComponent(UNKNOWN)}`, "pro@demo.local"),
        404,
        "unknown_symbol",
      );
      await expectError(
        await api(
          `/api/gainers/${kind}/${encodeURIComponent(SYMBOL)}?exchange=Nowhere`,
          "pro@demo.local",
        ),
        404,
        "unknown_symbol",
      );
    }
  });
});

describe("GET /api/signals/recent", () => {
  it("answers subscribers the newest signals in camelCase and refuses the free plan", async () => {
    const inserted = await serviceClient()
      .from("strategy_signals")
      .insert({
        symbol: SYMBOL,
        exchange: STRONG,
        exchange_type: "cex",
        timeframe: "5min",
        strategy: "rsi",
        signal: "bullish",
        confidence: 0.75,
        confidence_tier: "high",
        price: 4096,
        indicator_values: { rsi: 22 },
      })
      .select("id")
      .single();
    expect(inserted.error).toBeNull();
    const res = await api("/api/signals/recent", "pro@demo.local");
    expect(res.status).toBe(200);
    const signals = (await res.json()) as { id: number; computedAt: string }[];
    expect(signals.length).toBeLessThanOrEqual(200);
    expect(signals[0]).toMatchObject({
      id: inserted.data!.id,
      symbol: SYMBOL,
      exchange: STRONG,
      exchangeType: "cex",
      timeframe: "5min",
      strategy: "rsi",
      signal: "bullish",
      confidence: 0.75,
      confidenceTier: "high",
      price: 4096,
      indicatorValues: { rsi: 22 },
    });
    const times = signals.map((s) => Date.parse(s.computedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    await expectError(
      await api("/api/signals/recent", "free@demo.local"),
      403,
      "subscription_required",
    );
  });
});

describe("GET /api/sse", () => {
  it("streams each entry of the next scan of the caller's window as a data message", async () => {
    const selected = await selectedWindow("pro@demo.local");
    const ac = new AbortController();
    const res = await api("/api/sse", "pro@demo.local", { signal: ac.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const seen = { text: "" };
    try {
      await readUntil(reader, seen, (s) => s.includes("event: connected"));
      expect(seen.text).toContain(`event: connected\ndata: {"window":${selected}}\n\n`);
      const before = seen.text.length;

      const now = new Date().toISOString();
      await ingest([quote(STRONG, 5000, now)], now);

      const text = await readUntil(reader, seen, (s) =>
        s.slice(before).includes(`"symbol":"${SYMBOL}"`),
      );
      const line = text
        .slice(before)
        .split("\n")
        .find((l) => l.startsWith("data: ") && l.includes(`"symbol":"${SYMBOL}"`))!;
      const entry = JSON.parse(line.slice("data: ".length)) as Gainer;
      expect(entry).toMatchObject({
        symbol: SYMBOL,
        exchange: STRONG,
        price: 5000,
        windowUsed: selected,
      });
    } finally {
      ac.abort();
      await reader.cancel().catch(() => {});
    }
  });

  it("refuses the free plan and windows the plan does not offer with 403 JSON", async () => {
    const free = await api("/api/sse", "free@demo.local");
    expect(free.headers.get("content-type")).toMatch(/^application\/json/);
    await expectError(free, 403, "subscription_required");
    await expectError(
      await api("/api/sse?window=5", "basic@demo.local"),
      403,
      "window_not_allowed",
    );
  });
});
