// The loop of a streaming reader (decisions 0034, 0054): holds one venue's WebSocket, parses its
// messages (`streams.ts`), hands a batch of the newest quotes per instrument to `ingest` once a
// second, and reconnects with a growing pause when the stream drops or falls silent. Runtime-
// agnostic: the WebSocket constructor is passed in (Deno's global one in a worker, `ws` in Node),
// so the loop is tested against the fake venues' streams.
import type { Quote } from "../domain/market.ts";
import {
  BINANCE_MINI_TICKER_PATH,
  coinbaseSubscriptions,
  parseBinanceMiniTickers,
  parseCoinbaseMessage,
  STREAM_BATCH_MS,
  STREAM_SILENCE_MS,
  StreamBatch,
  type StreamMessage,
} from "./streams.ts";

/** The part of the standard WebSocket the reader uses. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(): void;
}

export type SocketFactory = new (url: string) => SocketLike;

/**
 * The reader's own state, as `public.record_stream_health` stores it (decision 0061): connected
 * (the socket is open and the venue spoke within the silence limit) or dropped (closed or
 * silent; polling carries the venue while the reader reconnects).
 */
export interface StreamStatus {
  source: "binance" | "coinbase";
  state: "connected" | "dropped";
  connectedSince: string | null;
  droppedAt: string | null;
  /** Connections opened after the first. */
  reconnects: number;
  /** When the venue last sent a quote or a heartbeat (the reader's clock). */
  lastMessageAt: string | null;
  /** Quotes in the batch this report follows (0 on a state change between batches). */
  quotes: number;
  /**
   * When the unbroken run of stored events began (the connection opened, or an ingest failed and
   * its quotes were lost); null before the first connection (decision 0079).
   */
  confirmedSince: string | null;
  /**
   * The venue time of the newest event of the run whose quotes, and every earlier event's, are
   * stored: the venue's symbols the stream did not name are unchanged through then. Null until
   * the run's first event is stored; it moves only on events, so it stops when the venue stalls.
   */
  confirmedThrough: string | null;
}

export interface StreamReaderOptions {
  venue: "binance" | "coinbase";
  /** The venue's stream base URL (`BINANCE_WS_URL`, `COINBASE_WS_URL`). */
  url: string;
  WebSocket: SocketFactory;
  /** Coinbase: the products to subscribe to. */
  productIds?: readonly string[];
  /**
   * Called with the quotes of the last second (never with none), one call at a time: the seconds
   * that arrive while a call runs are handed to the next call together, newest quote per
   * instrument.
   */
  ingest(quotes: Quote[]): Promise<void>;
  /**
   * Called after every batch tick (once a second, even with no quotes) and at once when the
   * stream opens or drops, in order; a failing report is logged, the stream goes on.
   */
  report?(status: StreamStatus): Promise<void>;
  log?: (line: string) => void;
  now?: () => number;
  batchMs?: number;
  silenceMs?: number;
  /** Reconnect pauses: 1 s, doubling up to this (default 30 s). */
  maxReconnectMs?: number;
}

export interface StreamReader {
  /** True while the stream delivers (a quote or heartbeat within the silence limit). */
  live(): boolean;
  /** Connections opened so far (1 + reconnects). */
  readonly connections: number;
  /** The reader's state now, as it reports it. */
  status(): StreamStatus;
  /**
   * Seconds of quotes that waited for a running ingest and went into the next one with the
   * quotes already waiting (the database was slower than the stream).
   */
  readonly merged: number;
  stop(): Promise<void>;
}

