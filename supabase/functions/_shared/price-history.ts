// One instrument's price history, oldest first, two ways:
// - `readPriceHistory`: every sample since a time, read from the table in pages (the scan's
//   signals step, service role only: API roles cannot read price_history). The Data API answers
//   at most `max_rows` rows per request (1,000 on Supabase and locally), and 3 hours at a scan
//   every 10 s is 1,080 samples. The first page asks for the exact count, so a server with a
//   smaller `max_rows` is read to the end as well.
// - `readPlanPriceHistory`: what a subscriber may see, `price_history_for(instrument)`: the last
//   3 hours as each 5-minute bucket's open/high/low/close samples, at most 144 rows (the /api
//   layer, with the caller's token; decision 0016).
import type { PostgrestError } from "@supabase/supabase-js";
import type { Db } from "./clients.ts";

export interface PriceHistoryRow {
  ts: string;
  price: number | string;
  volume_24h: number | string | null;
}

/** Rows asked for per page: Supabase's default `max_rows`. */
export const HISTORY_PAGE = 1000;
/** At most this many pages (20,000 samples: 3 hours at a scan every 0.54 s). */
export const HISTORY_MAX_PAGES = 20;

/** The rows read, or the first error with its HTTP status (the caller maps it). */
export async function readPriceHistory(
  client: Db,
  instrumentId: number,
  sinceIso: string,
): Promise<{ rows: PriceHistoryRow[]; error: PostgrestError | null; status: number }> {
  const rows: PriceHistoryRow[] = [];
  let total: number | null = null;
  for (let page = 0; page < HISTORY_MAX_PAGES; page++) {
    const from = rows.length;
    const { data, error, status, count } = await client
      .from("price_history")
      .select("ts, price, volume_24h", page === 0 ? { count: "exact" } : undefined)
      .eq("instrument_id", instrumentId)
      .gte("ts", sinceIso)
      .order("ts", { ascending: true })
      .range(from, from + HISTORY_PAGE - 1);
    if (error) return { rows, error, status };
    if (page === 0) total = count ?? null;
    const got = (data ?? []) as PriceHistoryRow[];
    rows.push(...got);
    // Done when every counted row is here, or (no count) when a page comes back short.
    if (got.length === 0) break;
    if (total !== null ? rows.length >= total : got.length < HISTORY_PAGE) break;
  }
  return { rows, error: null, status: 200 };
}

/** `price_history_for(instrument)` as the caller: its rows, or the error with its HTTP status. */
export async function readPlanPriceHistory(
  client: Db,
  instrumentId: number,
): Promise<{ rows: PriceHistoryRow[]; error: PostgrestError | null; status: number }> {
  const { data, error, status } = await client.rpc("price_history_for", {
    instrument: instrumentId,
  });
  if (error) return { rows: [], error, status };
  return { rows: (data ?? []) as PriceHistoryRow[], error: null, status };
}
