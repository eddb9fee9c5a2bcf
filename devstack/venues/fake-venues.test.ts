// The fake venues answer the scan's real adapters in the shapes they parse, with moving prices
// and the venue's time, apply the documented limits at the documented counts, let one venue
// stall without holding the others, and serve streams that can drop.
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createBinanceAdapter } from "../../supabase/functions/_shared/market/binance.ts";
import { createCoinbaseAdapter } from "../../supabase/functions/_shared/market/coinbase.ts";
import { createDexAdapter } from "../../supabase/functions/_shared/market/geckoterminal.ts";
import {
  BINANCE_MINI_TICKER_PATH,
  coinbaseSubscriptions,
  parseBinanceMiniTickers,
  parseCoinbaseMessage,
} from "../../supabase/functions/_shared/market/streams.ts";
import { type FakeVenues, startFakeVenues } from "./fake-venues.ts";

let venues: FakeVenues | null = null;
afterEach(async () => {
  await venues?.stop();
  venues = null;
});

/** A clock the test moves by hand, 10 s into a minute (no window rolls over mid-test). */
function manualClock() {
  let t = Math.floor(Date.now() / 60_000) * 60_000 + 10_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

async function start(now?: () => number) {
  venues = await startFakeVenues({ tickMs: 0, streamDropEveryMs: 0, now });
  return venues;
}

describe("fake venues: payloads the real adapters parse", () => {
  it("Binance: the 24 h ticker, then the price list, stamped with the venue's time", async () => {
    const clock = manualClock();
    const v = await start(clock.now);
    const adapter = createBinanceAdapter({ baseUrl: v.env.BINANCE_API_URL });
    const first = await adapter.fetchQuotes({ now: () => new Date(clock.now()) });
    expect(first.quotes.length).toBe(13);
    expect(first.skipped).toBe(0);
    // BCCUSDT (price 0) and LUNAUSDT (no volume) as recorded: delisted and halted.
    expect(first.inactive).toBe(2);
    const btc = first.quotes.find((q) => q.symbol === "BTC/USDT")!;
    // The row's closeTime is the venue's clock at the answer.
    expect(Date.parse(btc.ts)).toBe(clock.now());
    v.tick();
    clock.advance(2_000);
    const second = await adapter.fetchQuotes({ now: () => new Date(clock.now()) });
    expect(second.quotes.length).toBe(13);
    const moved = second.quotes.find((q) => q.symbol === "BTC/USDT")!;
    expect(moved.price).not.toBe(btc.price);
    expect(moved.volume24h).toBe(btc.volume24h);
    expect(Date.parse(moved.ts)).toBe(Math.floor(clock.now() / 1000) * 1000);
  });

  it("Coinbase: the spot product list with moving prices", async () => {
    const v = await start();
    const adapter = createCoinbaseAdapter({ baseUrl: v.env.COINBASE_API_URL });
    const first = await adapter.fetchQuotes();
    expect(first.quotes.map((q) => q.symbol)).toContain("BTC/USD");
    expect(first.quotes.length).toBe(10);
    v.tick();
    const second = await adapter.fetchQuotes();
    const price = (r: typeof first) => r.quotes.find((q) => q.symbol === "BTC/USD")!.price;
    expect(price(second)).not.toBe(price(first));
  });

  it("GeckoTerminal: each network's trending pools, the adapter rotating through them", async () => {
    const v = await start();
    const adapter = createDexAdapter({ baseUrl: v.env.GECKOTERMINAL_API_URL, minLiquidityUsd: 0 });
    const networks = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const result = await adapter.fetchQuotes();
      expect(result.quotes.length).toBeGreaterThan(0);
      networks.add(result.quotes[0]!.network!);
    }
    expect([...networks].sort()).toEqual(["arbitrum", "base", "bsc", "ethereum", "solana"]);
    const other = await fetch(`${v.env.GECKOTERMINAL_API_URL}/networks/nowhere/trending_pools`);
    expect(other.status).toBe(404);
  });

  it("GeckoTerminal: several pages per network, other pools on each, the adapter rotating networks × pages (decision 0091)", async () => {
    const v = await start();
    const url = (page: number) =>
      `${v.env.GECKOTERMINAL_API_URL}/networks/eth/trending_pools?include=dex&page=${page}`;
    const addresses = async (page: number) => {
      const res = await fetch(url(page));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { attributes?: { address?: unknown } }[] };
      return body.data.map((r) => r.attributes?.address);
    };
    const [one, two, three, four] = [
      await addresses(1),
      await addresses(2),
      await addresses(3),
      await addresses(4),
    ];
    expect(one.length).toBeGreaterThan(0);
    expect(two).toHaveLength(one.length);
    expect(three).toHaveLength(one.length);
    // Each page's pools are pools of their own; past the served pages the list ends.
    const named = (list: unknown[]) => list.filter((a) => typeof a === "string");
    expect(named(one).length).toBeGreaterThan(5);
    expect(new Set(named([...one, ...two, ...three])).size).toBe(named(one).length * 3);
    expect(four).toEqual([]);
    expect((await fetch(url(11))).status).toBe(400);

    // The adapter reads page 1 of each network, then page 2 of each: 10 calls, 10 (network, page).
    const adapter = createDexAdapter({
      baseUrl: v.env.GECKOTERMINAL_API_URL,
      minLiquidityUsd: 0,
      pages: 2,
    });
    const read = new Map<string, Set<string>>();
    for (let i = 0; i < 10; i++) {
      const page = adapter.nextPage() ?? 1;
      const result = await adapter.fetchQuotes();
      expect(result.quotes.length).toBeGreaterThan(0);
      const key = `${result.quotes[0]!.network} p${page}`;
      expect(read.has(key)).toBe(false);
      read.set(key, new Set(result.quotes.map((q) => q.venueKey)));
    }
    expect(read.size).toBe(10);
    const eth1 = read.get("ethereum p1")!;
    const eth2 = read.get("ethereum p2")!;
    expect([...eth2].some((k) => eth1.has(k))).toBe(false);
  });
});

