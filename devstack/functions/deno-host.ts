// Runs inside Deno. Serves every folder of the functions directory (except _shared) at
// /<name>/..., importing the function's `app.ts` (whose default export has `fetch`), the
// same module its `index.ts` hands to `Deno.serve` in production.
//
// Every function is imported before the host reports ready: one that cannot load (a package
// missing from the Deno cache, a syntax error) is reported as one `FUNCTIONS_HOST_FAILED` line
// and the host exits, so `npm start` fails at once instead of answering 500 later. With
// FUNCTIONS_HOST_CHECK=1 the host only loads them and exits (`npm run deno:cache` uses it).
/// <reference lib="deno.ns" />
const dir = Deno.env.get("FUNCTIONS_DIR");
if (!dir) throw new Error("FUNCTIONS_DIR is not set");
type Handler = { fetch: (req: Request) => Response | Promise<Response> };
const handlers = new Map<string, Handler>();

function json(status: number, error: string, message: string) {
  return Response.json({ error, message }, { status });
}

function functionNames(): string[] {
  const names: string[] = [];
  for (const entry of Deno.readDirSync(dir!)) {
    if (!entry.isDirectory || entry.name.startsWith("_") || entry.name.startsWith(".")) continue;
    try {
      Deno.statSync(`${dir}/${entry.name}/app.ts`);
      names.push(entry.name);
    } catch {
      // A folder without app.ts is not a function.
    }
  }
  return names.sort();
}

/** What failed, in one line: the npm package Deno could not find, else the error's first line. */
function describeLoadError(err: unknown): { pkg: string | null; reason: string } {
  const text = err instanceof Error ? `${err.message}` : String(err);
  const first = text.split("\n").find((l) => l.trim()) ?? text;
  // "Failed caching npm package 'stripe@23.1.0'", "npm package not found in cache: \"zod\"",
  // "Cannot find module '…/registry.npmjs.org/hono/4.13.19/dist/index.js'".
  const npm = /npm package(?: not found in cache:)? ['"]([^'"]+)['"]/i.exec(text);
  const module = /Cannot find module ['"]?[^'"\s]*?registry\.[^/]+\/((?:@[^/]+\/)?[^/]+\/[^/]+)/i
    .exec(text);
  const pkg = npm ? npm[1]! : module ? module[1]!.replace(/\/([^/]+)$/, "@$1") : null;
  return { pkg, reason: first.replace(/^(error|TypeError|Error):\s*/i, "").trim() };
}

async function loadAll(): Promise<void> {
  for (const name of functionNames()) {
    try {
      const mod = await import(`file://${dir}/${name}/app.ts`);
      handlers.set(name, mod.default as Handler);
    } catch (err) {
      const { pkg, reason } = describeLoadError(err);
      console.log(
        `FUNCTIONS_HOST_FAILED ${JSON.stringify({ function: name, package: pkg, reason })}`,
      );
      Deno.exit(1);
    }
  }
}

await loadAll();
if (Deno.env.get("FUNCTIONS_HOST_CHECK") === "1") Deno.exit(0);

// The stack holds our stdin open; when it is gone (killed, crashed), so are we.
(async () => {
  const buf = new Uint8Array(1024);
  try {
    while ((await Deno.stdin.read(buf)) !== null) { /* nothing is sent on stdin */ }
  } catch {
    // stdin closed with an error: the parent is gone too.
  }
  Deno.exit(0);
})();

Deno.serve(
  {
    hostname: "127.0.0.1",
    port: Number(Deno.env.get("FUNCTIONS_HOST_PORT") ?? 0),
    onListen: ({ port }) => console.log(`FUNCTIONS_HOST_READY ${port}`),
  },
  async (req) => {
    const name = new URL(req.url).pathname.split("/")[1] ?? "";
    if (!/^[a-z0-9][a-z0-9_-]*$/.test(name)) return json(404, "not_found", "Function not found");
    const handler = handlers.get(name);
    if (!handler) return json(404, "not_found", `Function ${name} not found`);
    try {
      return await handler.fetch(req);
    } catch (err) {
      console.error(`[functions] ${name}:`, err);
      return json(500, "internal_error", "The function failed; see the stack's log.");
    }
  },
);
