// The contract of the /api layer: an OpenAPI 3.1 document generated from the zod schemas the
// routes validate with (kit.ts ROUTES, schemas.ts; z.toJSONSchema gives JSON Schema 2020-12,
// the dialect of OpenAPI 3.1), and a plain HTML reference page made from the same document
// (no scripts, no CDN).
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { type ApiEnv, type RouteDoc, ROUTES } from "./kit.ts";
import * as s from "./schemas.ts";

// The market routes are registered here (market.ts predates the register).
const market: RouteDoc[] = [
  {
    method: "get",
    path: "/api/gainers/recent",
    tag: "market",
    summary: "The window's 100 strongest movers (default: your selected window)",
    access: "subscriber",
    query: z.object({
      window: z.string().optional().describe("0, 5, 10, 15, 20, 25 or 30"),
      hideThin: z.enum(["true", "false"]).optional().describe(
        "true: leave out thin moves (below the floor of their venue type)",
      ),
      confirmedOnly: z.enum(["true", "false"]).optional().describe(
        "true: only moves confirmed on another venue",
      ),
    }),
    status: 200,
    response: s.gainers,
    errors: [400, 403],
  },
  {
    method: "get",
    path: "/api/gainers/history/{symbol}",
    tag: "market",
    summary: "A symbol's prices over the last 3 hours, oldest first",
    access: "subscriber",
    params: { symbol: "e.g. BTC%2FUSDT" },
    query: z.object({ exchange: z.string().optional() }),
    status: 200,
    response: s.historyPoints,
    errors: [400, 403, 404],
  },
  {
    method: "get",
    path: "/api/gainers/analysis/{symbol}",
    tag: "market",
    summary: "Trend, forecast, confidence, risk and more from the last 3 hours",
    access: "subscriber",
    params: { symbol: "e.g. BTC%2FUSDT" },
    query: z.object({ exchange: z.string().optional() }),
    status: 200,
    response: s.analysis,
    errors: [400, 403, 404],
  },
  {
    method: "get",
    path: "/api/gainers/candles/{symbol}",
    tag: "market",
    summary:
      "Pro and Enterprise: candles of 5 minutes (24 h), 1 hour (7 days) or 4 hours (30 days); Basic gets 403 pro_required",
    access: "subscriber",
    params: { symbol: "e.g. BTC%2FUSDT" },
    query: z.object({
      exchange: z.string().optional(),
      resolution: z.string().optional().describe("5m (default), 1h or 4h"),
    }),
    status: 200,
    response: s.candles,
    errors: [400, 403, 404],
  },
  {
    method: "get",
    path: "/api/gainers/insights/{symbol}",
    tag: "market",
    summary:
      "Pro and Enterprise: the last hour's move against 30 days of history, percentile, BTC correlation, volatility regime, drawdown; Basic gets 403 pro_required",
    access: "subscriber",
    params: { symbol: "e.g. BTC%2FUSDT" },
    query: z.object({ exchange: z.string().optional() }),
    status: 200,
    response: s.insights,
    errors: [400, 403, 404],
  },
  {
    method: "get",
    path: "/api/charts/compare",
    tag: "market",
    summary:
      "Pro and Enterprise: two to four symbols as % change from the same start over 24 h, 7 days or 30 days; Basic gets 403 pro_required",
    access: "subscriber",
    query: z.object({
      symbols: z.string().describe("Two to four symbols, comma-separated (BTC%2FUSDT,ETH%2FUSDT)"),
      range: z.string().optional().describe("24h (default), 7d or 30d"),
    }),
    status: 200,
    response: s.comparison,
    errors: [400, 403, 404],
  },
  {
    method: "get",
    path: "/api/signals/recent",
    tag: "market",
    summary: "The newest strategy signals",
    access: "subscriber",
    query: z.object({ limit: z.string().optional().describe("1 to 500, default 200") }),
    status: 200,
    response: s.signals,
    errors: [400, 403],
  },
  {
    method: "get",
    path: "/api/sse",
    tag: "market",
    summary: "Live movers of a window (server-sent events)",
    access: "subscriber",
    query: z.object({ window: z.string().optional() }),
    status: 200,
    stream:
      "`event: connected` first; then one unnamed event per gainer of each scan (JSON). Every event has an id; reconnect with Last-Event-ID to get what changed since.",
    errors: [400, 403, 503],
  },
];