describe("fake venues: the documented limits", () => {
  it("Binance: 6,000 weight a minute with X-MBX-USED-WEIGHT-1M, then 429, then a 418 ban", async () => {
    const clock = manualClock();
    const v = await start(clock.now);
    const url = `${v.env.BINANCE_API_URL}/api/v3/ticker/24hr`;
    // The all-symbol 24 h ticker weighs 80: 75 calls are exactly 6,000.
    for (let i = 1; i <= 75; i++) {
      const res = await fetch(url);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      expect(res.headers.get("x-mbx-used-weight-1m")).toBe(String(i * 80));
    }
    const over = await fetch(url);
    expect(over.status).toBe(429);
    // 50 s to the next minute (the clock stands 10 s into it).
    expect(over.headers.get("retry-after")).toBe("50");
    expect(((await over.json()) as { code: number }).code).toBe(-1003);
    // Calling again before Retry-After is up bans the IP: 418 for 2 minutes.
    clock.advance(1_000);
    const banned = await fetch(`${v.env.BINANCE_API_URL}/api/v3/ticker/price`);
    expect(banned.status).toBe(418);
    expect(banned.headers.get("retry-after")).toBe("120");
    expect(((await banned.json()) as { msg: string }).msg).toMatch(/IP banned until/);
    // Still banned in the next minute; free once the ban is over, with a fresh window.
    clock.advance(60_000);
    expect((await fetch(url)).status).toBe(418);
    clock.advance(60_000);
    const after = await fetch(`${v.env.BINANCE_API_URL}/api/v3/ticker/price`);
    expect(after.status).toBe(200);
    expect(after.headers.get("x-mbx-used-weight-1m")).toBe("4");
  });

  it("Binance: the adapter reads the used weight and stops before the ceiling (no 429)", async () => {
    const clock = manualClock();
    const v = await start(clock.now);
    // Another program on the IP has spent 5,360 of the minute's 6,000.
    for (let i = 0; i < 67; i++)
      await (await fetch(`${v.env.BINANCE_API_URL}/api/v3/ticker/24hr`)).arrayBuffer();
    const adapter = createBinanceAdapter({ baseUrl: v.env.BINANCE_API_URL });
    const now = () => new Date(clock.now());
    const first = await adapter.fetchQuotes({ now });
    expect(first.quotes.length).toBe(13);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      clock.advance(2_000);
      const result = await adapter.fetchQuotes({ now });
      statuses.push(result.backoffUntil ? 0 : 200);
    }
    // Paused at once, until the venue's next minute; the venue never had to say 429.
    expect(statuses.every((s) => s === 0)).toBe(true);
    expect(v.requests.binance).toBe(68);
    clock.advance(40_000);
    const resumed = await adapter.fetchQuotes({ now });
    expect(resumed.backoffUntil).toBeUndefined();
    expect(resumed.quotes.length).toBe(13);
  });

  it("Coinbase: 10 requests a second, the 11th answered 429 with Retry-After", async () => {
    const clock = manualClock();
    const v = await start(clock.now);
    const url = `${v.env.COINBASE_API_URL}/api/v3/brokerage/market/products?product_type=SPOT`;
    for (let i = 0; i < 10; i++) {
      const res = await fetch(url);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
    }
    const over = await fetch(url);
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBe("1");
    clock.advance(1_000);
    expect((await fetch(url)).status).toBe(200);
  });

  it("GeckoTerminal: 30 calls a minute, the 31st answered 429 with Retry-After", async () => {
    const clock = manualClock();
    const v = await start(clock.now);
    const url = `${v.env.GECKOTERMINAL_API_URL}/networks/eth/trending_pools?include=dex&page=1`;
    for (let i = 0; i < 30; i++) {
      const res = await fetch(url);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      clock.advance(1_000);
    }
    const over = await fetch(url);
    expect(over.status).toBe(429);
    // The first of the 30 calls leaves the minute in 30 s.
    expect(over.headers.get("retry-after")).toBe("30");
    const adapter = createDexAdapter({ baseUrl: v.env.GECKOTERMINAL_API_URL });
    const paused = await adapter.fetchQuotes({ now: () => new Date(clock.now()) });
    expect(paused.quotes).toEqual([]);
    expect(Date.parse(paused.backoffUntil!)).toBe(clock.now() + 30_000);
  });
});

