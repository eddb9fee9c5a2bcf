import { queryOptions } from "@tanstack/react-query";
import { loadSupabase } from "@/lib/supabase-loader";

/** The landing page shows at most this many gainers. */
export const MOVERS_TEASER_LIMIT = 3;

export type MoverTeaser = {
  id: string;
  symbol: string;
  exchange: string;
  pct: number;
  price: number;
  ts: string | number;
};

// Postgres `numeric` may arrive as a string; accept both, reject anything non-finite.
function finiteNumber(value: unknown): number | null {
  if (typeof value === "string" && value.trim() === "") return null;
  if (typeof value !== "number" && typeof value !== "string") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * One teaser row, checked by hand rather than with zod: the landing page is every visitor's
 * first download and zod's runtime would weigh more than the page itself. Null when malformed.
 */
export function parseMoverTeaser(value: unknown): MoverTeaser | null {
  if (typeof value !== "object" || value === null) return null;
  const row = value as Record<string, unknown>;
  const { id, symbol, exchange, ts } = row;
  const pct = finiteNumber(row.pct);
  const price = finiteNumber(row.price);
  if (typeof id !== "string" && typeof id !== "number") return null;
  if (typeof symbol !== "string" || symbol.length === 0) return null;
  if (typeof exchange !== "string") return null;
  if (typeof ts !== "string" && typeof ts !== "number") return null;
  if (pct === null || price === null) return null;
  return { id: String(id), symbol, exchange, pct, price, ts };
}

/** A list of teaser rows, or null when it is not an array or any row is malformed. */
export function parseMoverTeasers(value: unknown): MoverTeaser[] | null {
  if (!Array.isArray(value)) return null;
  const rows = value.map(parseMoverTeaser);
  return rows.every((r) => r !== null) ? (rows as MoverTeaser[]) : null;
}

/** The strongest current gainers, public teaser data (view `movers_teaser`, strongest first). */
async function getMoversTeaser(): Promise<MoverTeaser[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from("movers_teaser")
    .select("*")
    .limit(MOVERS_TEASER_LIMIT);
  if (error) throw error;
  const rows = parseMoverTeasers(data ?? []);
  if (!rows) throw new Error("movers_teaser answered rows of an unexpected shape");
  return rows.slice(0, MOVERS_TEASER_LIMIT);
}

export const landingQueries = {
  all: ["landing"] as const,
  moversTeaser: () =>
    queryOptions({
      queryKey: [...landingQueries.all, "movers-teaser"] as const,
      queryFn: getMoversTeaser,
    }),
};
