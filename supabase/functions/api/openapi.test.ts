// The contract document: OpenAPI 3.1 at /api/openapi.json lists every route of specification
// section 7 with the schemas the routes validate with, every documented operation is routed,
// and /api/docs renders the same document as HTML.
import { deepStrictEqual, ok, strictEqual as assertEquals } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import { createApiApp } from "./app.ts";
import * as s from "./schemas.ts";

const app = createApiApp({
  env: envFrom({ SUPABASE_URL: "http://127.0.0.1:9", SUPABASE_ANON_KEY: "k" }),
  sourceHealth: () => Promise.resolve([]),
  streamHealth: () => Promise.resolve([]),
});

/** Specification section 7. */
const SECTION_7 = [
  "post /api/auth/login",
  "post /api/auth/register",
  "post /api/auth/logout",
  "get /api/auth/me",
  "get /api/user/me",
  "post /api/checkout",
  "get /api/gainers/recent",
  "get /api/gainers/history/{symbol}",
  "get /api/gainers/analysis/{symbol}",
  "get /api/signals/recent",
  "get /api/sse",
  "patch /api/user/settings",
  "get /api/user/profile",
  "patch /api/user/profile",
  "get /api/user/check-username/{username}",
  "post /api/user/upload-avatar",
  "get /api/groups",
  "post /api/groups",
  "post /api/groups/{id}/join",
  "post /api/groups/{id}/leave",
  "get /api/chat/messages",
  "post /api/chat/upload-gif",
  "get /api/chat/stream",
  "post /api/chat/messages",
  "patch /api/chat/messages/{id}",
  "delete /api/chat/messages/{id}",
  "post /api/users/block",
  "get /api/support/tickets",
  "post /api/support/tickets",
  "get /api/support/tickets/{id}",
  "get /api/support/tickets/{id}/messages",
  "post /api/support/tickets/{id}/messages",
  "get /api/support/stream",
  "patch /api/support/tickets/{id}",
  "get /api/admin/users",
  "get /api/admin/alerts",
  "get /api/admin/stats",
  "get /api/admin/activity-logs",
  "post /api/admin/users/{userId}/ban",
  "post /api/admin/users/{userId}/unban",
  "delete /api/admin/users/{userId}",
  "patch /api/admin/users/{userId}/plan",
  "patch /api/admin/users/{userId}/subscription",
  "post /api/admin/promote-self",
];

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

async function document(): Promise<Doc> {
  const res = await app.fetch(new Request("http://local/api/openapi.json"));
  assertEquals(res.status, 200);
  return await res.json();
}

Deno.test("openapi.json is OpenAPI 3.1 and lists every route of section 7", async () => {
  const doc = await document();
  assertEquals(doc.openapi, "3.1.0");
  const ops = Object.entries(doc.paths).flatMap(([p, m]) => Object.keys(m).map((k) => `${k} ${p}`));
  for (const route of SECTION_7) ok(ops.includes(route), `missing ${route}`);
});

Deno.test("request bodies are the routes' zod schemas as JSON Schema", async () => {
  const doc = await document();
  const body = (path: string, method: string) =>
    (doc.paths[path]![method]!.requestBody as { content: Record<string, { schema: unknown }> })
      .content["application/json"]!.schema;
  const login = body("/api/auth/login", "post") as {
    properties: Record<string, { type?: string; minLength?: number }>;
    required: string[];
  };
  deepStrictEqual(Object.keys(login.properties).sort(), Object.keys(s.loginInput.shape).sort());
  deepStrictEqual(login.required.sort(), ["email", "password"]);
  assertEquals(login.properties.password!.minLength, 1);
  const ticket = body("/api/support/tickets", "post") as {
    properties: Record<string, { enum?: string[] }>;
    required: string[];
  };
  deepStrictEqual(ticket.properties.priority!.enum, ["low", "medium", "high", "urgent"]);
  deepStrictEqual(ticket.required.sort(), ["content", "subject"]);
  const upload = doc.paths["/api/user/upload-avatar"]!.post!.requestBody as {
    content: Record<string, unknown>;
  };
  ok("multipart/form-data" in upload.content);
  const stream = doc.paths["/api/chat/stream"]!.get!.responses as Record<
    string,
    { content: Record<string, unknown> }
  >;
  ok("text/event-stream" in stream["200"]!.content);
});

Deno.test("every documented operation is routed (no 404 'No route')", async () => {
  const doc = await document();
  for (const [path, methods] of Object.entries(doc.paths)) {
    const concrete = path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");
    for (const method of Object.keys(methods)) {
      const res = await app.fetch(
        new Request(`http://local${concrete}`, { method: method.toUpperCase() }),
      );
      const body = await res.text();
      ok(!(res.status === 404 && body.includes("No route")), `${method} ${path}: ${body}`);
    }
  }
});

