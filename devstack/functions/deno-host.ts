// Runs inside Deno. Serves every folder of the functions directory (except _shared) at
// /<name>/..., importing the function's `app.ts` (whose default export has `fetch`), the
// same module its `index.ts` hands to `Deno.serve` in production.
/// <reference lib="deno.ns" />
const dir = Deno.env.get("FUNCTIONS_DIR");
if (!dir) throw new Error("FUNCTIONS_DIR is not set");
type Handler = { fetch: (req: Request) => Response | Promise<Response> };
const cache = new Map<string, Promise<Handler>>();

function json(status: number, error: string, message: string) {
  return Response.json({ error, message }, { status });
}

async function load(name: string): Promise<Handler | null> {
  const file = `${dir}/${name}/app.ts`;
  try {
    await Deno.stat(file);
  } catch {
    return null;
  }
  let p = cache.get(name);
  if (!p) {
    p = import(`file://${file}`).then((m) => m.default as Handler);
    cache.set(name, p);
    p.catch(() => cache.delete(name));
  }
  return p;
}

Deno.serve(
  {
    hostname: "127.0.0.1",
    port: Number(Deno.env.get("FUNCTIONS_HOST_PORT") ?? 0),
    onListen: ({ port }) => console.log(`FUNCTIONS_HOST_READY ${port}`),
  },
  async (req) => {
    const name = new URL(req.url).pathname.split("/")[1] ?? "";
    if (!/^[a-z0-9][a-z0-9_-]*$/.test(name)) return json(404, "not_found", "Function not found");
    try {
      const handler = await load(name);
      if (!handler) return json(404, "not_found", `Function ${name} not found`);
      return await handler.fetch(req);
    } catch (err) {
      console.error(`[functions] ${name}:`, err);
      return json(500, "internal_error", "The function failed; see the stack's log.");
    }
  },
);
