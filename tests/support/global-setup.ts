// Vitest global setup for the stack suites: starts the local stack on PGlite (default) or on a
// temporary PostgreSQL 15 (STACK_DB=postgres) and hands its URL and keys to the tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack, type Stack } from "../../devstack/stack.ts";
import { postgresAvailable, startTempPostgres, type TempPostgres } from "./postgres.ts";
import { TEST_AUTH_RATE_LIMITS } from "./rate-limits.ts";

declare module "vitest" {
  export interface ProvidedContext {
    stack: {
      url: string;
      publishableKey: string;
      secretKey: string;
      jwtSecret: string;
      db: string;
      /** The temporary cluster's URL when STACK_DB=postgres (tests may create databases). */
      postgresUrl: string | null;
      /** MailDev's web UI (REST: GET /email) and the Discord/Telegram stand-ins. */
      mailUrl: string;
      chatUrl: string;
      /** MailDev's SMTP port (a worker process of the test's own sends there). */
      smtpPort: number;
      /** The admin self-promotion secret the stack is configured with. */
      adminSecret: string;
    };
  }
}

const ADMIN_SECRET = "stack-test-admin-secret";

let stack: Stack | undefined;
let pg: TempPostgres | undefined;
let tmp: string | undefined;

export async function setup(project: TestProject) {
  const kind = process.env.STACK_DB ?? "pglite";
  tmp = mkdtempSync(path.join(tmpdir(), "stack-test-"));
  let databaseUrl: string | undefined;
  if (kind === "postgres") {
    if (!postgresAvailable())
      throw new Error("PostgreSQL 15 binaries are missing (apt-get install postgresql-15)");
    pg = await startTempPostgres();
    databaseUrl = pg.url;
  }
  stack = await startStack({
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    databaseUrl,
    // No scheduled scans: suites that need one call the scan function themselves.
    cron: false,
    quiet: process.env.STACK_VERBOSE !== "1",
    // The suites sign up and sign in many accounts from one IP.
    authRateLimits: TEST_AUTH_RATE_LIMITS,
    // Alert delivery on free ports; suites call deliver-alerts themselves.
    alerts: { smtpPort: await freePort(), mailUiPort: await freePort(), chatPort: 0, cron: false },
    // Self-promotion is configured, as on a real deployment, so both its outcomes are tested.
    adminSecret: ADMIN_SECRET,
  });
  project.provide("stack", {
    url: stack.url,
    publishableKey: stack.secrets.publishableKey,
    secretKey: stack.secrets.secretKey,
    jwtSecret: stack.secrets.jwtSecret,
    db: stack.db.kind,
    postgresUrl: pg?.url ?? null,
    mailUrl: stack.alerts!.mail.uiUrl,
    chatUrl: stack.alerts!.chat.url,
    smtpPort: stack.alerts!.mail.smtpPort,
    adminSecret: ADMIN_SECRET,
  });
}

export async function teardown() {
  await stack?.stop();
  await pg?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}
