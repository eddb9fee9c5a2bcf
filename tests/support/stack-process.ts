// A local stack in a child process, steered over IPC: for suites whose own environment cannot
// host it (jsdom), and that need to run SQL as the owner or cut Realtime connections.
//   parent → child: { id, sql, params } | { id, drop: true } | { id, deafen: true } | { id, stats: true }
//   parent → child: { id, rss: true } (the child's resident memory in bytes)
//   parent → child: { id, requests: bearer } (Auth and PostgREST requests carrying that bearer
//                   token since the last such call, as "METHOD /path" → count; the count restarts)
//   child → parent: { ready: { url, publishableKey, … } } then { id, result } | { id, error }
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultOptions } from "../../devstack/config.ts";
import type { AuthorizationStats } from "../../devstack/realtime/server.ts";
import { freePort, startStack, type Stack } from "../../devstack/stack.ts";
import { serveBuiltWeb } from "../../devstack/web.ts";
import { TEST_AUTH_RATE_LIMITS } from "./rate-limits.ts";

type Request = {
  id: number;
  sql?: string;
  params?: unknown[];
  drop?: boolean;
  deafen?: boolean;
  stats?: boolean;
  rss?: boolean;
  requests?: string;
};

export interface StackProcessOptions {
  /** Also serve the SPA (devstack/web.ts) from the same process, as `npm start` does. */
  web?: boolean;
  /** Keep Auth's default rate limits (config.toml) instead of the raised test limits. */
  defaultRateLimits?: boolean;
  /** Enables admin self-promotion with this secret. */
  adminSecret?: string;
  /** Collect the child's stdout and stderr (see `output()`) instead of inheriting them. */
  captureOutput?: boolean;
  /** Print the stack's log lines (the functions' included), as `npm start` does; quiet by default. */
  log?: boolean;
  /** Also run the Deno functions host (no scheduled scans or deliveries). */
  functions?: boolean;
  /** Extra environment for the child (and so for its functions). */
  env?: Record<string, string>;
}

interface Ready {
  url: string;
  publishableKey: string;
  secretKey: string;
  jwtSecret: string;
  webUrl: string | null;
}
type Reply = { id: number; result?: unknown; error?: string };

