// The Discord/Telegram/Resend stand-ins in a child process of their own, as MailDev runs (issue
// 24). In the stack's own process they shared one event loop with PGlite, the API gateway and
// the bench: a long query stalled every answer, and a worker's 15 s request timeout then put
// messages that had arrived in doubt. Measured on the stack's process: 1,000 webhook posts,
// 64 at once, took 12.5 s; in a process of their own 2.7 s on the same (shared) machine.
//
// The parent talks to the child over the stand-in's HTTP control routes (`/__standins/*`), so
// everything a test or the bench can do in process it can do here, asynchronously.
//
// Run as a script: `node --import tsx standins-process.ts '<ChatStandInOptions as JSON>'`; it
// prints one JSON line, `{"url": …}` once listening or `{"error": …}`, and exits when its
// standard input closes (the parent is gone) or on SIGTERM.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { StackError } from "../errors.ts";
import {
  type ChatStandInOptions,
  type ReceivedRequest,
  type Service,
  startChatStandIn,
} from "./standins.ts";

/** The stand-ins as the stack holds them: a child process, driven over HTTP. */
export interface ChatStandInClient {
  url: string;
  requests(service?: Service): Promise<ReceivedRequest[]>;
  /**
   * Answer `status` to the next `times` (1-100) Discord or Telegram requests, or only to those for
   * `target` (a webhook id or chat id).
   */
  fail(
    service: "discord" | "telegram",
    status: 429 | 500,
    times: number,
    retryAfter?: number,
    target?: string,
  ): Promise<void>;
  migrate(from: string, to: string): Promise<void>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

type ChildOptions = Omit<ChatStandInOptions, "log">;

async function control(url: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${url}/__standins/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`chat stand-in ${path}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

export async function startChatStandInProcess(
  opts: ChatStandInOptions & { startTimeoutMs?: number },
): Promise<ChatStandInClient> {
  const { log, startTimeoutMs, ...rest } = opts;
  const childOptions: ChildOptions = rest;
  const require = createRequire(import.meta.url);
  const tsx = pathToFileURL(require.resolve("tsx")).href;
  const script = fileURLToPath(import.meta.url);
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // STANDIN_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>": a CPU profile of the stand-ins
      // while a bench runs (Node refuses --cpu-prof in NODE_OPTIONS; decision 0114).
      ...(process.env.STANDIN_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
      "--import",
      tsx,
      script,
      JSON.stringify(childOptions),
    ],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // The first line says whether it listens; later lines are its log (a refused request's reason).
  let started: ((answer: { url?: string; error?: string }) => void) | null = null;
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (!started) return log?.(line);
    const answer = started;
    started = null;
    try {
      answer(JSON.parse(line) as { url?: string; error?: string });
    } catch {
      answer({ error: line });
    }
  });
  const first = await new Promise<{ url?: string; error?: string }>((resolve) => {
    const timer = setTimeout(
      () => resolve({ error: "the stand-ins did not start in time" }),
      startTimeoutMs ?? 20_000,
    );
    started = (answer) => {
      clearTimeout(timer);
      resolve(answer);
    };
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ error: stderr.trim().split("\n").at(-1) || `exited with ${code}` });
    });
  });
  started = null;
  if (!first.url) {
    child.kill("SIGKILL");
    throw new StackError(
      `The Discord/Telegram stand-ins did not start: ${first.error ?? "no answer"}`,
      "chat_standins_failed",
    );
  }
  const url = first.url;
  return {
    url,
    async requests(service) {
      const res = await fetch(
        `${url}/__standins/requests${service ? `?service=${encodeURIComponent(service)}` : ""}`,
      );
      if (!res.ok) throw new Error(`chat stand-in requests: ${res.status}`);
      return (await res.json()) as ReceivedRequest[];
    },
    fail: (service, status, times, retryAfter, target) =>
      control(url, "fail", {
        service,
        status,
        times,
        ...(retryAfter === undefined ? {} : { retryAfter }),
        ...(target === undefined ? {} : { target }),
      }),
    migrate: (from, to) => control(url, "migrate", { from, to }),
    reset: () => control(url, "reset", {}),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      child.kill("SIGTERM");
      await exited;
      clearTimeout(timer);
    },
  };
}

// ---- The child ----------------------------------------------------------------------------------
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  let options: ChildOptions;
  try {
    options = JSON.parse(process.argv[2] ?? "{}") as ChildOptions;
  } catch {
    console.log(JSON.stringify({ error: "the stand-ins' options are not JSON" }));
    process.exit(2);
  }
  try {
    const standIn = await startChatStandIn({ ...options, log: (line) => console.log(line) });
    console.log(JSON.stringify({ url: standIn.url }));
    const quit = () => void standIn.stop().finally(() => process.exit(0));
    process.once("SIGTERM", quit);
    process.once("SIGINT", quit);
    // The parent is gone (its end of the pipe closed): nothing is left to serve.
    process.stdin.on("close", quit);
    process.stdin.on("end", quit);
    process.stdin.resume();
  } catch (err) {
    console.log(JSON.stringify({ error: (err as Error).message }));
    process.exit(1);
  }
}
