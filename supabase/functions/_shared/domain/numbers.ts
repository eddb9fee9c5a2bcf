/**
 * Numbers as they arrive from JSON APIs and PostgREST, where Postgres `numeric` may come as text.
 * Runtime-agnostic: used by the market adapters, the /api layer and the SPA.
 */

/** A finite number from a JSON number or numeric text; null for anything else (blank text too). */
export function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}
