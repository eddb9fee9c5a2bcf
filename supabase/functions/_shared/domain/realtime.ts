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

/** One entry of a movers broadcast: the same shape `movers_feed(window)` returns. */
export interface MoverEntry {
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
