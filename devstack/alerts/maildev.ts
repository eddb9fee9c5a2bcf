// The local mail catcher: MailDev (npm) in a child process, SMTP on MAIL_SMTP_PORT (default
// 54325) and its web UI on MAIL_UI_PORT (default 54324, where `supabase start` puts its mail UI).
// A child process, because MailDev keeps its server in module state and installs its own
// SIGINT/SIGTERM handlers that exit the process. The child ends with its parent even when the
// parent is killed without stopping it (exit-with-parent.mjs).
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { StackError } from "../errors.ts";

export const DEFAULT_MAIL_UI_PORT = 54324;
export const DEFAULT_MAIL_SMTP_PORT = 54325;

export interface MailDevOptions {
  host: string;
  smtpPort: number;
  uiPort: number;
  log?: (line: string) => void;
  /** How long to wait for both ports (default 20 s). */
  startTimeoutMs?: number;
}

/** An e-mail as MailDev's REST API (`GET /email`) returns it (the fields we read). */
export interface CaughtEmail {
  id: string;
  subject: string;
  text?: string;
  html?: string;
  from: { address: string; name: string }[];
  to: { address: string; name: string }[];
  headers: Record<string, string>;
  date: string;
}

export interface MailDev {
  smtpPort: number;
  uiUrl: string;
  /** Every caught e-mail, oldest first. */
  emails(): Promise<CaughtEmail[]>;
  clear(): Promise<void>;
  stop(): Promise<void>;
}

export function mailPorts(env: NodeJS.ProcessEnv = process.env): {
  smtpPort: number;
  uiPort: number;
} {
  const port = (name: string, fallback: number) => {
    const n = Number(env[name]);
    return Number.isInteger(n) && n > 0 && n < 65536 ? n : fallback;
  };
  return {
    smtpPort: port("MAIL_SMTP_PORT", DEFAULT_MAIL_SMTP_PORT),
    uiPort: port("MAIL_UI_PORT", DEFAULT_MAIL_UI_PORT),
  };
}

export async function startMailDev(opts: MailDevOptions): Promise<MailDev> {
  const require = createRequire(import.meta.url);
  const bin = path.join(path.dirname(require.resolve("maildev/package.json")), "bin", "maildev");
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--import",
      new URL("./exit-with-parent.mjs", import.meta.url).href,
      bin,
      "--ip",
      opts.host,
      "--smtp",
      String(opts.smtpPort),
      "--web",
      String(opts.uiPort),
      "--silent",
    ],
    { stdio: ["pipe", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  let exited = false;
  child.on("exit", () => (exited = true));
  const uiUrl = `http://${opts.host}:${opts.uiPort}`;

  const deadline = Date.now() + (opts.startTimeoutMs ?? 20_000);
  while (true) {
    if (exited) {
      throw new StackError(
        `MailDev did not start (SMTP port ${opts.smtpPort}, UI port ${opts.uiPort}; set MAIL_SMTP_PORT / MAIL_UI_PORT to free ports): ${stderr.trim().split("\n").at(-1) ?? "exited"}`,
        "maildev_failed",
      );
    }
    try {
      const res = await fetch(`${uiUrl}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new StackError(
        `MailDev did not answer on ${uiUrl} within the start timeout.`,
        "maildev_timeout",
      );
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  opts.log?.(`maildev: SMTP ${opts.host}:${opts.smtpPort}, UI ${uiUrl}`);

  return {
    smtpPort: opts.smtpPort,
    uiUrl,
    async emails() {
      const res = await fetch(`${uiUrl}/email`);
      if (!res.ok) throw new Error(`MailDev GET /email: ${res.status}`);
      return (await res.json()) as CaughtEmail[];
    },
    async clear() {
      await fetch(`${uiUrl}/email/all`, { method: "DELETE" });
    },
    stop() {
      if (exited) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      });
    },
  };
}
