// The /api compatibility layer (spec section 7), routed with Hono. It is served at
// /functions/v1/api/* and, by the gateway, at /api/*. Routes arrive with the issues that
// build their features; for now it answers health checks and refuses unknown routes clearly.
import { Hono } from "hono";
import { cors } from "hono/cors";
import { corsHeaders, HttpError, jsonError } from "../_shared/http.ts";

const app = new Hono().basePath("/api");

app.use(
  "*",
  cors({
    origin: (origin) => origin || "*",
    credentials: true,
    allowHeaders: corsHeaders["Access-Control-Allow-Headers"]!.split(", "),
    allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
  }),
);

app.get("/health", (c) => c.json({ status: "ok", time: new Date().toISOString() }));

app.notFound((c) =>
  jsonError(404, "not_found", `No route ${c.req.method} ${new URL(c.req.url).pathname}`)
);

app.onError((err) => {
  if (err instanceof HttpError) return jsonError(err.status, err.code, err.message);
  console.error("[api]", err);
  return jsonError(500, "internal_error", "Something went wrong on our side. Please try again.");
});

export default app;
