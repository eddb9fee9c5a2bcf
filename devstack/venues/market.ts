// The moving market behind the fake venues: the recorded payloads of tests/fixtures/market as
// templates (their shapes and field names are the real APIs'), each tradable instrument's price
// walking a little every tick (now and then a jump of a few percent, so movers appear), and the
// instruments that do not trade (delisted, halted, disabled) frozen as recorded.
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../deno.ts";

export const FIXTURES_DIR = path.join(ROOT, "tests/fixtures/market");

/** The GeckoTerminal networks the fake serves (the adapter's rotation). */
export const FAKE_DEX_NETWORKS = ["eth", "base", "solana", "bsc", "arbitrum"] as const;

type Row = Record<string, unknown>;

export function loadFixture(name: string): unknown {
  return JSON.parse(readFileSync(path.join(FIXTURES_DIR, `${name}.json`), "utf8"));
}

/** A small seeded generator (mulberry32), so a run can be repeated. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One instrument's moving price. */
export interface Walker {
  price: number;
  open: number;
  high: number;
  low: number;
  /** Venue time (ms) of the last change. */
  changedAt: number;
}

/** One second of a price's walk, as a factor: a small step, and one time in 40 a jump of 2–6 %. */
function walkStep(random: () => number): number {
  const r = random();
  const jump = r < 0.025 ? (random() < 0.5 ? -1 : 1) * (0.02 + random() * 0.04) : 0;
  const small = (random() - 0.5) * 0.004;
  return 1 + small + jump;
}

function walker(price: number, at: number): Walker {
  return { price, open: price, high: price, low: price, changedAt: at };
}

/** Digits as the venue prints them: as many decimals as the recorded price had (at least 2). */
function decimalsOf(text: string): number {
  const dot = text.indexOf(".");
  return dot < 0 ? 2 : Math.max(2, text.length - dot - 1);
}

