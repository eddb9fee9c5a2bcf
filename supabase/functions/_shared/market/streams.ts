// The streaming side of the venues (decisions 0034, 0054): parsers for Binance's
// `!miniTicker@arr` stream and Coinbase's Advanced Trade `ticker` + `heartbeats` channels, a
// batcher that turns a second of messages into one ingest (the newest quote per instrument, with
// the venue's own event time), and the liveness rule that hands a venue back to polling. Pure:
// no sockets here, so the parsers are tested on recorded shapes and reused by whichever worker
// holds the socket.
import { cexVenueKey, type Quote } from "../domain/market.ts";
import { parseJson } from "../json.ts";
import { spreadPct } from "../domain/trust.ts";
import { binanceTradeUrl, splitBinanceSymbol } from "./binance.ts";
import { COINBASE_QUOTES, coinbaseTradeUrl } from "./coinbase.ts";
import { isRecord, toNumber } from "./http.ts";

/** The Binance stream path of every changed symbol once a second (combined-stream form). */
export const BINANCE_MINI_TICKER_PATH = "/stream?streams=!miniTicker@arr";
/** No message and no heartbeat for this long: the stream is dead and polling carries the venue. */
export const STREAM_SILENCE_MS = 5_000;
/** One ingest per this many ms of stream messages. */
export const STREAM_BATCH_MS = 1_000;

/** What a message came to: quotes, a heartbeat (alive, nothing to store), or something else. */
export interface StreamMessage {
  quotes: Quote[];
  heartbeat: boolean;
  /** Rows of the message that were not the documented shape. */
  skipped: number;
  /**
   * The message's time on the venue's clock (ms), when it carries one: Binance's newest event
   * time `E`, Coinbase's `timestamp` (tickers and heartbeats). Through then the venue published
   * nothing the message (and the ones before it) did not carry (decision 0079).
   */
  at?: number;
}

const EMPTY: StreamMessage = Object.freeze({ quotes: [], heartbeat: false, skipped: 0 });

/**
 * A `!miniTicker@arr` message, raw (`[…]`) or combined (`{ stream, data: […] }`). Each row gives
 * the symbol `s`, close price `c`, 24 h quote volume `q` and the event time `E` (the venue's
 * clock, ms): a complete quote for pairs quoted in a dollar stablecoin.
 */
export function parseBinanceMiniTickers(text: string): StreamMessage {
  const body = parseJson(text);
  const rows = Array.isArray(body)
    ? body
    : isRecord(body) && Array.isArray(body.data)
    ? body.data
    : null;
  if (!rows) return EMPTY;
  const quotes: Quote[] = [];
  let skipped = 0;
  let newest = 0;
  for (const row of rows) {
    const price = isRecord(row) ? toNumber(row.c) : null;
    const volume = isRecord(row) ? toNumber(row.q) : null;
    const at = isRecord(row) ? toNumber(row.E) : null;
    if (
      !isRecord(row) || row.e !== "24hrMiniTicker" || typeof row.s !== "string" ||
      price === null || price <= 0 || at === null || at <= 0
    ) {
      skipped++;
      continue;
    }
    newest = Math.max(newest, at);
    const pair = splitBinanceSymbol(row.s);
    if (!pair) continue;
    const [base, quote] = pair;
    const symbol = `${base}/${quote}`;
    quotes.push({
      venueKey: cexVenueKey("Binance", symbol),
      symbol,
      exchange: "Binance",
      exchangeType: "cex",
      network: null,
      source: "binance",
      selection: "cex-major",
      poolUrl: binanceTradeUrl(base, quote),
      price,
      volume24h: volume !== null && volume >= 0 ? volume : null,
      ts: new Date(at).toISOString(),
      volume24hUsd: volume !== null && volume >= 0 ? volume : null,
    });
  }
  return { quotes, heartbeat: false, skipped, ...(newest > 0 ? { at: newest } : {}) };
}

/** The Coinbase subscriptions a reader sends: the ticker of `productIds`, and heartbeats. */
export function coinbaseSubscriptions(productIds: readonly string[]): string[] {
  return [
    JSON.stringify({ type: "subscribe", channel: "heartbeats" }),
    JSON.stringify({ type: "subscribe", channel: "ticker", product_ids: [...productIds] }),
  ];
}