const errorSchema = {
  type: "object",
  required: ["error", "code", "message"],
  properties: {
    error: { type: "string", description: "The message to show the user" },
    code: { type: "string", description: "Machine-readable reason" },
    message: { type: "string", description: "The same message" },
  },
};

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  204: "No content",
  400: "Invalid request",
  401: "Not logged in, or the session expired",
  403: "Refused (rights, ban, plan, or a cross-site write)",
  404: "Not found",
  409: "Conflict",
  413: "Too large",
  415: "Unsupported file type",
  429: "Too many attempts",
  500: "Server error",
  502: "Payment provider error",
  503: "Live stream unavailable",
};

function jsonSchema(schema: z.ZodType, io: "input" | "output") {
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" });
  delete (out as Record<string, unknown>).$schema;
  return out;
}

function operation(route: RouteDoc) {
  const parameters: unknown[] = [];
  for (const [name, description] of Object.entries(route.params ?? {})) {
    parameters.push({ name, in: "path", required: true, description, schema: { type: "string" } });
  }
  if (route.query) {
    for (const [name, field] of Object.entries(route.query.shape)) {
      const f = field as z.ZodType;
      parameters.push({
        name,
        in: "query",
        required: !f.safeParse(undefined).success,
        schema: jsonSchema(f, "input"),
      });
    }
  }
  const responses: Record<string, unknown> = {};
  const ok = STATUS_TEXT[route.status] ?? "OK";
  if (route.stream) {
    responses[route.status] = {
      description: route.stream,
      content: { "text/event-stream": { schema: { type: "string" } } },
    };
  } else if (route.response) {
    responses[route.status] = {
      description: ok,
      content: { "application/json": { schema: jsonSchema(route.response, "output") } },
    };
  } else {
    responses[route.status] = { description: ok };
  }
  const errors = new Set([...(route.errors ?? []), 500]);
  if (route.access !== "public") errors.add(401);
  for (const status of [...errors].sort()) {
    responses[status] = {
      description: STATUS_TEXT[status] ?? "Error",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  const op: Record<string, unknown> = {
    tags: [route.tag],
    summary: route.summary,
    operationId: `${route.method}${
      route.path.replace(/^\/api/, "").replace(/[{}]/g, "")
        .split(/[/-]/).filter(Boolean).map((p) => p[0]!.toUpperCase() + p.slice(1)).join("")
    }`,
    "x-access": route.access,
    security: route.access === "public" ? [] : [{ bearer: [] }, { cookieSession: [] }],
    responses,
  };
  if (route.description) op.description = route.description;
  if (parameters.length > 0) op.parameters = parameters;
  if (route.body) {
    op.requestBody = {
      required: true,
      content: { "application/json": { schema: jsonSchema(route.body, "input") } },
    };
  } else if (route.file) {
    op.requestBody = {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            required: [route.file.field, ...Object.keys(route.file.fields ?? {})],
            properties: {
              [route.file.field]: {
                type: "string",
                contentMediaType: "application/octet-stream",
                description: route.file.description,
              },
              ...Object.fromEntries(
                Object.entries(route.file.fields ?? {}).map(([name, description]) => [
                  name,
                  { type: "string", description },
                ]),
              ),
            },
          },
        },
      },
    };
  }
  return op;
}

export function allRoutes(): RouteDoc[] {
  return [...market, ...ROUTES];
}

const INFO = {
  title: "MoverScan /api",
  version: "1.0.0",
  description:
    "The REST contract of the original product (specification section 7), served by the `api` edge function at /api/* and /functions/v1/api/*. Authenticate with `Authorization: Bearer <access token>` or the cookie session POST /api/auth/login sets. Writes with the cookie must come from the app's own origin.",
};

const registered = new WeakSet<object>();