describe("fake venues: stalls and streams", () => {
  it("a venue that stalls holds only its own answers", async () => {
    const v = await start();
    v.stall("binance", 60_000);
    let binanceDone = false;
    const slow = fetch(`${v.env.BINANCE_API_URL}/api/v3/ticker/price`).then((r) => {
      binanceDone = true;
      return r;
    });
    const res = await fetch(`${v.env.COINBASE_API_URL}/api/v3/brokerage/market/products`);
    expect(res.status).toBe(200);
    expect(binanceDone).toBe(false);
    v.stall("binance", 0);
    // Stopping releases the stalled answer (the server closes the connection or answers it).
    await v.stop();
    venues = null;
    await slow.catch(() => null);
  });

  it("Binance !miniTicker@arr (combined) pushes every changed symbol with its event time, and drops", async () => {
    const v = await start();
    const ws = new WebSocket(`${v.urls.binanceWs}/stream?streams=!miniTicker@arr`);
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    const message = new Promise<{ stream: string; data: Record<string, unknown>[] }>((resolve) =>
      ws.once("message", (raw) => resolve(JSON.parse(String(raw)))),
    );
    v.tick();
    const { stream, data } = await message;
    expect(stream).toBe("!miniTicker@arr");
    // The 13 stablecoin pairs, ETHBTC and BTCTRY trade; the delisted and the halted do not move.
    expect(data.length).toBe(15);
    const btc = data.find((d) => d.s === "BTCUSDT")!;
    expect(btc).toMatchObject({ e: "24hrMiniTicker" });
    expect(typeof btc.E).toBe("number");
    for (const field of ["c", "o", "h", "l", "v", "q"]) expect(typeof btc[field]).toBe("string");
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    expect(v.dropStreams("binance")).toBe(1);
    // Dropped, not closed politely: no close frame (1006).
    expect(await closed).toBe(1006);
  });

  it("Coinbase ticker + heartbeats: subscriptions, a snapshot, updates and counted heartbeats", async () => {
    const v = await start();
    const ws = new WebSocket(v.urls.coinbaseWs);
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    const messages: Record<string, unknown>[] = [];
    ws.on("message", (raw) => messages.push(JSON.parse(String(raw))));
    ws.send(JSON.stringify({ type: "subscribe", channel: "heartbeats" }));
    ws.send(
      JSON.stringify({ type: "subscribe", channel: "ticker", product_ids: ["BTC-USD", "ETH-USD"] }),
    );
    await expect.poll(() => messages.filter((m) => m.channel === "subscriptions").length).toBe(2);
    v.tick();
    await expect.poll(() => messages.filter((m) => m.channel === "heartbeats").length).toBe(1);
    await expect.poll(() => messages.filter((m) => m.channel === "ticker").length).toBe(2);
    const [snapshot, update] = messages.filter((m) => m.channel === "ticker") as {
      timestamp: string;
      sequence_num: number;
      events: { type: string; tickers: { product_id: string; price: string }[] }[];
    }[];
    expect(snapshot!.events[0]!.type).toBe("snapshot");
    expect(update!.events[0]!.type).toBe("update");
    expect(update!.events[0]!.tickers.map((t) => t.product_id).sort()).toEqual([
      "BTC-USD",
      "ETH-USD",
    ]);
    expect(Number.isNaN(Date.parse(update!.timestamp))).toBe(false);
    expect(update!.sequence_num).toBeGreaterThan(snapshot!.sequence_num);
    const beat = messages.find((m) => m.channel === "heartbeats") as {
      events: { heartbeat_counter: number }[];
    };
    expect(beat.events[0]!.heartbeat_counter).toBe(1);
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    expect(v.dropStreams()).toBe(1);
    expect(await closed).toBe(1006);
  });

  it("the streams' messages parse with the scan's stream parsers, stamped with the venue's time", async () => {
    const v = await start();
    const binance = new WebSocket(`${v.urls.binanceWs}${BINANCE_MINI_TICKER_PATH}`);
    const coinbase = new WebSocket(v.urls.coinbaseWs);
    await Promise.all(
      [binance, coinbase].map(
        (ws) => new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject)),
      ),
    );
    const binanceText = new Promise<string>((resolve) =>
      binance.once("message", (raw) => resolve(String(raw))),
    );
    const coinbaseTexts: string[] = [];
    coinbase.on("message", (raw) => coinbaseTexts.push(String(raw)));
    for (const m of coinbaseSubscriptions(["BTC-USD", "DOGE-USD"])) coinbase.send(m);
    await expect.poll(() => coinbaseTexts.length).toBe(3);
    const before = Date.now();
    v.tick();
    const mini = parseBinanceMiniTickers(await binanceText);
    expect(mini.skipped).toBe(0);
    expect(mini.quotes.length).toBe(13);
    expect(Date.parse(mini.quotes[0]!.ts)).toBeGreaterThanOrEqual(before);
    await expect.poll(() => coinbaseTexts.length).toBe(5);
    const parsed = coinbaseTexts.map(parseCoinbaseMessage);
    expect(parsed.filter((m) => m.heartbeat).length).toBe(1);
    const update = parsed.at(-2)!.quotes.length > 0 ? parsed.at(-2)! : parsed.at(-1)!;
    expect(update.quotes.map((q) => q.symbol).sort()).toEqual(["BTC/USD", "DOGE/USD"]);
    expect(Date.parse(update.quotes[0]!.ts)).toBeGreaterThanOrEqual(before);
    binance.terminate();
    coinbase.terminate();
  });
});
