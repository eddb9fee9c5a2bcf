/**
 * The live streams: Realtime topics, events and payload shapes.
 *
 * Every stream is a private Supabase Realtime channel fed by *Broadcast from Database*
 * (triggers calling `realtime.broadcast_changes` / `realtime.send`) and authorised by the
 * policies on `realtime.messages` (migration 20261121000700, decision 0008).
 *
 * Runtime-agnostic: imported by the edge functions (Deno), the SPA (alias `@domain`) and the
 * local stack's tests. No Deno, Node or DOM globals, no dependencies.
 */

/** Windows in minutes a movers topic exists for (0 is the 10-second window). */
export const MOVERS_TOPIC_WINDOWS = [0, 5, 10, 15, 20, 25, 30] as const;
export type MoversTopicWindow = (typeof MOVERS_TOPIC_WINDOWS)[number];

/** Group chat: `group:<group uuid>`, members only. */
export function groupTopic(groupId: string): string {
  return `group:${groupId}`;
}

/** A support ticket's thread and status: `ticket:<ticket uuid>`, its owner and admins only. */
export function ticketTopic(ticketId: string): string {
  return `ticket:${ticketId}`;
}

/** A ticket's internal notes: `ticket-notes:<ticket uuid>`, admins only (migration 20261124200000). */
export function ticketNotesTopic(ticketId: string): string {
  return `ticket-notes:${ticketId}`;
}

/** The admins' support desk: which ticket changed (event `desk`, no content), admins only. */
export const SUPPORT_DESK_TOPIC = "support:desk";
export const SUPPORT_DESK_EVENT = "desk";

/**
 * The movers of one window: `market:movers:<minutes>`. Only active paid subscribers whose plan
 * offers that window may join, so a basic subscriber cannot receive the other windows.
 */
export function moversTopic(windowMinutes: number): string {
  return `market:movers:${windowMinutes}`;
}

/** Events of `broadcast_changes` (the event name is the operation). */
export const CHANGE_EVENTS = ["INSERT", "UPDATE", "DELETE"] as const;
export type ChangeEvent = (typeof CHANGE_EVENTS)[number];

/** The payload `realtime.broadcast_changes` sends. */
export interface BroadcastChange<Row> {
  schema: string;
  table: string;
  operation: ChangeEvent;
  /** The new row (INSERT, UPDATE), otherwise null. */
  record: Row | null;
  /** The old row (UPDATE, DELETE), otherwise null. */
  old_record: Row | null;
}

/**
 * Whether a payload looks like what `realtime.broadcast_changes` sends: an object with a `table`
 * and one of the `CHANGE_EVENTS` as `operation`. Rows are not checked; stream messages come from
 * the network, so whoever reads `record` or `old_record` checks the fields it needs.
 */
export function isBroadcastChange(payload: unknown): payload is BroadcastChange<unknown> {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return false;
  const { table, operation } = payload as Record<string, unknown>;
  return (
    typeof table === "string" &&
    typeof operation === "string" &&
    (CHANGE_EVENTS as readonly string[]).includes(operation)
  );
}

/** Event name of a scan's movers on `market:movers:<window>`. */
export const MOVERS_EVENT = "movers";

/**
 * Manipulation flags of a move (decision 0046): the price moved but 24 h volume did not rise with
 * it within the window; a DEX pool created less than 24 h ago; pool liquidity that fell by half or
 * more within the window; a DEX price far from the same asset's CEX price; 24 h volume many times
 * the pool's liquidity.
 */
export const MOVER_FLAGS = [
  "no_volume_rise",
  "young_pool",
  "pulled_pool",
  "dex_cex_gap",
  "wash_volume",
] as const;
export type MoverFlag = (typeof MOVER_FLAGS)[number];

/** Whether a value is one of the `MOVER_FLAGS`. */
export function isMoverFlag(value: unknown): value is MoverFlag {
  return typeof value === "string" && (MOVER_FLAGS as readonly string[]).includes(value);
}

/**
 * What makes a move trustworthy (issue 26, decision 0046); every mover row carries all of it,
 * null where the venue gives no such figure.
 */
export interface MoverTrustFields {
  /** 24 h quote volume in USD (CEX) or the pool's 24 h volume in USD (DEX). */
  volume_24h_usd: number | null;
  /** DEX pool reserve in USD; null for CEX. */
  liquidity_usd: number | null;
  /** (ask - bid) / mid * 100 where the venue gives a book ticker, else null. */
  spread_pct: number | null;
  /** Below the floor for its venue type (decision 0046). */
  thin: boolean;
  /** The OTHER venues (exchange display names) where the same asset moved the same way in the window. */
  confirmed_on: string[];
  /** Reason codes, empty when none. */
  flags: MoverFlag[];
  /** Integer 0..100. */
  trust_score: number;
  /** Grouping key: base asset upper-cased, wrapped natives normalised (WBNB -> BNB, WETH -> ETH). */
  asset: string;
  /** The DEX pool's own name with its fee tier ("SFP / WBNB 0.25%"); null for CEX. */
  pool_name: string | null;
}

/** One entry of a movers broadcast: the same shape `movers_feed(window)` returns. */
export interface MoverEntry extends MoverTrustFields {
  id: number;
  instrument_id: number;
  symbol: string;
  exchange: string;
  exchange_type: "cex" | "dex";
  network: string | null;
  source: string;
  pool_url: string | null;
  price: number;
  price_3hour_ago: number | null;
  pct: number;
  window_used: number;
  pct_3hour: number | null;
  volume_24h: number | null;
  /** When the ingest that wrote this row ran. */
  ts: string;
  /** The venue's own time of the quote (decision 0033); absent in rows from before it. */
  quoted_at?: string;
  /**
   * Through when the venue confirmed the price (decision 0079), as `movers_feed` read it; absent
   * in broadcasts (the dashboard applies the venue's confirmation itself, `confirmedTime`).
   */
  confirmed_at?: string;
}

/** The quote's time on the venue's clock, else the ingest's. */
export function quoteTime(entry: Pick<MoverEntry, "ts" | "quoted_at">): string {
  return entry.quoted_at ?? entry.ts;
}

/** Payload of a `movers` event: the scan's top movers for one window, strongest first. */
export interface MoversBroadcast {
  window: number;
  scanned_at: string;
  entries: MoverEntry[];
}

/** The landing strip's topic: every scan sends the teaser here; anyone may receive it. */
export const TEASER_TOPIC = "market:teaser";
/** Event name of the teaser on `market:teaser`. */
export const TEASER_EVENT = "teaser";

/** One row of `movers_teaser`: the three strongest current gainers. */
export interface TeaserEntry {
  id: number;
  symbol: string;
  exchange: string;
  pct: number;
  price: number;
  ts: string;
}

/** Payload of a `teaser` event: the whole strip, strongest first. */
export interface TeaserBroadcast {
  scanned_at: string;
  entries: TeaserEntry[];
}

/** The live list keeps at most this many entries (specification section 9). */
export const LIVE_LIST_CAP = 100;