export interface StackProcess extends Ready {
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  dropConnections(): Promise<void>;
  /** Realtime forgets every subscription while the sockets stay up (`RealtimeServer.deafen`). */
  deafen(): Promise<void>;
  realtimeStats(): Promise<{
    sockets: number;
    subscriptions: number;
    topics: number;
    /** Join authorisations: checks run, shared, skipped (`RealtimeServer.stats`). */
    authorizations: AuthorizationStats;
  }>;
  /** The child's resident set size in bytes. */
  rss(): Promise<number>;
  /**
   * The Auth and PostgREST requests (`/auth/v1/…`, `/rest/v1/…`) that carried `Bearer <token>`
   * since the previous call for that token, as "METHOD /path" → count.
   */
  requestsWith(token: string): Promise<Record<string, number>>;
  /** False once the child process has exited. */
  alive(): boolean;
  /** What the child printed so far (with `captureOutput`). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts the stack in a child process with its data in `dir` (or on `databaseUrl`). */
export async function startStackProcess(
  dir: string,
  databaseUrl?: string,
  opts: StackProcessOptions = {},
): Promise<StackProcess> {
  const child: ChildProcess = fork(
    fileURLToPath(import.meta.url),
    [dir, databaseUrl ?? "", JSON.stringify(opts)],
    {
      execArgv: ["--import", "tsx"],
      env: { ...process.env, ...opts.env },
      stdio: [
        "ignore",
        opts.captureOutput ? "pipe" : "inherit",
        opts.captureOutput ? "pipe" : "inherit",
        "ipc",
      ],
    },
  );
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const pending = new Map<number, (r: Reply) => void>();
  let next = 1;
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the stack process exited with ${code}`)));
    child.on("message", (m: { ready?: Ready } & Reply) => {
      if (m.ready) return resolve(m.ready);
      pending.get(m.id)?.(m);
      pending.delete(m.id);
    });
  });
  const call = (req: Omit<Request, "id">) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      pending.set(id, (r) => (r.error ? reject(new Error(r.error)) : resolve(r.result)));
      child.send({ ...req, id });
    });
  return {
    ...ready,
    sql: async (text, params) => (await call({ sql: text, params })) as never,
    dropConnections: async () => void (await call({ drop: true })),
    deafen: async () => void (await call({ deafen: true })),
    realtimeStats: async () => (await call({ stats: true })) as never,
    rss: async () => (await call({ rss: true })) as number,
    requestsWith: async (token) => (await call({ requests: token })) as Record<string, number>,
    alive: () => child.exitCode === null && child.signalCode === null,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

// In the child: start the stack and serve requests.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, databaseUrl, rawOpts] = process.argv.slice(2) as [string, string, string?];
  const opts = JSON.parse(rawOpts || "{}") as StackProcessOptions;
  const stack: Stack = await startStack({
    ...defaultOptions({}),
    databaseUrl: databaseUrl || undefined,
    apiPort: await freePort(),
    dataDir: path.join(dir, "data"),
    envFile: path.join(dir, ".env.local"),
    functions: opts.functions === true,
    // With functions, no scheduled scans: a test sends what it needs.
    ...(opts.functions ? { cron: false } : {}),
    quiet: opts.log !== true,
    adminSecret: opts.adminSecret,
    authRateLimits: opts.defaultRateLimits ? undefined : TEST_AUTH_RATE_LIMITS,
  });
  let webUrl: string | null = null;
  if (opts.web) {
    const port = await freePort();
    await serveBuiltWeb(port, "127.0.0.1");
    webUrl = `http://127.0.0.1:${port}`;
  }
  // Every Auth and PostgREST request, by bearer token: what a caller's request cost the database.
  const seen = new Map<string, Map<string, number>>();
  const liteFetch = stack.app.fetch.bind(stack.app);
  stack.app.fetch = ((req: globalThis.Request, ...rest: unknown[]) => {
    const { pathname } = new URL(req.url);
    const bearer = req.headers.get("authorization")?.replace(/^Bearer\s+/i, "");
    if (bearer && (pathname.startsWith("/auth/v1/") || pathname.startsWith("/rest/v1/"))) {
      const byPath = seen.get(bearer) ?? new Map<string, number>();
      seen.set(bearer, byPath);
      const key = `${req.method} ${pathname}`;
      byPath.set(key, (byPath.get(key) ?? 0) + 1);
    }
    return (liteFetch as (...a: unknown[]) => unknown)(req, ...rest);
  }) as typeof stack.app.fetch;
  process.on("SIGTERM", () => void stack.stop().finally(() => process.exit(0)));
  process.on("disconnect", () => void stack.stop().finally(() => process.exit(0)));
  process.on("message", async (req: Request) => {
    try {
      let result: unknown = null;
      if (req.sql) result = await stack.db.query(req.sql, req.params);
      else if (req.drop) stack.realtime.dropConnections();
      else if (req.deafen) stack.realtime.deafen();
      else if (req.stats) result = stack.realtime.stats();
      else if (req.rss) result = process.memoryUsage().rss;
      else if (req.requests) {
        result = Object.fromEntries(seen.get(req.requests) ?? []);
        seen.delete(req.requests);
      }
      process.send?.({ id: req.id, result });
    } catch (err) {
      process.send?.({ id: req.id, error: (err as Error).message });
    }
  });
  process.send?.({
    ready: {
      url: stack.url,
      publishableKey: stack.secrets.publishableKey,
      secretKey: stack.secrets.secretKey,
      jwtSecret: stack.secrets.jwtSecret,
      webUrl,
    },
  });
}