function num(value: unknown): number | null {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

export interface MarketOptions {
  seed?: number;
  /** Extra synthetic instruments per venue (copies of a recorded row under new names), for load. */
  extra?: number;
  /**
   * Pages of each network's trending pools the fake GeckoTerminal serves (default 3, at most 10,
   * decision 0091): page 1 is the recorded page; each later page holds the recorded rows again
   * as other pools (their own addresses, a price of their own); pages beyond are empty.
   */
  dexPages?: number;
}

/**
 * The three venues' instruments. `move(now)` walks every tradable price once and returns the keys
 * that changed (all of them: a real venue's busy instruments change every second).
 */
export class FakeMarket {
  readonly binance: { row: Row; walk: Walker | null; decimals: number }[] = [];
  readonly coinbase: { row: Row; walk: Walker | null; decimals: number }[] = [];
  /** Per network: the recorded page 1 (`pools`) and the later pages (`more[0]` is page 2). */
  readonly dex = new Map<
    string,
    {
      body: Row;
      pools: { row: Row; walk: Walker | null }[];
      more: { row: Row; walk: Walker | null }[][];
    }
  >();
  /** When the walks began (ms): every tradable price is its recorded one then. */
  readonly startedAt: number;
  readonly #seed: number;
  #random: () => number;

  constructor(now: number, opts: MarketOptions = {}) {
    this.startedAt = now;
    this.#seed = opts.seed ?? 25;
    this.#random = seeded(this.#seed);
    const extra = Math.max(0, opts.extra ?? 0);
    // Binance: the recorded 24 h ticker's well-formed rows (the fixture's malformed rows exist to
    // test the parser; a real answer has none).
    const tickers = (loadFixture("binance-ticker-24hr") as Row[]).filter(
      (r) => typeof r.symbol === "string" && num(r.lastPrice) !== null,
    );
    for (const row of tickers) {
      const price = num(row.lastPrice)!;
      const trading = price > 0 && (num(row.quoteVolume) ?? 0) > 0;
      this.binance.push({
        row,
        walk: trading ? walker(price, now) : null,
        decimals: decimalsOf(String(row.lastPrice)),
      });
    }
    const btc = tickers.find((r) => r.symbol === "DOGEUSDT") ?? tickers[1]!;
    for (let i = 0; i < extra; i++) {
      const row = { ...btc, symbol: `FAKE${i}USDT` };
      this.binance.push({ row, walk: walker(0.1 + (i % 97) / 10, now), decimals: 6 });
    }
    // Coinbase: the product list's rows.
    const products = (loadFixture("coinbase-products") as { products: Row[] }).products.filter(
      (r) => typeof r.product_id === "string",
    );
    for (const row of products) {
      const price = num(row.price);
      const trading =
        price !== null &&
        price > 0 &&
        row.status === "online" &&
        row.trading_disabled !== true &&
        row.is_disabled !== true &&
        !row.alias;
      this.coinbase.push({
        row,
        walk: trading ? walker(price, now) : null,
        decimals: decimalsOf(String(row.price ?? "0.00")),
      });
    }
    const usd = products.find((r) => r.product_id === "DOGE-USD") ?? products[0]!;
    for (let i = 0; i < extra; i++) {
      const row = {
        ...usd,
        product_id: `FAKE${i}-USD`,
        base_currency_id: `FAKE${i}`,
        display_name: `FAKE${i}-USD`,
        base_display_symbol: `FAKE${i}`,
        alias_to: [],
      };
      this.coinbase.push({ row, walk: walker(0.1 + (i % 89) / 10, now), decimals: 6 });
    }
    // GeckoTerminal: one recorded trending-pools page per network.
    for (const network of FAKE_DEX_NETWORKS) {
      const body = loadFixture(`geckoterminal-trending-${network}`) as Row;
      const pools = (body.data as Row[]).map((row) => {
        const attrs = (row.attributes ?? {}) as Row;
        const price = num(attrs.base_token_price_usd);
        return { row, walk: price !== null && price > 0 ? walker(price, now) : null };
      });
      const more: { row: Row; walk: Walker | null }[][] = [];
      for (let page = 2; page <= Math.min(10, Math.max(1, opts.dexPages ?? 3)); page++) {
        more.push(
          pools.map(({ row, walk }) => {
            const attrs = (row.attributes ?? {}) as Row;
            const address =
              typeof attrs.address === "string" ? pageAddress(attrs.address, page) : attrs.address;
            // Another pool of the pair: its own address and a price 1 % a page away.
            const price = walk ? walk.price * (1 + 0.01 * (page - 1)) : null;
            return {
              row: {
                ...row,
                id: typeof row.id === "string" ? `${network}_${address}` : row.id,
                attributes: {
                  ...attrs,
                  address,
                  ...(price === null ? {} : { base_token_price_usd: priceText(price, 10) }),
                },
              },
              walk: price === null ? null : walker(price, now),
            };
          }),
        );
      }
      this.dex.set(network, { body, pools, more });
    }
  }

  /**
   * The DEX pools' past before `startedAt` (decision 0086): the same walk as `move`, once a
   * second, run backwards from each pool's recorded price with a generator of its own (so the
   * live walk is what it would be without it), sampled every `stepMs`. `stamps` are oldest first
   * and end at `startedAt`; `prices` per network and pool (null: a pool that does not trade).
   */
  dexPast(
    spanMs: number,
    stepMs = 10_000,
  ): {
    stamps: number[];
    prices: Map<string, (number[] | null)[]>;
  } {
    const random = seeded(this.#seed + 1);
    const steps = Math.max(0, Math.floor(spanMs / stepMs));
    const stamps = Array.from(
      { length: steps + 1 },
      (_, i) => this.startedAt - (steps - i) * stepMs,
    );
    const perSample = Math.max(1, Math.round(stepMs / 1000));
    const prices = new Map<string, (number[] | null)[]>();
    for (const [network, { pools }] of this.dex) {
      prices.set(
        network,
        pools.map(({ row, walk }) => {
          if (!walk) return null;
          const recorded = num(((row.attributes ?? {}) as Row).base_token_price_usd)!;
          const path = [recorded];
          let price = recorded;
          for (let k = 0; k < steps; k++) {
            for (let j = 0; j < perSample; j++) {
              price = Math.max(price / walkStep(random), Number.MIN_VALUE);
            }
            path.push(price);
          }
          return path.reverse();
        }),
      );
    }
    return { stamps, prices };
  }

  /** Moves every tradable price once: a small step, and one time in 40 a jump of 2–6 %. */
  move(now: number): void {
    const step = (w: Walker | null) => {
      if (!w) return;
      w.price = Math.max(w.price * walkStep(this.#random), Number.MIN_VALUE);
      w.high = Math.max(w.high, w.price);
      w.low = Math.min(w.low, w.price);
      w.changedAt = now;
    };
    for (const b of this.binance) step(b.walk);
    for (const c of this.coinbase) step(c.walk);
    for (const { pools } of this.dex.values()) for (const p of pools) step(p.walk);
    // The later pages after every recorded instrument: page 1's walks are those of a market
    // without them.
    for (const { more } of this.dex.values())
      for (const page of more) for (const p of page) step(p.walk);
  }
}

/** A pool address for a later page: the recorded one with its last characters naming the page. */
export function pageAddress(address: string, page: number): string {
  const tag = `pg${page.toString(36)}`;
  return address.slice(0, address.length - tag.length) + tag;
}

/** A price as text with the instrument's own precision (never exponent notation). */
export function priceText(price: number, decimals: number): string {
  // Tiny prices (PEPE at 0.0000108) need more digits than their recorded text to keep moving.
  const size = Math.abs(price);
  const extra = size > 0 && size < 1 ? 8 - Math.floor(Math.log10(size)) : 0;
  return price.toFixed(Math.min(20, Math.max(decimals, extra)));
}