/** The document of every route registered on `app` (generated by @hono/zod-openapi). */
export function openApiDocument(app: OpenAPIHono<ApiEnv>) {
  if (!registered.has(app)) {
    registered.add(app);
    const registry = app.openAPIRegistry;
    registry.registerComponent("securitySchemes", "bearer", {
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
    });
    registry.registerComponent("securitySchemes", "cookieSession", {
      type: "apiKey",
      in: "cookie",
      name: "sb-<project ref>-auth-token",
      description:
        "@supabase/ssr's format: `base64-` + base64url JSON session, chunked as .0, .1, …",
    });
    registry.registerComponent("schemas", "Error", errorSchema as never);
  }
  const generated = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: INFO,
    servers: [{ url: "/" }],
  });
  const paths = generated.paths as Record<string, Record<string, unknown>>;
  for (const route of allRoutes()) {
    (paths[route.path] ??= {})[route.method] = operation(route);
  }
  return {
    ...generated,
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    paths,
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;

const esc = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function referencePage(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(ops)) {
      const op = raw as Record<string, unknown>;
      const tag = (op.tags as string[])[0]!;
      const body = (op.requestBody as { content: Record<string, { schema: unknown }> } | undefined)
        ?.content;
      const responses = op.responses as Record<
        string,
        { description: string; content?: Record<string, { schema: unknown }> }
      >;
      const parts = [
        `<section id="${
          esc(String(op.operationId))
        }"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${
          esc(path)
        }</code></h3>`,
        `<p>${esc(String(op.summary))} <em>(${esc(String(op["x-access"]))})</em></p>`,
      ];
      if (op.description) parts.push(`<p>${esc(String(op.description))}</p>`);
      for (
        const p of (op.parameters as {
          name: string;
          in: string;
          required: boolean;
          description?: string;
        }[] | undefined) ?? []
      ) {
        parts.push(
          `<p class="p"><code>${esc(p.name)}</code> in ${p.in}${p.required ? ", required" : ""}${
            p.description ? ` — ${esc(p.description)}` : ""
          }</p>`,
        );
      }
      if (body) {
        for (const [type, media] of Object.entries(body)) {
          parts.push(
            `<details><summary>Body (${esc(type)})</summary><pre>${
              esc(JSON.stringify(media.schema, null, 2))
            }</pre></details>`,
          );
        }
      }
      for (const [status, r] of Object.entries(responses)) {
        const media = r.content ? Object.entries(r.content)[0] : undefined;
        const schema = media && !(media[1].schema as { $ref?: string }).$ref
          ? `<pre>${esc(JSON.stringify(media[1].schema, null, 2))}</pre>`
          : "";
        parts.push(
          schema
            ? `<details><summary>${status} — ${esc(r.description)}</summary>${schema}</details>`
            : `<p class="r">${status} — ${esc(r.description)}</p>`,
        );
      }
      parts.push("</section>");
      (byTag.get(tag) ?? byTag.set(tag, []).get(tag)!).push(parts.join("\n"));
    }
  }
  const sections = [...byTag].map(([tag, ops]) =>
    `<h2 id="tag-${esc(tag)}">${esc(tag)}</h2>\n${ops.join("\n")}`
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>MoverScan /api reference</title>
<style>
:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.45}
body{max-width:60rem;margin:0 auto;padding:1rem}
h3{font-size:1rem;margin:1.5rem 0 .25rem}code,pre{font-family:ui-monospace,monospace}
pre{overflow:auto;background:color-mix(in srgb,currentColor 8%,transparent);padding:.5rem;border-radius:.25rem;font-size:.8rem}
.m{display:inline-block;min-width:4rem;font-size:.75rem;padding:.1rem .3rem;border-radius:.2rem;color:#fff;text-align:center}
.get{background:#2563eb}.post{background:#16a34a}.patch{background:#d97706}.delete{background:#dc2626}.put{background:#7c3aed}
.p,.r{margin:.1rem 0;font-size:.9rem}
</style></head><body>
<h1>MoverScan /api reference</h1>
<p>${esc(doc.info.description ?? "")}</p>
<p>Errors are JSON <code>{ "error": "message to show", "code": "reason", "message": "…" }</code>. Machine-readable document: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
<nav>${[...byTag.keys()].map((t) => `<a href="#tag-${esc(t)}">${esc(t)}</a>`).join(" · ")}</nav>
${sections.join("\n")}
</body></html>`;
}
