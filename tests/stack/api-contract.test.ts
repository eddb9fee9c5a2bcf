// The generated OpenAPI document (GET /api/openapi.json, made by @hono/zod-openapi from the
// routes' schemas, decision 0062) against real answers on the stack, PGlite and PostgreSQL:
// every GET route that answers JSON is called as the admin demo user (enterprise plan), and
// each answer must carry every field its schema requires and no field the schema leaves out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoUser, serviceClient, stackInfo } from "../support/clients.ts";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  additionalProperties?: unknown;
};
type Operation = {
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>> };

const tag = Date.now().toString(36).toUpperCase();
const SYMBOL = `APIC${tag}/USDT`;
let token = "";
let doc: Doc;

async function api(path: string, init: RequestInit = {}) {
  const { url, publishableKey } = stackInfo();
  return fetch(`${url}${path}`, {
    ...init,
    headers: {
      apikey: publishableKey,
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
    },
  });
}

/** Where `value` and `schema` disagree: a required field missing, or a field not documented. */
function differences(schema: Schema, value: unknown, at: string, out: string[]): void {
  if (value === null || value === undefined) return;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const shaped = branches.find((b) =>
      Array.isArray(value) ? b.items : typeof value === "object" ? b.properties : false,
    );
    if (shaped) differences(shaped, value, at, out);
    return;
  }
  if (Array.isArray(value)) {
    if (schema.items)
      value.slice(0, 5).forEach((v, i) => differences(schema.items!, v, `${at}[${i}]`, out));
    return;
  }
  if (typeof value !== "object" || !schema.properties) return;
  const row = value as Record<string, unknown>;
  for (const key of schema.required ?? []) {
    if (!(key in row)) out.push(`${at}.${key}: required in the document, missing from the answer`);
  }
  for (const [key, v] of Object.entries(row)) {
    const field = schema.properties[key];
    if (field) differences(field, v, `${at}.${key}`, out);
    else if (!schema.additionalProperties) out.push(`${at}.${key}: in the answer, not documented`);
  }
}

const quote = (price: number, ts: string) => ({
  symbol: SYMBOL,
  exchange: "Binance",
  exchangeType: "cex",
  source: "simulated",
  price,
  volume24h: 2_000_000,
  ts,
});

let groupId = "";
let ticketId = "";

beforeAll(async () => {
  const t0 = Date.now();
  for (let i = 0; i < 13; i++) {
    const ts = new Date(t0 - (12 - i) * 5 * 60_000).toISOString();
    const { error } = await serviceClient().rpc("ingest_scan", {
      quotes: [quote(1.5 ** i, ts)] as never,
      scanned_at: ts,
    });
    expect(error).toBeNull();
  }
  const { client } = await demoUser("admin@demo.local");
  token = (await client.auth.getSession()).data.session!.access_token;
  const ticket = await api("/api/support/tickets", {
    method: "POST",
    body: JSON.stringify({
      subject: `Contract ${tag}`,
      content: "The document matches the answers.",
    }),
  });
  expect(ticket.status).toBe(201);
  ticketId = ((await ticket.json()) as { id: string }).id;
  const groups = (await (await api("/api/groups")).json()) as {
    userGroups: { id: string }[];
    publicGroups: { id: string }[];
  };
  groupId = (groups.userGroups[0] ?? groups.publicGroups[0])!.id;
  const res = await fetch(`${stackInfo().url}/api/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as Doc;
});

afterAll(async () => {
  const service = serviceClient();
  if (ticketId) await service.from("support_tickets").delete().eq("id", ticketId);
  await service.from("instruments").delete().eq("symbol", SYMBOL);
});

describe("the generated document against the real answers", () => {
  it("every JSON GET route's answer has exactly the documented fields", async () => {
    const symbol = encodeURIComponent(SYMBOL);
    const values: Record<string, string> = { id: ticketId, symbol, username: `free_${tag}` };
    const queries: Record<string, string> = {
      "/api/chat/messages": `?groupId=${groupId}`,
      "/api/charts/compare": `?symbols=${symbol},${encodeURIComponent("BTC/USDT")}`,
    };
    const compared: string[] = [];
    const problems: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      const op = methods.get;
      const schema = op?.responses["200"]?.content?.["application/json"]?.schema;
      if (!op || !schema) continue;
      const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
      const res = await api(`${concrete}${queries[path] ?? ""}`);
      const body: unknown = await res.json();
      // compare needs two symbols with history; BTC/USDT may have none on a fresh stack.
      if (path === "/api/charts/compare" && res.status === 404) continue;
      expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(200);
      differences(schema, body, path, problems);
      compared.push(path);
    }
    expect(problems).toEqual([]);
    for (const path of [
      "/api/auth/me",
      "/api/user/profile",
      "/api/groups",
      "/api/chat/messages",
      "/api/support/tickets",
      "/api/support/tickets/{id}",
      "/api/support/tickets/{id}/messages",
      "/api/admin/users",
      "/api/admin/stats",
      "/api/admin/activity-logs",
      "/api/gainers/recent",
      "/api/gainers/history/{symbol}",
      "/api/gainers/analysis/{symbol}",
      "/api/gainers/candles/{symbol}",
      "/api/signals/recent",
      "/api/user/check-username/{username}",
    ]) {
      expect(compared).toContain(path);
    }
  });

  it("a gainer row of /api/gainers/recent carries every documented trust field", async () => {
    const res = await api("/api/gainers/recent?window=5");
    expect(res.status).toBe(200);
    const rows = (await res.json()) as Record<string, unknown>[];
    const row = rows.find((r) => r.symbol === SYMBOL);
    expect(row, "the seeded mover is listed").toBeDefined();
    const documented =
      doc.paths["/api/gainers/recent"]!.get!.responses["200"]!.content!["application/json"]!.schema
        .items!.properties!;
    for (const field of [
      "volume24hUsd",
      "liquidityUsd",
      "spreadPct",
      "thin",
      "confirmedOn",
      "flags",
      "trustScore",
      "quotedAt",
    ]) {
      expect(documented[field], field).toBeDefined();
      expect(row!, field).toHaveProperty(field);
    }
  });
});
