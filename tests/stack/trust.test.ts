// Moves you can trust (issue 26, decision 0046) through the Data API on PGlite and PostgreSQL 15:
// what ingest_scan stores per mover (liquidity figures, grouping key, thin mark, the five flags,
// cross-venue confirmation, the trust score, the same as the rules of domain/trust.ts compute),
// how movers_feed ranks and carries them, and which moves enqueue_alerts lets through for default
// settings, for "include thin moves" and for "require confirmation".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Quote } from "../../supabase/functions/_shared/domain/market.ts";
import type { MoverFlag } from "../../supabase/functions/_shared/domain/realtime.ts";
import { isThin, trustScore } from "../../supabase/functions/_shared/domain/trust.ts";
import { type ClaimedRow, withMessages } from "../../supabase/functions/deliver-alerts/claimed.ts";
import { demoUser, serviceClient, signedInUser } from "../support/clients.ts";

const run = Date.now().toString(36).toUpperCase();
const T = Date.now() - 60_000;
const START = T - 20 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const asset = (tag: string) => `${tag}${run}`;
const users: string[] = [];

type Figures = Partial<Quote> & { price: number };

function cex(venue: "Binance" | "Coinbase", tag: string, f: Figures): Quote {
  const symbol = `${asset(tag)}/USDT`;
  return {
    venueKey: `${venue}:${symbol}`,
    symbol,
    exchange: venue,
    exchangeType: "cex",
    network: null,
    source: venue === "Binance" ? "binance" : "coinbase",
    selection: venue === "Binance" ? "cex-major" : "coinbase",
    poolUrl: null,
    volume24h: 1_000_000,
    ts: "",
    ...f,
  };
}

/** A PancakeSwap V3 pool of `<tag>/WBNB` (the pool address tells pools of one pair apart). */
function pool(tag: string, n: number, f: Figures): Quote {
  const address = `0x${run.toLowerCase().padEnd(36, "0")}${String(n).padStart(4, "0")}`;
  return {
    venueKey: `bsc:${address}`,
    symbol: `${asset(tag)}/WBNB`,
    exchange: "PancakeSwap V3 (BNB Chain)",
    exchangeType: "dex",
    network: "bsc",
    source: "dex",
    selection: "dex",
    poolUrl: `https://www.geckoterminal.com/bsc/pools/${address}`,
    volume24h: 600_000,
    volume24hUsd: 600_000,
    liquidityUsd: 500_000,
    poolName: `${asset(tag)} / WBNB 0.25%`,
    poolCreatedAt: "2025-01-01T00:00:00Z",
    ts: "",
    ...f,
  };
}

// Each quote at the window's start (20 minutes ago) and now.
const SCENARIO: [Quote, Quote][] = [
  // CFM moves +40 % on Binance, Coinbase and a deep pool (confirmed), and on a thin 1 % pool.
  [
    cex("Binance", "CFM", { price: 1 }),
    cex("Binance", "CFM", { price: 1.4, volume24h: 1_300_000 }),
  ],
  [
    cex("Coinbase", "CFM", { price: 1 }),
    cex("Coinbase", "CFM", { price: 1.38, volume24h: 1_200_000 }),
  ],
  [
    pool("CFM", 1, { price: 1 }),
    pool("CFM", 1, { price: 1.41, volume24h: 700_000, volume24hUsd: 700_000 }),
  ],
  [
    pool("CFM", 2, { price: 1, liquidityUsd: 40_000, poolName: `${asset("CFM")} / WBNB 1%` }),
    pool("CFM", 2, {
      price: 1.42,
      liquidityUsd: 41_000,
      poolName: `${asset("CFM")} / WBNB 1%`,
      volume24h: 700_000,
      volume24hUsd: 700_000,
    }),
  ],
  // SOLO moves +45 % on Binance alone, its 24 h volume flat: unconfirmed, no_volume_rise.
  [cex("Binance", "SOLO", { price: 1 }), cex("Binance", "SOLO", { price: 1.45 })],
  // WASH trades 50 times its reserve a day: wash_volume, and ranks below CFM despite +60 %.
  [
    pool("WASH", 3, {
      price: 1,
      volume24h: 10_000_000,
      volume24hUsd: 10_000_000,
      liquidityUsd: 200_000,
    }),
    pool("WASH", 3, {
      price: 1.6,
      volume24h: 10_500_000,
      volume24hUsd: 10_500_000,
      liquidityUsd: 210_000,
    }),
  ],
  // YNG's pool is two hours old.
  [
    pool("YNG", 4, { price: 1, poolCreatedAt: iso(T - 2 * 3_600_000) }),
    pool("YNG", 4, { price: 1.3, poolCreatedAt: iso(T - 2 * 3_600_000), volume24h: 900_000 }),
  ],
  // PULL's reserve fell from $1 M to $300 k within the window.
  [
    pool("PULL", 5, { price: 1, liquidityUsd: 1_000_000 }),
    pool("PULL", 5, { price: 1.5, liquidityUsd: 300_000, volume24h: 900_000 }),
  ],
  // GAP's pool trades 20 % above its Binance price; both rose.
  [
    cex("Binance", "GAP", { price: 1 }),
    cex("Binance", "GAP", { price: 1.3, volume24h: 2_000_000 }),
  ],
  [pool("GAP", 6, { price: 1 }), pool("GAP", 6, { price: 1.56, volume24h: 900_000 })],
];

