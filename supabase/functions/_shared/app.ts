// The frame every browser-facing function shares: a Hono app at /<name> with CORS, JSON
// errors `{ error, message }`, 405 for other methods and 500 for the unexpected.
import { Hono } from "hono";
import { corsMiddleware } from "./cors.ts";
import { HttpError, jsonError } from "./http.ts";

export function functionApp(name: string, opts: { cors?: boolean } = {}): Hono {
  const app = new Hono({ strict: false }).basePath(`/${name}`);
  if (opts.cors !== false) app.use("*", corsMiddleware());
  app.notFound((c) =>
    jsonError(404, "not_found", `No route ${c.req.method} ${new URL(c.req.url).pathname}`)
  );
  app.onError((err) => {
    if (err instanceof HttpError) {
      const res = jsonError(err.status, err.code, err.message);
      for (const [name, value] of Object.entries(err.headers)) res.headers.set(name, value);
      return res;
    }
    console.error(`[${name}]`, err);
    return jsonError(500, "internal_error", "Something went wrong on our side. Please try again.");
  });
  return app;
}

/** Answers any method but the allowed ones with 405. */
export function methodNotAllowed(allowed: string): Response {
  const res = jsonError(405, "method_not_allowed", `Use ${allowed}.`);
  res.headers.set("Allow", allowed);
  return res;
}
