// Stripe's request encoding: application/x-www-form-urlencoded with bracket notation, as the
// official SDKs send it (`metadata[user_id]=…`, `line_items[0][price]=…`, `expand[]=…`), parsed
// into the nested objects and arrays it stands for.

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const INDEX = /^(0|[1-9]\d{0,3})$/;

/** `a[b][0]` → ["a", "b", "0"]; a key with unbalanced brackets is taken literally. */
function keyPath(key: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) return [key];
  const rest = [...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((s) => s[1]!);
  return [m[1]!, ...rest];
}

function isContainer(v: FormValue | undefined): v is FormValue[] | FormObject {
  return typeof v === "object" && v !== null;
}

/**
 * Parses a form body (or a query string) in Stripe's bracket notation. Segments that are
 * indices (`[0]`) or empty (`[]`) build arrays, except directly under `metadata`, whose keys are
 * free-form strings. Later values win over earlier ones for the same key.
 */
export function parseStripeForm(input: string | URLSearchParams): FormObject {
  const params = typeof input === "string" ? new URLSearchParams(input) : input;
  const root: FormObject = {};
  for (const [key, value] of params) {
    const path = keyPath(key);
    if (path.some((s) => UNSAFE_KEYS.has(s))) continue;
    let node: FormObject | FormValue[] = root;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i]!;
      const last = i === path.length - 1;
      const arrayNode = Array.isArray(node);
      if (arrayNode && seg !== "" && !INDEX.test(seg)) break; // `a[0]=x&a[k]=y`: drop the odd one
      const size = Array.isArray(node) ? node.length : Object.keys(node).length;
      const slot: string | number = seg === "" ? size : arrayNode ? Number(seg) : seg;
      if (last) {
        (node as Record<string | number, FormValue>)[slot] = value;
        break;
      }
      const next = path[i + 1]!;
      const wantArray = seg !== "metadata" && (next === "" || INDEX.test(next));
      let child: FormValue | undefined = (node as Record<string | number, FormValue>)[slot];
      if (!isContainer(child)) {
        child = wantArray ? [] : {};
        (node as Record<string | number, FormValue>)[slot] = child;
      }
      node = child as FormObject | FormValue[];
    }
  }
  return compact(root) as FormObject;
}

/** Drops the holes a sparse index (`a[0]`, `a[2]`) leaves in an array. */
function compact(v: FormValue): FormValue {
  if (Array.isArray(v)) return v.filter(() => true).map(compact);
  if (isContainer(v)) {
    const out: FormObject = {};
    for (const [k, x] of Object.entries(v)) out[k] = compact(x);
    return out;
  }
  return v;
}

/** Reads a request body as Stripe does: form-encoded (what the SDKs send) or JSON. */
export async function readParams(req: Request): Promise<FormObject> {
  const url = new URL(req.url);
  const query = parseStripeForm(url.searchParams);
  if (req.method === "GET" || req.method === "HEAD") return query;
  const text = await req.text();
  if (!text) return query;
  const type = req.headers.get("content-type") ?? "";
  if (type.includes("application/json")) {
    const body = JSON.parse(text) as unknown;
    if (typeof body !== "object" || body === null || Array.isArray(body)) return query;
    return { ...query, ...stringify(body as Record<string, unknown>) };
  }
  return { ...query, ...parseStripeForm(text) };
}

/** JSON bodies carry numbers and booleans; the form values they stand for are strings. */
function stringify(v: Record<string, unknown>): FormObject {
  const conv = (x: unknown): FormValue =>
    Array.isArray(x)
      ? x.map(conv)
      : typeof x === "object" && x !== null
        ? stringify(x as Record<string, unknown>)
        : x === null || x === undefined
          ? ""
          : String(x);
  const out: FormObject = {};
  for (const [k, x] of Object.entries(v)) if (!UNSAFE_KEYS.has(k)) out[k] = conv(x);
  return out;
}

export function str(v: FormValue | undefined): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export function obj(v: FormValue | undefined): FormObject | undefined {
  return isContainer(v) && !Array.isArray(v) ? v : undefined;
}

export function list(v: FormValue | undefined): FormValue[] | undefined {
  if (Array.isArray(v)) return v;
  // `line_items[0][price]` without a later index reads as an array already; a lone object
  // keyed by indices (from JSON) is accepted too.
  const o = obj(v);
  return o && Object.keys(o).every((k) => INDEX.test(k)) ? Object.values(o) : undefined;
}

/** Stripe's metadata: string values; an empty value removes the key on update. */
export function metadataOf(v: FormValue | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(obj(v) ?? {})) if (typeof x === "string") out[k] = x;
  return out;
}