interface Row {
  symbol: string;
  exchange: string;
  exchange_type: "cex" | "dex";
  pool_name: string | null;
  asset: string | null;
  volume_24h_usd: number | null;
  liquidity_usd: number | null;
  spread_pct: number | null;
  thin: boolean;
  flags: MoverFlag[];
  confirmed_on: string[];
  trust_score: number;
}

let rows: Row[] = [];
const row = (tag: string, exchange: string, poolName?: string) => {
  const found = rows.find(
    (r) =>
      r.asset === asset(tag) &&
      r.exchange === exchange &&
      (poolName === undefined || r.pool_name === poolName),
  );
  expect(found, `${tag} on ${exchange}`).toBeDefined();
  return found!;
};

async function ingest(quotes: Quote[], at: number) {
  const { data, error } = await serviceClient().rpc("ingest_scan", {
    quotes: quotes.map((q) => ({ ...q, ts: iso(at) })) as never,
    scanned_at: iso(at),
  });
  expect(error).toBeNull();
  expect(data).toMatchObject({ instruments: quotes.length, skipped: 0 });
}

beforeAll(async () => {
  await ingest(
    SCENARIO.map(([start]) => start),
    START,
  );
  await ingest(
    SCENARIO.map(([, now]) => now),
    T,
  );
  const { data, error } = await serviceClient()
    .from("movers")
    .select(
      "symbol, exchange, exchange_type, pool_name, asset, volume_24h_usd, liquidity_usd, spread_pct, thin, flags, confirmed_on, trust_score",
    )
    .like("symbol", `%${run}/%`);
  expect(error).toBeNull();
  rows = (data ?? []).map((r) => ({
    ...(r as unknown as Row),
    volume_24h_usd: r.volume_24h_usd === null ? null : Number(r.volume_24h_usd),
    liquidity_usd: r.liquidity_usd === null ? null : Number(r.liquidity_usd),
  }));
  expect(rows).toHaveLength(SCENARIO.length);
});

afterAll(async () => {
  await serviceClient().from("instruments").delete().like("symbol", `%${run}/%`);
  if (users.length) {
    await serviceClient().from("profiles").update({ subscription_active: false }).in("id", users);
  }
});