/**
 * A Coinbase Advanced Trade message: `ticker` events (snapshot and updates) become quotes stamped
 * with the message's `timestamp`; `heartbeats` keep the stream alive; anything else is neither.
 */
export function parseCoinbaseMessage(text: string): StreamMessage {
  const body = parseJson(text);
  if (!isRecord(body)) return EMPTY;
  const at = typeof body.timestamp === "string" ? Date.parse(body.timestamp) : Number.NaN;
  if (body.channel === "heartbeats") {
    return { quotes: [], heartbeat: true, skipped: 0, ...(Number.isFinite(at) ? { at } : {}) };
  }
  if (body.channel !== "ticker" || !Array.isArray(body.events)) return EMPTY;
  if (!Number.isFinite(at)) return { quotes: [], heartbeat: false, skipped: 1 };
  const ts = new Date(at).toISOString();
  const quotes: Quote[] = [];
  let skipped = 0;
  for (const event of body.events) {
    const tickers = isRecord(event) && Array.isArray(event.tickers) ? event.tickers : [];
    for (const t of tickers) {
      const id = isRecord(t) && typeof t.product_id === "string" ? t.product_id : null;
      const match = id ? /^([A-Z0-9]{1,20})-([A-Z0-9]{2,10})$/.exec(id) : null;
      const price = isRecord(t) ? toNumber(t.price) : null;
      if (!id || !match || price === null || price <= 0) {
        skipped++;
        continue;
      }
      const [, base, quote] = match as unknown as [string, string, string];
      if (!COINBASE_QUOTES.has(quote)) continue;
      const baseVolume = toNumber((t as Record<string, unknown>).volume_24_h);
      const volume = baseVolume !== null && baseVolume >= 0 ? baseVolume * price : null;
      const symbol = `${base}/${quote}`;
      quotes.push({
        venueKey: cexVenueKey("Coinbase", symbol),
        symbol,
        exchange: "Coinbase",
        exchangeType: "cex",
        network: null,
        source: "coinbase",
        selection: "coinbase",
        poolUrl: coinbaseTradeUrl(id),
        price,
        volume24h: volume,
        ts,
        volume24hUsd: volume,
        spreadPct: spreadPct(
          toNumber((t as Record<string, unknown>).best_bid),
          toNumber((t as Record<string, unknown>).best_ask),
        ),
      });
    }
  }
  return { quotes, heartbeat: false, skipped, at };
}

/**
 * A second of stream messages as one ingest: the newest quote per instrument (by venue time).
 * `take()` empties it; the reader calls it every `STREAM_BATCH_MS`.
 */
export class StreamBatch {
  #quotes = new Map<string, Quote>();
  #lastMessageAt = Number.NEGATIVE_INFINITY;
  #through: number | null = null;

  /** Records a parsed message received at `receivedAt` (ms, our clock). */
  add(message: StreamMessage, receivedAt: number): void {
    if (message.quotes.length > 0 || message.heartbeat) {
      this.#lastMessageAt = receivedAt;
      if (message.at !== undefined && Number.isFinite(message.at)) {
        this.#through = Math.max(this.#through ?? message.at, message.at);
      }
    }
    for (const q of message.quotes) {
      const held = this.#quotes.get(q.venueKey);
      if (!held || Date.parse(held.ts) <= Date.parse(q.ts)) this.#quotes.set(q.venueKey, q);
    }
  }

  /** When the stream last said something (a quote or a heartbeat), or null before it did. */
  get lastMessageAt(): number | null {
    return Number.isFinite(this.#lastMessageAt) ? this.#lastMessageAt : null;
  }

  /**
   * The newest venue time of the messages added since the last call (null when none carried
   * one): once the quotes taken with it are stored, the venue is confirmed through it.
   */
  takeThrough(): number | null {
    const through = this.#through;
    this.#through = null;
    return through;
  }

  /** The quotes gathered since the last call (empty when nothing arrived). */
  take(): Quote[] {
    const quotes = [...this.#quotes.values()];
    this.#quotes.clear();
    return quotes;
  }

  /**
   * True while the stream is live: a quote or a heartbeat within `STREAM_SILENCE_MS`. A reader
   * whose stream is not live leaves the venue to its polling schedule and reconnects.
   */
  live(now: number, silenceMs = STREAM_SILENCE_MS): boolean {
    return now - this.#lastMessageAt < silenceMs;
  }
}
