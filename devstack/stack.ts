// The Docker-free local Supabase stack: @supabase/lite (Auth, PostgREST, Storage) over
// PGlite or Postgres, the Realtime stand-in, the Deno functions host, the Stripe stand-in
// (when no real Stripe key is set) and the gateway that puts them on one port.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import http from "node:http";
import { createServer as createNetServer } from "node:net";
import path from "node:path";
import { getRequestListener } from "@hono/node-server";
import { App, setExperimental } from "@supabase/lite";
import { parse as parseToml } from "smol-toml";
import { ensureSecrets, type StackOptions, type StackSecrets } from "./config.ts";
import { openDatabase, READY_MARKER, type Db } from "./database.ts";
import { startMarketCron, type CronRunner } from "./cron.ts";
import { rollupIntervalMs, startHistoryCron, type HistoryCron } from "./history-cron.ts";
import { startRetention, type RetentionRunner } from "./retention.ts";
import { startAutovacuum, type AutovacuumRunner } from "./autovacuum.ts";
import { StackError } from "./errors.ts";
import { startFunctionsHost, type FunctionsHost } from "./functions/host.ts";
import { closeAfterEarlyAnswer, parseSize } from "./body-limit.ts";
import {
  bodyLimit,
  createGateway,
  DEFAULT_MAX_UPLOAD_BYTES,
  MULTIPART_ROOM_BYTES,
  tooLarge,
} from "./gateway.ts";
import { badRequestTarget, guardServer, refuseUpgrade, sendBadRequest } from "./http-guard.ts";
import { installLogRedaction } from "./logs.ts";
import { applyMigrations, applyPlatformSql, ensureHistoryTables } from "./migrate.ts";
import { installPostgrestErrors } from "./postgrest-errors.ts";
import { readAuthRateLimits, type AuthRateLimits } from "./rate-limit.ts";
import { type RealtimeOptions, RealtimeServer } from "./realtime/server.ts";
import {
  fakeVenueSettings,
  fakeVenuesWanted,
  startFakeVenues,
  type FakeVenues,
} from "./venues/fake-venues.ts";
import { FAKE_DEX_REPLAY_MS, replayFakeDexHistory } from "./venues/replay.ts";
import { startStreamReaders, type StreamReaders } from "./venues/readers.ts";
import { FilesystemStorage } from "./storage-adapter.ts";
import { StripeStandIn } from "./stripe/standin.ts";
import {
  startAlertServices,
  type AlertServices,
  type AlertServicesOptions,
} from "./alerts/services.ts";

/** The scan function's venue settings (decision 0017) the stack passes on, when set. */
export function scanSettings(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const names = [
    "BINANCE_API_URL",
    "COINBASE_API_URL",
    "GECKOTERMINAL_API_URL",
    "GECKOTERMINAL_NETWORKS",
    "GECKOTERMINAL_PAGES",
    "BINANCE_WS_URL",
    "COINBASE_WS_URL",
    "DEX_MIN_LIQUIDITY_USD",
    "MARKET_CADENCE_SECONDS",
    "SCAN_INTERVAL_SECONDS",
    "STREAM_SAFETY_POLL_SECONDS",
  ];
  return setOnly(names, env);
}

/** The api function's settings (README) the stack passes on, when set. */
function apiSettings(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const names = [
    "API_ALLOWED_ORIGINS",
    "API_COOKIE_PROJECT_URL",
    "API_STREAM_MAX_MS",
    "API_STREAM_REAUTH_MS",
    "API_REALTIME_PROBE_SECONDS",
  ];
  return setOnly(names, env);
}

/** The named settings that are set in `env`. */
function setOnly(names: string[], env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
}