describe("trust: stored per mover", () => {
  it("stores the venue's figures and the grouping key (wrapped natives aside, the base)", () => {
    const deep = row("CFM", "PancakeSwap V3 (BNB Chain)", `${asset("CFM")} / WBNB 0.25%`);
    expect(deep).toMatchObject({ liquidity_usd: 500_000, volume_24h_usd: 700_000, thin: false });
    const binance = row("CFM", "Binance");
    expect(binance).toMatchObject({
      volume_24h_usd: 1_300_000,
      liquidity_usd: null,
      pool_name: null,
    });
    // Grouping: four rows of one asset, two of them pools of one DEX told apart by their names.
    const group = rows.filter((r) => r.asset === asset("CFM"));
    expect(group).toHaveLength(4);
    expect(group.map((r) => r.pool_name).sort()).toEqual(
      [null, null, `${asset("CFM")} / WBNB 0.25%`, `${asset("CFM")} / WBNB 1%`].sort(),
    );
  });

  it("marks thin moves below the floor of their venue type", () => {
    expect(row("CFM", "PancakeSwap V3 (BNB Chain)", `${asset("CFM")} / WBNB 1%`).thin).toBe(true);
    expect(rows.filter((r) => r.thin).map((r) => r.pool_name)).toEqual([
      `${asset("CFM")} / WBNB 1%`,
    ]);
  });

  it("confirms a move on the other venues: CEX by any, DEX by CEX only", () => {
    expect(row("CFM", "Binance").confirmed_on).toEqual(["Coinbase", "PancakeSwap V3 (BNB Chain)"]);
    expect(row("CFM", "Coinbase").confirmed_on).toEqual(["Binance", "PancakeSwap V3 (BNB Chain)"]);
    expect(
      row("CFM", "PancakeSwap V3 (BNB Chain)", `${asset("CFM")} / WBNB 0.25%`).confirmed_on,
    ).toEqual(["Binance", "Coinbase"]);
    expect(row("SOLO", "Binance").confirmed_on).toEqual([]);
    expect(row("GAP", "PancakeSwap V3 (BNB Chain)").confirmed_on).toEqual(["Binance"]);
  });

  it("raises each of the five flags on its case and on no other", () => {
    const flagged = Object.fromEntries(
      rows
        .filter((r) => r.flags.length > 0)
        .map((r) => [`${r.asset!.replace(run, "")}@${r.exchange}`, r.flags]),
    );
    expect(flagged).toEqual({
      "SOLO@Binance": ["no_volume_rise"],
      "WASH@PancakeSwap V3 (BNB Chain)": ["wash_volume"],
      "YNG@PancakeSwap V3 (BNB Chain)": ["young_pool"],
      "PULL@PancakeSwap V3 (BNB Chain)": ["pulled_pool"],
      "GAP@PancakeSwap V3 (BNB Chain)": ["dex_cex_gap"],
    });
  });

  it("stores the trust score the rule of domain/trust.ts gives", () => {
    for (const r of rows) {
      expect(
        isThin(r.exchange_type, { volume24hUsd: r.volume_24h_usd, liquidityUsd: r.liquidity_usd }),
        r.symbol,
      ).toBe(r.thin);
      const expected = trustScore({
        exchangeType: r.exchange_type,
        volume24hUsd: r.volume_24h_usd,
        liquidityUsd: r.liquidity_usd,
        spreadPct: r.spread_pct,
        thin: r.thin,
        flags: r.flags,
        confirmedOn: r.confirmed_on,
      });
      expect(r.trust_score, `${r.symbol} on ${r.exchange}`).toBe(expected);
    }
    // Confirmed and deep beats flagged.
    expect(row("CFM", "Binance").trust_score).toBeGreaterThan(
      row("WASH", "PancakeSwap V3 (BNB Chain)").trust_score,
    );
  });
});

describe("trust: the feed", () => {
  it("carries every field and ranks a flagged move below an unflagged smaller one", async () => {
    const { client } = await demoUser("enterprise@demo.local");
    const { data, error } = await client.rpc("movers_feed", { window_minutes: 30 });
    expect(error).toBeNull();
    const mine = data!.filter((e) => e.symbol.includes(run));
    const at = (tag: string, exchange: string) =>
      mine.findIndex((e) => e.asset === asset(tag) && e.exchange === exchange);
    expect(at("CFM", "Binance")).toBeGreaterThanOrEqual(0);
    // WASH +60 % counts as 30 % (one flag): after CFM's +40 %; still listed.
    expect(at("WASH", "PancakeSwap V3 (BNB Chain)")).toBeGreaterThan(at("CFM", "Binance"));
    const cfm = mine[at("CFM", "Binance")]!;
    expect(cfm).toMatchObject({
      thin: false,
      flags: [],
      confirmed_on: ["Coinbase", "PancakeSwap V3 (BNB Chain)"],
      asset: asset("CFM"),
      pool_name: null,
      liquidity_usd: null,
      spread_pct: null,
    });
    expect(Number(cfm.volume_24h_usd)).toBe(1_300_000);
    expect(cfm.trust_score).toBe(row("CFM", "Binance").trust_score);
    // The confirmed filter, as a client applies it: only the rows confirmed on another venue.
    const confirmed = mine.filter((e) => e.confirmed_on.length > 0).map((e) => e.asset);
    expect(new Set(confirmed)).toEqual(new Set([asset("CFM"), asset("GAP")]));
  });
});

