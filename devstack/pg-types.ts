// Value parsing that makes @supabase/lite's JSON match PostgREST's: numeric columns as JSON
// numbers (lite 0.10.0 keeps "10.0" as a string) and timestamps in ISO 8601 as Postgres's
// to_json renders them ("2026-11-21T06:02:23.693+00:00", not "2026-11-21 06:02:23.693+00").

/** numeric → number, as PostgREST's JSON does; NaN and ±Infinity stay strings. */
export function parseNumeric(text: string): number | string {
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

/** timestamptz / timestamp text → ISO 8601 with a `T` and a `±HH:MM` offset. */
export function parseTimestamp(text: string): string {
  if (!/^\d{4,}-\d\d-\d\d \d/.test(text)) return text; // infinity, -infinity, BC dates
  const iso = text.replace(" ", "T");
  return iso.replace(/([+-]\d\d)$/, "$1:00");
}

export const NUMERIC_OID = 1700;
export const TIMESTAMP_OID = 1114;
export const TIMESTAMPTZ_OID = 1184;

export const pgliteParsers = {
  [NUMERIC_OID]: parseNumeric,
  [TIMESTAMP_OID]: parseTimestamp,
  [TIMESTAMPTZ_OID]: parseTimestamp,
};

/**
 * lite 0.10.0 hands JSON arguments to postgres.js already as JSON text, and its own json/jsonb
 * serializer stringifies them again: an RPC's jsonb array arrived as a JSON *string* on Postgres
 * (PGlite was unaffected). Text is passed through; other values are stringified once.
 */
const serializeJson = (value: unknown) =>
  typeof value === "string" ? value : JSON.stringify(value);
const JSON_OID = 114;
const JSONB_OID = 3802;

export const postgresJsTypes = {
  json: { to: JSON_OID, from: [JSON_OID], serialize: serializeJson, parse: JSON.parse },
  jsonb: { to: JSONB_OID, from: [JSONB_OID], serialize: serializeJson, parse: JSON.parse },
  numeric: { to: NUMERIC_OID, from: [NUMERIC_OID], serialize: String, parse: parseNumeric },
  timestamp: { to: TIMESTAMP_OID, from: [TIMESTAMP_OID], serialize: String, parse: parseTimestamp },
  timestamptz: {
    to: TIMESTAMPTZ_OID,
    from: [TIMESTAMPTZ_OID],
    serialize: String,
    parse: parseTimestamp,
  },
};