export interface Stack {
  url: string;
  secrets: StackSecrets;
  db: Db;
  app: App;
  realtime: RealtimeServer;
  /** The local Stripe stand-in, or null when a real Stripe key is configured. */
  stripe: StripeStandIn | null;
  /** MailDev and the Discord/Telegram stand-ins, when started (`alerts` option). */
  alerts: AlertServices | null;
  /** The fake Binance, Coinbase and GeckoTerminal servers, when started (FAKE_VENUES=1). */
  venues: FakeVenues | null;
  migrations: { applied: string[]; seeded: boolean };
  timings: Record<string, number>;
  stop(): Promise<void>;
}

export interface StartOptions extends StackOptions {
  /** Restart functions on file changes (npm run dev). */
  watch?: boolean;
  /** Shared secret for admin self-promotion (default: ADMIN_SETUP_SECRET). */
  adminSecret?: string;
  /** Skip the Deno functions host (faster for suites that do not call functions). */
  functions?: boolean;
  log?: (line: string) => void;
  /** Realtime: close sockets silent for this long (default 60 s; tests shorten it). */
  realtimeIdleTimeoutMs?: number;
  /** Realtime limits (connections, joins, channels per client); the bench raises them. */
  realtimeLimits?: Pick<
    RealtimeOptions,
    | "maxChannelsPerSocket"
    | "maxConnectionsPerClient"
    | "maxJoinsPerSecond"
    | "maxConcurrentAuthorizations"
  >;
  /** Stripe stand-in: where it sends webhook events (default `<url>/functions/v1/stripe-webhook`). */
  stripeWebhookUrl?: string;
  /** Stripe stand-in: pauses before the retries of a failed delivery (default 0.5 s, 1 s, 2 s). */
  stripeWebhookRetryDelaysMs?: number[];
  /** Invoke the `scan` function every SCAN_INTERVAL_SECONDS (default on when functions run). */
  cron?: boolean;
  /** Alert delivery: MailDev and the chat stand-ins (ports; `npm start` passes the fixed ones). Off when unset. */
  alerts?: AlertServicesOptions;
  /**
   * Start the fake venues (devstack/venues) and point the scan at them (default: FAKE_VENUES=1).
   * Settings the environment has (`*_API_URL`, MARKET_SOURCES) win.
   */
  fakeVenues?: boolean;
  /** Auth's per-IP limits (default: config.toml's [auth.rate_limit], AUTH_RATE_LIMIT_* override). */
  authRateLimits?: Partial<AuthRateLimits>;
}

/** `[storage] file_size_limit` of config.toml plus room for the multipart framing. */
function uploadLimit(configToml: string): number {
  try {
    const conf = parseToml(readFileSync(configToml, "utf8")) as {
      storage?: { file_size_limit?: string | number };
    };
    const size = parseSize(conf.storage?.file_size_limit, 0);
    return size > 0 ? size + MULTIPART_ROOM_BYTES : DEFAULT_MAX_UPLOAD_BYTES;
  } catch {
    return DEFAULT_MAX_UPLOAD_BYTES;
  }
}

/** Where the SPA is served (SITE_URL, else WEB_PORT on the stack's host, as the CLI does). */
export function siteUrl(host: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.SITE_URL || `http://${host}:${Number(env.WEB_PORT ?? 5173)}`;
}

export function listen(
  server: http.Server,
  port: number,
  host: string,
  variable: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      reject(
        err.code === "EADDRINUSE"
          ? new StackError(
              `Port ${port} is already in use; set ${variable} to another port.`,
              "PORT_IN_USE",
            )
          : err,
      );
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      s.close(() => resolve(typeof addr === "object" && addr ? addr.port : 0));
    });
  });
}

