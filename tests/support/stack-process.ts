// A local stack in a child process, steered over IPC: for suites whose own environment cannot
// host it (jsdom), and that need to run SQL as the owner or cut Realtime connections.
//   parent → child: { id, sql, params } | { id, drop: true } | { id, stats: true }
//   child → parent: { ready: { url, publishableKey } } then { id, result } | { id, error }
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack, type Stack } from "../../devstack/stack.ts";

type Request = { id: number; sql?: string; params?: unknown[]; drop?: boolean; stats?: boolean };
type Reply = { id: number; result?: unknown; error?: string };

export interface StackProcess {
  url: string;
  publishableKey: string;
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  dropConnections(): Promise<void>;
  realtimeStats(): Promise<{ sockets: number; subscriptions: number; topics: number }>;
  stop(): Promise<void>;
}

/** Starts the stack in a child process with its data in `dir` (or on `databaseUrl`). */
export async function startStackProcess(dir: string, databaseUrl?: string): Promise<StackProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [dir, databaseUrl ?? ""], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const pending = new Map<number, (r: Reply) => void>();
  let next = 1;
  const ready = await new Promise<{ url: string; publishableKey: string }>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the stack process exited with ${code}`)));
    child.on("message", (m: { ready?: { url: string; publishableKey: string } } & Reply) => {
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
    realtimeStats: async () => (await call({ stats: true })) as never,
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
  const [dir, databaseUrl] = process.argv.slice(2) as [string, string];
  const stack: Stack = await startStack({
    ...defaultOptions({}),
    databaseUrl: databaseUrl || undefined,
    apiPort: await freePort(),
    dataDir: path.join(dir, "data"),
    envFile: path.join(dir, ".env.local"),
    functions: false,
    quiet: true,
  });
  process.on("SIGTERM", () => void stack.stop().finally(() => process.exit(0)));
  process.on("disconnect", () => void stack.stop().finally(() => process.exit(0)));
  process.on("message", async (req: Request) => {
    try {
      let result: unknown = null;
      if (req.sql) result = await stack.db.query(req.sql, req.params);
      else if (req.drop) stack.realtime.dropConnections();
      else if (req.stats) result = stack.realtime.stats();
      process.send?.({ id: req.id, result });
    } catch (err) {
      process.send?.({ id: req.id, error: (err as Error).message });
    }
  });
  process.send?.({ ready: { url: stack.url, publishableKey: stack.secrets.publishableKey } });
}