Deno.test("/api/docs is a readable HTML reference of the same document", async () => {
  const res = await app.fetch(new Request("http://local/api/docs"));
  assertEquals(res.status, 200);
  ok(res.headers.get("content-type")!.startsWith("text/html"));
  const html = await res.text();
  ok(html.includes("<h1>MoverScan /api reference</h1>"));
  for (const path of ["/api/chat/stream", "/api/admin/promote-self", "/api/auth/login"]) {
    ok(html.includes(`<code>${path}</code>`), path);
  }
  ok(!/<script|https?:\/\/cdn/i.test(html), "no scripts, no CDN");
});

Deno.test("/api/gainers/recent documents every trust field of a row and its two filters", async () => {
  const doc = await document();
  const op = doc.paths["/api/gainers/recent"]!.get!;
  const responses = op.responses as Record<
    string,
    { content: Record<string, { schema: unknown }> }
  >;
  const row = (responses["200"]!.content["application/json"]!.schema as {
    items: { properties: Record<string, { description?: string; enum?: string[] }> };
  }).items.properties;
  for (
    const field of [
      "volume24hUsd",
      "liquidityUsd",
      "spreadPct",
      "thin",
      "confirmedOn",
      "flags",
      "trustScore",
      "asset",
      "poolName",
      "quotedAt",
      "confirmedAt",
    ]
  ) {
    ok(row[field]?.description, `${field} is documented`);
  }
  const flags = row.flags as unknown as { items: { enum: string[] } };
  deepStrictEqual(flags.items.enum, [
    "no_volume_rise",
    "young_pool",
    "pulled_pool",
    "dex_cex_gap",
    "wash_volume",
  ]);
  const params = (op.parameters as { name: string }[]).map((p) => p.name);
  for (const name of ["window", "hideThin", "confirmedOnly"]) ok(params.includes(name), name);
});

Deno.test("every routed operation is in the generated document (the routes make it)", async () => {
  const doc = await document();
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([p, m]) =>
      Object.keys(m).map((k) => `${k} ${p.replace(/\{[^}]+\}/g, "{}")}`)
    ),
  );
  const served = new Set(["get /api/openapi.json", "get /api/docs"]);
  const missing: string[] = [];
  let checked = 0;
  for (const r of app.routes) {
    if (r.method === "ALL" || r.method === "OPTIONS") continue; // middleware, CORS
    const method = r.method.toLowerCase();
    const path = r.path.replace(/:[^/{]+(\{[^}]*\})?/g, "{}");
    if (served.has(`${method} ${r.path}`)) continue;
    // The market routes' other methods only answer 405: not operations.
    const concrete = path.replace(/\{\}/g, "00000000-0000-4000-8000-000000000000");
    const res = await app.fetch(new Request(`http://local${concrete}`, { method: r.method }));
    if (res.status === 405) continue;
    checked++;
    if (!documented.has(`${method} ${path}`)) missing.push(`${method} ${r.path}`);
  }
  deepStrictEqual(missing, []);
  ok(checked >= SECTION_7.length, `only ${checked} routes checked`);
});

Deno.test("the document's operations each name their access, security and error body", async () => {
  const doc = await document();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const access = op["x-access"] as string;
      ok(["public", "user", "subscriber", "admin"].includes(access), `${method} ${path}`);
      const security = op.security as unknown[];
      assertEquals(security.length, access === "public" ? 0 : 2, `${method} ${path}`);
      const responses = op.responses as Record<string, { content?: Record<string, unknown> }>;
      const error = responses["500"]!.content!["application/json"] as { schema: { $ref: string } };
      assertEquals(error.schema.$ref, "#/components/schemas/Error");
    }
  }
});

Deno.test("/api/health documents each source's confirmation and each stream's run", async () => {
  const doc = await document();
  const responses = doc.paths["/api/health"]!.get!.responses as Record<
    string,
    { content: Record<string, { schema: unknown }> }
  >;
  const body = (responses["200"]!.content["application/json"]!.schema as {
    properties: Record<string, { items: { properties: Record<string, { description?: string }> } }>;
  }).properties;
  const source = body.sources!.items.properties;
  for (
    const field of [
      "lastQuoteAt",
      "confirmedThrough",
      "confirmedBy",
      "confirmedAgeSeconds",
      "stale",
    ]
  ) {
    ok(source[field]?.description, `sources[].${field} is documented`);
  }
  // The route's earlier fields stay.
  for (const field of ["state", "quotes", "lastAttemptAt", "lastSuccessAt"]) ok(source[field]);
  const stream = body.streams!.items.properties;
  for (const field of ["confirmedSince", "confirmedThrough", "lastMessageAgeSeconds"]) {
    ok(stream[field]?.description, `streams[].${field} is documented`);
  }
});