export async function startStack(opts: StartOptions): Promise<Stack> {
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  const mark = (k: string) => (timings[k] = Math.round(performance.now() - t0));
  const log = opts.log ?? (opts.quiet ? () => {} : (l: string) => console.log(l));
  // lite logs refused queries with their SQL and parameters; keep them out of the log.
  installLogRedaction();
  const url = `http://${opts.host}:${opts.apiPort}`;

  // Claim the port first so a conflict fails in milliseconds, before any heavy work.
  let handler: (req: Request, peer: string | null) => Promise<Response> = async () =>
    new Response(JSON.stringify({ message: "The local stack is starting" }), { status: 503 });
  const listener = getRequestListener((req, env) =>
    handler(req, (env.incoming as http.IncomingMessage).socket.remoteAddress ?? null),
  );
  // A request whose URL cannot be decoded is answered 400 here, before any handler parses it.
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    // An answer given before the body has arrived says `Connection: close` and the socket
    // drains before it closes, so keep-alive pools neither reuse it nor get reset (issue 30).
    closeAfterEarlyAnswer(req, res);
    const bad = badRequestTarget(req.url);
    if (bad) return sendBadRequest(res, bad);
    void listener(req, res);
  };
  const server = http.createServer(onRequest);
  // `Expect: 100-continue` (curl, above 1 MB): refuse an oversized body before it is sent.
  const maxUploadBytes = uploadLimit(opts.configToml);
  server.on("checkContinue", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const declared = Number(req.headers["content-length"] ?? NaN);
    const { pathname } = new URL(badRequestTarget(req.url) ? "/" : (req.url ?? "/"), "http://x");
    const { upload, limit } = bodyLimit(req.method ?? "GET", pathname, { maxUploadBytes });
    if (declared > limit) {
      closeAfterEarlyAnswer(req, res);
      const answer = tooLarge(upload, limit);
      void answer.text().then((body) => {
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        res.end(body);
      });
      return;
    }
    res.writeContinue();
    onRequest(req, res);
  });
  server.keepAliveTimeout = 65_000;
  guardServer(server);
  let realtime: RealtimeServer | undefined;
  server.on("upgrade", (req, socket, head) => {
    socket.on("error", () => socket.destroy());
    const bad = badRequestTarget(req.url);
    if (bad) return refuseUpgrade(socket, 400, "Bad Request", bad);
    if (!realtime) return refuseUpgrade(socket, 503, "Service Unavailable", "Realtime is starting");
    try {
      realtime.handleUpgrade(req, socket, head);
    } catch (err) {
      log(`realtime: refused an upgrade: ${(err as Error).message}`);
      refuseUpgrade(socket, 400, "Bad Request", "The upgrade request could not be served.");
    }
  });
  await listen(server, opts.apiPort, opts.host, "API_PORT");

  let db: Db | undefined;
  let functions: FunctionsHost | null = null;
  let stripe: StripeStandIn | null = null;
  let cron: CronRunner | null = null;
  let historyCron: HistoryCron | null = null;
  let retention: RetentionRunner | null = null;
  let autovacuum: AutovacuumRunner | null = null;
  let alerts: AlertServices | null = null;
  let venues: FakeVenues | null = null;
  let streams: StreamReaders | null = null;
  const stop = async () => {
    await cron?.stop();
    await streams?.stop();
    await historyCron?.stop();
    await retention?.stop();
    await autovacuum?.stop();
    await alerts?.stop();
    await venues?.stop();
    await stripe?.close();
    await realtime?.stop();
    await new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
    await functions?.stop();
    await db?.close();
  };

  try {
    const secrets = await ensureSecrets(url, opts.envFile);
    mkdirSync(opts.dataDir, { recursive: true });
    db = await openDatabase(opts);
    mark("dbOpen");

    // lite 0.10.0 would, on its first request, `GRANT ALL ON ALL TABLES` to anon/authenticated
    // in every schema holding an RLS table, wiping the column privileges migrations set.
    // Roles and grants come from platform SQL instead, exactly as on Supabase.
    (db.connection as unknown as { rlsState: string }).rlsState = "active";
    installPostgrestErrors(db.connection);
    setExperimental("storage", true);
    const app: App = new App({
      connection: db.connection,
      api: { schemas: ["public", "graphql_public"], max_rows: 1000 },
      auth: {
        enabled: true,
        enable_signup: true,
        jwt_secret: secrets.jwtSecret,
        publishable_key: secrets.publishableKey,
        secret_key: secrets.secretKey,
        site_url: siteUrl(opts.host),
        jwt_expiry: 3600,
        enable_refresh_token_rotation: true,
        minimum_password_length: 8,
        email: { enable_signup: true, enable_confirmations: false },
      },
      storage: { enabled: true, file_size_limit: "50MiB" },
      options: { server: { admin: false, disableStudio: true } },
    } as ConstructorParameters<typeof App>[0]) as unknown as App;
    app._storageAdapter = new FilesystemStorage(path.join(opts.dataDir, "storage"));

    await ensureHistoryTables(db);
    await app.ensureSystemSchema();
    mark("systemSchema");
    await applyPlatformSql(db);
    // From here the folder is a complete database; each migration is its own transaction.
    if (db.kind === "pglite" && !existsSync(path.join(opts.dataDir, READY_MARKER))) {
      writeFileSync(path.join(opts.dataDir, READY_MARKER), new Date().toISOString());
    }
    const migrations = await applyMigrations(db, opts);
    mark("migrations");
    // The admin self-promotion secret is kept in the database, never in the client.
    const adminSecret = opts.adminSecret ?? process.env.ADMIN_SETUP_SECRET;
    if (adminSecret) {
      await db.query(
        `insert into private.app_settings (key, value) values ('admin_setup_secret', $1)
         on conflict (key) do update set value = excluded.value, updated_at = now()`,
        [adminSecret],
      );
    }
    await app.init();

    if (secrets.stripe.standIn) {
      stripe = new StripeStandIn({
        apiUrl: url,
        secretKey: secrets.stripe.secretKey!,
        webhookSecret: secrets.stripe.webhookSecret!,
        prices: {
          basic: secrets.stripe.prices.basic!,
          pro: secrets.stripe.prices.pro!,
          enterprise: secrets.stripe.prices.enterprise!,
        },
        dataFile: path.join(opts.dataDir, "stripe.json"),
        webhookUrl: opts.stripeWebhookUrl,
        webhookRetryDelaysMs: opts.stripeWebhookRetryDelaysMs,
        log,
      });
    }

    if (opts.alerts && opts.functions !== false) {
      alerts = await startAlertServices(opts.host, opts.alerts, log);
      mark("alerts");
    }

    // The venues' settings the scan and the local schedules read (the fakes fill what is unset).
    let venueEnv: Record<string, string> = {};
    if (opts.fakeVenues ?? fakeVenuesWanted()) {
      venues = await startFakeVenues({ host: opts.host, log });
      venueEnv = fakeVenueSettings(venues);
      log(
        `[venues] fake Binance ${venues.urls.binance}, Coinbase ${venues.urls.coinbase}, GeckoTerminal ${venues.urls.dex} (FAKE_VENUES)`,
      );
      // The fake pools' past, so each has its window figures from the first scan (decision
      // 0086); FAKE_DEX_REPLAY=0 starts them without one.
      if (process.env.FAKE_DEX_REPLAY !== "0") {
        const minLiquidity = Number(process.env.DEX_MIN_LIQUIDITY_USD || Number.NaN);
        const replayed = await replayFakeDexHistory(db, venues.market, {
          ...(Number.isFinite(minLiquidity) && minLiquidity >= 0
            ? { minLiquidityUsd: minLiquidity }
            : {}),
        }).catch((err: unknown) => {
          log(`[venues] the fake pools' past was not stored: ${(err as Error).message}`);
          return null;
        });
        if (replayed) {
          log(
            `[venues] replayed the fake GeckoTerminal pools' last ${FAKE_DEX_REPLAY_MS / 60_000} min: ${replayed.samples} samples of ${replayed.instruments} new pools in ${replayed.ms} ms`,
          );
        }
      }
      mark("venues");
    }
    const marketSources = venueEnv.MARKET_SOURCES || process.env.MARKET_SOURCES || "simulated";

    if (opts.functions !== false) {
      const hostPort = await freePort();
      functions = await startFunctionsHost({
        functionsDir: opts.functionsDir,
        configToml: opts.configToml,
        watch: opts.watch,
        log,
        env: {
          FUNCTIONS_HOST_PORT: String(hostPort),
          SUPABASE_URL: url,
          SUPABASE_ANON_KEY: secrets.publishableKey,
          SUPABASE_PUBLISHABLE_KEY: secrets.publishableKey,
          SUPABASE_SERVICE_ROLE_KEY: secrets.secretKey,
          SUPABASE_SECRET_KEY: secrets.secretKey,
          ...(opts.databaseUrl ? { SUPABASE_DB_URL: opts.databaseUrl } : {}),
          SITE_URL: siteUrl(opts.host),
          MARKET_SOURCES: marketSources,
          ...(process.env.SCAN_SECRET ? { SCAN_SECRET: process.env.SCAN_SECRET } : {}),
          ...apiSettings(),
          ...scanSettings(),
          ...venueEnv,
          ...secrets.stripe.env,
          ...alerts?.functionsEnv,
        },
      });
      mark("functions");
    }

    const rt = new RealtimeServer({
      db,
      jwtSecret: secrets.jwtSecret,
      publishableKey: secrets.publishableKey,
      secretKey: secrets.secretKey,
      log,
      idleTimeoutMs: opts.realtimeIdleTimeoutMs,
      // Embedded PGlite runs one statement at a time: one join authorisation at once leaves it
      // free for REST in between; Postgres serves a few at once from its pool (decision 0016).
      maxConcurrentAuthorizations: db.kind === "pglite" ? 1 : 4,
      ...opts.realtimeLimits,
    });
    await rt.start();
    realtime = rt;
    mark("realtime");

    const standIn = stripe;
    handler = createGateway({
      lite: (req, peerAddress) => app.fetch(req, { peerAddress }) as Promise<Response>,
      functions: () => functions,
      realtime: (req) => rt.fetch(req),
      stripe: standIn ? (req) => standIn.fetch(req) : undefined,
      jwtSecret: secrets.jwtSecret,
      secretKey: secrets.secretKey,
      publishableKey: secrets.publishableKey,
      maxUploadBytes,
      authRateLimits: { ...readAuthRateLimits(opts.configToml), ...opts.authRateLimits },
    });
    // What pg_cron + pg_net do on a hosted project: call the scan on schedule.
    if (functions && opts.cron !== false) {
      cron = startMarketCron({
        env: { ...process.env, MARKET_SOURCES: marketSources },
        apiUrl: url,
        serviceKey: secrets.secretKey,
        log,
      });
      // The enqueue's NOTIFY on `outbox` wakes the worker at once (decision 0069).
      const listening = db;
      alerts?.startCron(url, secrets.secretKey, (channel, onPayload) =>
        listening.listen(channel, onPayload),
      );
      // What the streaming worker beside a hosted project does (decision 0054), where a venue
      // has a stream URL (BINANCE_WS_URL, COINBASE_WS_URL; FAKE_VENUES sets them).
      streams = await startStreamReaders({
        apiUrl: url,
        serviceKey: secrets.secretKey,
        env: { ...process.env, ...venueEnv, MARKET_SOURCES: marketSources },
        log,
      });
    }
    // What pg_cron does for the candle history (plain SQL, so it needs no functions host).
    if (opts.cron !== false) {
      historyCron = startHistoryCron({
        apiUrl: url,
        serviceKey: secrets.secretKey,
        intervalMs: rollupIntervalMs(),
        log,
      });
    }
    // What the hourly pg_cron job `retention` does on a hosted project (docs/retention.md).
    if (opts.cron !== false) {
      retention = startRetention({ db, log });
      void retention.tick();
    }
    // What PostgreSQL's autovacuum does, where there is none: PGlite (decision 0119).
    if (opts.cron !== false && db.kind === "pglite") autovacuum = startAutovacuum({ db, log });
    mark("ready");
    return {
      url,
      secrets,
      db,
      app,
      realtime: rt,
      stripe,
      alerts,
      venues,
      migrations,
      timings,
      stop,
    };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}
