/**
 * Page state in the address (decision 0045): parse a query parameter into a valid value or the
 * page's default (an invalid value falls back silently), and write changes so that a default
 * leaves the address (a clean `/dashboard` when nothing is set).
 */

type Params = Pick<URLSearchParams, "get">;

/** One of `allowed`, or the fallback when missing or unknown. */
export function readEnum<T extends string>(
  params: Params,
  key: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = params.get(key);
  return raw !== null && (allowed as readonly string[]).includes(raw) ? (raw as T) : fallback;
}

/** A finite number within [min, max] (integers only when `integer`), else the fallback. */
export function readNumber(
  params: Params,
  key: string,
  { min, max, integer = false }: { min: number; max: number; integer?: boolean },
  fallback: number,
): number {
  const raw = params.get(key);
  if (raw === null || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) return fallback;
  if (integer && !Number.isInteger(value)) return fallback;
  return value;
}

/** Free text (a search), trimmed to `maxLength`; missing is "". */
export function readText(params: Params, key: string, maxLength = 100): string {
  return (params.get(key) ?? "").slice(0, maxLength);
}

/** A comma-separated list: trimmed, empty items and duplicates dropped, at most `maxItems`. */
export function readList(params: Params, key: string, maxItems = 50): string[] {
  const raw = params.get(key);
  if (!raw) return [];
  const items = raw
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  return [...new Set(items)].slice(0, maxItems);
}

export type ParamValue = string | number | boolean | readonly string[] | null | undefined;

/**
 * A copy of `params` with `changes` applied. A change to null, undefined, "", an empty list or
 * the value in `defaults` removes the key; lists are written comma-separated. Other keys stay.
 */
export function withParams(
  params: URLSearchParams,
  changes: Record<string, ParamValue>,
  defaults: Record<string, ParamValue> = {},
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    const text = serialize(value);
    if (text === "" || text === serialize(defaults[key])) next.delete(key);
    else next.set(key, text);
  }
  return next;
}

function serialize(value: ParamValue): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.join(",");
  return String(value);
}