describe("trust: alerts", () => {
  let scanAt: number;
  beforeAll(async () => {
    // A later scan of the same quotes for enqueue_alerts (it reads the movers of one ingest).
    scanAt = T + 5_000;
    await ingest(
      SCENARIO.map(([, now]) => now),
      scanAt,
    );
  });

  async function subscriber(extra: Record<string, unknown>) {
    const u = await signedInUser();
    const { error } = await serviceClient()
      .from("profiles")
      .update({
        plan: "enterprise",
        subscription_active: true,
        selected_window_minutes: 30,
        user_threshold: 5,
        alert_directions: "both",
        email_alert: u.email,
        selected_exchanges: ["cex-major", "coinbase", "dex"],
        ...extra,
      } as never)
      .eq("id", u.user.id);
    expect(error).toBeNull();
    users.push(u.user.id);
    return u;
  }

  it("skips thin moves unless opted in, and unconfirmed ones when confirmation is required", async () => {
    const plain = await subscriber({});
    const thinToo = await subscriber({ alert_include_thin: true });
    const confirmedOnly = await subscriber({ alert_require_confirmation: true });
    const { error } = await serviceClient().rpc("enqueue_alerts", { scanned_at: iso(scanAt) });
    expect(error).toBeNull();

    const service = serviceClient();
    const symbolsFor = new Map<string, Set<string>>();
    const pools = new Set<string>();
    for (;;) {
      const { data, error: claimError } = await service.rpc("claim_outbox", {
        worker: "trust-test",
        max_jobs: 500,
        lease_seconds: 60,
      });
      expect(claimError).toBeNull();
      // As the worker reads a claim: each job with its shared message (decision 0072).
      const jobs = withMessages((data ?? []) as unknown as ClaimedRow[]) as unknown as {
        id: number;
        target: string;
        payload: { items: { symbol: string; exchange: string; poolName?: string | null }[] };
      }[];
      if (jobs.length === 0) break;
      for (const j of jobs) {
        const set = symbolsFor.get(j.target) ?? new Set<string>();
        // (Other kinds of jobs, a ticket e-mail, have no items.)
        for (const item of Array.isArray(j.payload?.items) ? j.payload.items : []) {
          if (!item.symbol.includes(run)) continue;
          set.add(`${item.symbol}@${item.poolName ?? item.exchange}`);
          if (item.poolName) pools.add(item.poolName);
        }
        symbolsFor.set(j.target, set);
      }
      const done = await service.rpc("complete_outbox_batch", {
        worker: "trust-test",
        results: jobs.map((j) => ({ id: j.id, recipient: j.target })) as never,
      });
      expect(done.error).toBeNull();
    }
    const thinPool = `${asset("CFM")}/WBNB@${asset("CFM")} / WBNB 1%`;
    const plainGot = symbolsFor.get(plain.email) ?? new Set();
    const thinGot = symbolsFor.get(thinToo.email) ?? new Set();
    const confirmedGot = symbolsFor.get(confirmedOnly.email) ?? new Set();
    // Default settings: every move of the scenario but the thin pool.
    expect(plainGot.size).toBe(SCENARIO.length - 1);
    expect(plainGot.has(thinPool)).toBe(false);
    expect(thinGot.has(thinPool)).toBe(true);
    expect(thinGot.size).toBe(SCENARIO.length);
    // Confirmation required: CFM's three confirmed rows (not its thin pool) and GAP's two.
    expect([...confirmedGot].sort()).toEqual(
      [
        `${asset("CFM")}/USDT@Binance`,
        `${asset("CFM")}/USDT@Coinbase`,
        `${asset("CFM")}/WBNB@${asset("CFM")} / WBNB 0.25%`,
        `${asset("GAP")}/USDT@Binance`,
        `${asset("GAP")}/WBNB@${asset("GAP")} / WBNB 0.25%`,
      ].sort(),
    );
    // The alert names the pool of a DEX move.
    expect(pools.has(`${asset("CFM")} / WBNB 0.25%`)).toBe(true);
  });
});