export function startStreamReader(opts: StreamReaderOptions): StreamReader {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => {});
  const batchMs = opts.batchMs ?? STREAM_BATCH_MS;
  const silenceMs = opts.silenceMs ?? STREAM_SILENCE_MS;
  const maxPause = opts.maxReconnectMs ?? 30_000;
  const parse: (text: string) => StreamMessage = opts.venue === "binance"
    ? parseBinanceMiniTickers
    : parseCoinbaseMessage;
  const target = opts.venue === "binance"
    ? `${opts.url.replace(/\/+$/, "")}${BINANCE_MINI_TICKER_PATH}`
    : opts.url;
  const batch = new StreamBatch();
  let socket: SocketLike | null = null;
  let stopped = false;
  let connections = 0;
  let pause = 1_000;
  let reconnect: ReturnType<typeof setTimeout> | null = null;
  let flushing: Promise<void> = Promise.resolve();
  let connectedSince: number | null = null;
  let droppedAt: number | null = now();
  // The confirmation (decision 0079): the run's start, its newest stored event's venue time, and
  // the venue time of the events whose quotes wait for an ingest. `run` tells an ingest that
  // returns after a reconnect or a failure that its events belong to an earlier run.
  let run = 0;
  let confirmedSince: number | null = null;
  let confirmedThrough: number | null = null;
  let pendingThrough: number | null = null;
  const newRun = () => {
    run++;
    confirmedSince = now();
    confirmedThrough = null;
    pendingThrough = null;
  };
  const confirm = (through: number | null) => {
    if (through !== null) confirmedThrough = Math.max(confirmedThrough ?? through, through);
  };

  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const status = (quotes = 0): StreamStatus => ({
    source: opts.venue,
    state: connectedSince !== null ? "connected" : "dropped",
    connectedSince: iso(connectedSince),
    droppedAt: connectedSince !== null ? null : iso(droppedAt ?? now()),
    reconnects: Math.max(connections - 1, 0),
    lastMessageAt: iso(batch.lastMessageAt),
    quotes,
    confirmedSince: iso(confirmedSince),
    confirmedThrough: iso(confirmedThrough),
  });
  // One ingest at a time, and never a queue of them (decision 0063): the quotes of the seconds
  // that arrive while an ingest runs wait in one pending set, the newest quote per instrument,
  // and go to the next ingest together. A database slower than the stream (an ingest taking
  // longer than a second) then costs each quote at most one ingest's wait, instead of a backlog
  // that grows by a second every second (the old queue: quotes reached the database 20-50 s
  // late under load, which the freshness bench measured as a 20-27 s p95).
  const pending = new Map<string, Quote>();
  let merged = 0;
  let ingesting = false;
  const drain = async () => {
    ingesting = true;
    try {
      while (pending.size > 0) {
        const quotes = [...pending.values()];
        const through = pendingThrough;
        const ofRun = run;
        pending.clear();
        pendingThrough = null;
        const stored = await opts.ingest(quotes).then(
          () => true,
          (err: unknown) => {
            log(`[stream] ${opts.venue}: ingest failed: ${(err as Error).message}`);
            return false;
          },
        );
        // Stored: the venue is confirmed through these events. Lost: the run is broken, the
        // confirmation starts again (it holds only after the venue's next full poll).
        if (!stored) newRun();
        else if (ofRun === run) confirm(through);
      }
      // Events without quotes that arrived meanwhile: everything before them is stored now.
      confirm(pendingThrough);
      pendingThrough = null;
    } finally {
      ingesting = false;
    }
  };
  const hand = (quotes: Quote[], through: number | null) => {
    if (through !== null) pendingThrough = Math.max(pendingThrough ?? through, through);
    if (quotes.length === 0) {
      // Nothing to store: with no ingest waiting or running, the events confirm at once.
      if (!ingesting && pending.size === 0) {
        confirm(pendingThrough);
        pendingThrough = null;
      }
      return;
    }
    if (ingesting) merged++;
    for (const q of quotes) {
      const held = pending.get(q.venueKey);
      if (!held || Date.parse(held.ts) <= Date.parse(q.ts)) pending.set(q.venueKey, q);
    }
    if (!ingesting) flushing = drain();
  };
  // Reports have their own queue, so a slow ingest never makes the stored state lag behind the
  // stream; each report is taken when it is sent (the newest message time), in order.
  // A report waiting to be sent absorbs the next ones (the database is slow: never a backlog).
  let reporting: Promise<void> = Promise.resolve();
  let waiting: { quotes: number } | null = null;
  const report = (quotes = 0) => {
    if (!opts.report) return;
    if (waiting) {
      waiting.quotes = Math.max(waiting.quotes, quotes);
      return;
    }
    const next = (waiting = { quotes });
    reporting = reporting.then(() => {
      waiting = null;
      return opts.report!(status(next.quotes)).catch((err: unknown) =>
        log(`[stream] ${opts.venue}: health report failed: ${(err as Error).message}`)
      );
    });
  };
  const dropped = () => {
    if (connectedSince === null) return;
    connectedSince = null;
    droppedAt = now();
    report();
  };

  const connect = () => {
    if (stopped) return;
    connections++;
    const ws = new opts.WebSocket(target);
    socket = ws;
    ws.onopen = () => {
      pause = 1_000;
      newRun();
      // A stream just opened gets the full silence allowance before it must say something.
      batch.add({ quotes: [], heartbeat: true, skipped: 0 }, now());
      connectedSince = now();
      droppedAt = null;
      report();
      if (opts.venue === "coinbase") {
        for (const m of coinbaseSubscriptions(opts.productIds ?? [])) ws.send(m);
      }
    };
    ws.onmessage = (ev) => {
      const text = typeof ev.data === "string" ? ev.data : String(ev.data);
      batch.add(parse(text), now());
    };
    ws.onerror = () => {};
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      if (stopped) return;
      dropped();
      log(
        `[stream] ${opts.venue}: the stream closed; polling carries it, reconnecting in ${pause} ms`,
      );
      reconnect = setTimeout(connect, pause);
      pause = Math.min(pause * 2, maxPause);
    };
  };

  const timer = setInterval(() => {
    const quotes = batch.take();
    hand(quotes, batch.takeThrough());
    // Silent too long while connected: a dead socket that never said so. Drop it and reconnect.
    if (socket && connections > 0 && !batch.live(now(), silenceMs) && socket.readyState === 1) {
      dropped();
      socket.close();
    } else {
      report(quotes.length);
    }
  }, batchMs);

  connect();
  return {
    live: () => batch.live(now(), silenceMs),
    get connections() {
      return connections;
    },
    get merged() {
      return merged;
    },
    status: () => status(),
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      if (reconnect) clearTimeout(reconnect);
      socket?.close();
      socket = null;
      await flushing;
      await reporting;
    },
  };
}
