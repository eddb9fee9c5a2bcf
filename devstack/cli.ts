// Entry point of the local stack: `start`, `dev` and `db:reset` (see package.json scripts).
import { rmSync } from "node:fs";
import path from "node:path";
import { defaultOptions } from "./config.ts";
import { backupDatabase, restoreDatabase } from "./backup.ts";
import { openDatabase } from "./database.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./demo-accounts.ts";
import { StackError } from "./errors.ts";
import { startStack } from "./stack.ts";
import { alertServicePorts } from "./alerts/services.ts";
import { buildWeb, serveBuiltWeb, serveDevWeb } from "./web.ts";

process.env.LITE_TELEMETRY = "0";
process.env.DO_NOT_TRACK = "1";

async function resetDatabase() {
  const opts = defaultOptions();
  if (opts.databaseUrl) {
    const db = await openDatabase(opts);
    await db.query(
      "drop schema if exists public, private, auth, storage, realtime, supabase_migrations, extensions cascade",
    );
    await db.query("create schema public");
    await db.close();
  } else {
    rmSync(path.join(opts.dataDir, "pglite"), { recursive: true, force: true });
    rmSync(path.join(opts.dataDir, "READY"), { force: true });
  }
  // Files that belong to the database's rows: stored objects and the Stripe stand-in's state.
  for (const p of ["storage", "stripe.json"]) {
    rmSync(path.join(opts.dataDir, p), { recursive: true, force: true });
  }
  const stack = await startStack({ ...opts, functions: false, quiet: true });
  await stack.stop();
  console.log(
    `Database reset (${stack.db.location}): ${stack.migrations.applied.length} migrations applied${stack.migrations.seeded ? ", seed applied" : ""}.`,
  );
}

async function run(mode: "start" | "dev") {
  const opts = defaultOptions();
  const webPort = Number(process.env.WEB_PORT ?? 5173);
  const t0 = performance.now();
  const stack = await startStack({ ...opts, watch: mode === "dev", alerts: alertServicePorts() });
  const apiReady = Math.round(performance.now() - t0);
  const webEnv = {
    VITE_SUPABASE_URL: process.env.VITE_SUPABASE_URL ?? stack.url,
    VITE_SUPABASE_PUBLISHABLE_KEY: stack.secrets.publishableKey,
  };
  let closeWeb: () => Promise<void>;
  try {
    if (mode === "dev") {
      const vite = await serveDevWeb(webPort, opts.host, webEnv);
      closeWeb = () => vite.close();
    } else {
      await buildWeb(webEnv, console.log);
      const server = await serveBuiltWeb(webPort, opts.host);
      closeWeb = () => new Promise((r) => server.close(() => r()));
    }
  } catch (err) {
    await stack.stop();
    throw err;
  }
  const webUrl = `http://${opts.host}:${webPort}`;
  console.log(
    [
      "",
      `  App        ${webUrl}`,
      `  API        ${stack.url}   (/auth/v1 /rest/v1 /storage/v1 /realtime/v1 /functions/v1 /api)`,
      `  Database   ${stack.db.kind} · ${stack.db.location}`,
      `  Keys       publishable ${stack.secrets.publishableKey} (secret key in .env.local)`,
      `  Stripe     ${stack.stripe ? `local stand-in at ${stack.url}/v1, webhooks to stripe-webhook (keys in .env.local)` : "your STRIPE_SECRET_KEY (stand-in off)"}`,
      ...(stack.alerts
        ? [
            `  Mail       MailDev ${stack.alerts.mail.uiUrl}   (SMTP ${opts.host}:${stack.alerts.mail.smtpPort})`,
            `  Chats      Discord & Telegram stand-ins ${stack.alerts.chat.url}`,
          ]
        : []),
      `  Started    API in ${(apiReady / 1000).toFixed(1)} s${stack.migrations.applied.length ? ` · ${stack.migrations.applied.length} migrations applied` : ""}${stack.migrations.seeded ? " · demo data seeded" : ""}`,
      "",
      `  Demo accounts (password ${DEMO_PASSWORD}):`,
      ...DEMO_ACCOUNTS.map(
        (a) => `    ${a.email.padEnd(24)} ${a.role === "user" ? "" : `${a.role}, `}plan ${a.plan}`,
      ),
      "",
      "  Press Ctrl+C to stop.",
      "",
    ].join("\n"),
  );
  // Last line of defence once everything serves: a bug one request reaches must not stop the
  // database, API and Realtime with it. The causes are fixed where they are found (decision 0015).
  const survive = (what: string) => (err: unknown) =>
    console.error(
      `error: ${what} (the stack keeps running): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
  process.on("uncaughtException", survive("an unexpected exception"));
  process.on("unhandledRejection", survive("an unhandled rejection"));
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await closeWeb().catch(() => {});
    await stack.stop().catch(() => {});
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

const command = process.argv[2];
try {
  if (command === "start" || command === "dev") await run(command);
  else if (command === "db:reset") await resetDatabase();
  else if (command === "db:backup") {
    // Run with the stack stopped (PGlite's folder has one user at a time).
    const file =
      process.argv[3] ??
      `backups/moverscan-${new Date().toISOString().replace(/[:.]/g, "-")}.backup`;
    const bytes = await backupDatabase(defaultOptions(), file);
    console.log(`Backed up the database to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB).`);
  } else if (command === "db:restore") {
    const file = process.argv[3];
    if (!file) throw new StackError("usage: npm run db:restore -- <file>", "USAGE");
    await restoreDatabase(defaultOptions(), file);
    console.log(`Restored ${file}; start the stack with npm start.`);
  } else {
    console.error(
      "usage: devstack/cli.ts start | dev | db:reset | db:backup [file] | db:restore <file>",
    );
    process.exit(2);
  }
} catch (err) {
  if (err instanceof StackError) {
    console.error(`error: ${err.message}`);
    process.exit(1);
  }
  throw err;
}
