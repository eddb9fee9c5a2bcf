// POST /functions/v1/deliver-alerts: the outbox worker (decision 0020). Invoked by the scan
// after it enqueued alerts, and on a schedule (pg_cron in production, the local stack's runner)
// for retries and ticket e-mails. It claims due jobs (`claim_outbox`, a lease), sends each on its
// channel, then completes or fails it; repeats until nothing is due or its time budget is spent.
// Callers authenticate with the service-role key or SCAN_SECRET.
//
// POST /functions/v1/deliver-alerts/unsubscribe?token=…: one-click unsubscribe (RFC 8058) from
// the List-Unsubscribe header of alert e-mails; no session needed, the token decides.
import type { SupabaseClient } from "@supabase/supabase-js";
import { functionApp, methodNotAllowed } from "../_shared/app.ts";
import { denoEnv, type Env, notConfigured } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { bearerToken, createServiceClient } from "../_shared/supabase.ts";
import {
  type Channel,
  type ChannelDeps,
  type ChannelName,
  discordChannel,
  emailChannel,
  type Job,
  type SendResult,
  telegramChannel,
} from "./channels.ts";
import type { Links } from "./messages.ts";

/** The database side of the worker. */
export interface OutboxDb {
  claim(worker: string, max: number, leaseSeconds: number): Promise<Job[]>;
  /** Several completions in one round trip; returns how many were accepted. */
  completeMany(worker: string, results: { id: number; recipient: string }[]): Promise<number>;
  fail(
    id: number,
    worker: string,
    error: string,
    retryAfter: number | undefined,
    permanent: boolean,
  ): Promise<string | null>;
  moveTelegramChat(oldId: string, newId: string): Promise<void>;
  unsubscribe(token: string): Promise<boolean>;
}

export function supabaseOutboxDb(client: SupabaseClient): OutboxDb {
  return {
    async claim(worker, max, leaseSeconds) {
      const { data, error } = await client.rpc("claim_outbox", {
        worker,
        max_jobs: max,
        lease_seconds: leaseSeconds,
      });
      if (error) throw new Error(`claim_outbox failed: ${error.message}`);
      return ((data ?? []) as Job[]).map((j) => ({ ...j, id: Number(j.id) }));
    },
    async completeMany(worker, results) {
      const { data, error } = await client.rpc("complete_outbox_batch", { worker, results });
      if (error) throw new Error(`complete_outbox_batch failed: ${error.message}`);
      return Number(data ?? 0);
    },
    async fail(id, worker, message, retryAfter, permanent) {
      const { data, error } = await client.rpc("fail_outbox", {
        job_id: id,
        worker,
        error: message,
        retry_after_seconds: retryAfter ?? null,
        permanent,
      });
      if (error) throw new Error(`fail_outbox failed: ${error.message}`);
      return (data as string | null) ?? null;
    },
    async moveTelegramChat(oldId, newId) {
      const { error } = await client.rpc("move_telegram_chat", {
        old_chat_id: oldId,
        new_chat_id: newId,
      });
      if (error) throw new Error(`move_telegram_chat failed: ${error.message}`);
    },
    async unsubscribe(token) {
      const { data, error } = await client.rpc("unsubscribe_alert_email", { token });
      if (error) throw new Error(`unsubscribe_alert_email failed: ${error.message}`);
      return data === true;
    },
  };
}

export interface DeliverDeps {
  env?: Env;
  fetch?: typeof fetch;
  db?: (env: Env) => OutboxDb;
  channels?: Partial<Record<ChannelName, Channel>>;
  /** How long one invocation keeps claiming (default 20 s; the scan's call and the schedule overlap safely). */
  budgetMs?: number;
  /** Jobs per claim (default 50; completions are flushed per claim) and parallel recipients (default 16). */
  batch?: number;
  concurrency?: number;
  leaseSeconds?: number;
  sleep?: ChannelDeps["sleep"];
  now?: () => number;
}

export interface DeliverReport {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
  durationMs: number;
}

function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

function authorize(env: Env, req: Request): void {
  const accepted = ["SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_SECRET_KEY", "SCAN_SECRET"]
    .map((name) => env(name)?.trim())
    .filter((v): v is string => !!v);
  if (accepted.length === 0) {
    throw notConfigured("delivery_not_configured", ["SUPABASE_SERVICE_ROLE_KEY", "SCAN_SECRET"]);
  }
  const token = bearerToken(req);
  if (!token || !accepted.some((secret) => sameSecret(token, secret))) {
    throw new HttpError(
      401,
      "unauthorized",
      "Delivery needs the service-role key or SCAN_SECRET.",
    );
  }
}

export function linksFrom(env: Env): Links {
  const site = env("SITE_URL")?.trim() || "http://localhost:5173";
  const api = env("SUPABASE_URL")?.trim();
  return {
    site,
    ...(api
      ? {
        unsubscribeEndpoint: `${api.replace(/\/+$/, "")}/functions/v1/deliver-alerts/unsubscribe`,
      }
      : {}),
  };
}

/** Runs `tasks` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await run(items[next++]!);
  });
  await Promise.all(workers);
}

export function createDeliverApp(deps: DeliverDeps = {}) {
  const env = deps.env ?? denoEnv;
  const now = deps.now ?? Date.now;
  const makeDb = deps.db ??
    ((e: Env) => supabaseOutboxDb(createServiceClient(e, "delivery_not_configured")));
  const app = functionApp("deliver-alerts", { cors: false });
  // Channels live as long as the app: their rate-limit state (Discord buckets, Telegram's one
  // message per second per chat) spans invocations.
  let channels: Record<ChannelName, Channel> | null = null;
  function channelsFor(db: OutboxDb): Record<ChannelName, Channel> {
    if (!channels) {
      const cd: ChannelDeps = {
        env,
        fetch: deps.fetch,
        links: linksFrom(env),
        sleep: deps.sleep,
        now,
        moveTelegramChat: (a, b) => db.moveTelegramChat(a, b),
      };
      channels = {
        email: deps.channels?.email ?? emailChannel(cd),
        discord: deps.channels?.discord ?? discordChannel(cd),
        telegram: deps.channels?.telegram ?? telegramChannel(cd),
      };
    }
    return channels;
  }

  /** One invocation: claim, send, record, until nothing is due or the budget is spent. */
  async function drain(db: OutboxDb): Promise<DeliverReport> {
    const started = now();
    const worker = `deliver-${crypto.randomUUID()}`;
    const budget = deps.budgetMs ?? 20_000;
    const report: DeliverReport = { claimed: 0, sent: 0, retried: 0, failed: 0, durationMs: 0 };
    const ch = channelsFor(db);
    while (now() - started < budget) {
      const jobs = await db.claim(worker, deps.batch ?? 50, deps.leaseSeconds ?? 60);
      if (jobs.length === 0) break;
      report.claimed += jobs.length;
      // Jobs to one recipient go one after another (Telegram: 1 per second per chat; Discord:
      // one bucket per webhook); different recipients in parallel.
      const groups = new Map<string, Job[]>();
      for (const job of jobs) {
        const key = `${job.channel}\u0000${job.target}`;
        groups.set(key, [...(groups.get(key) ?? []), job]);
      }
      // Completions are flushed once per claimed batch (one round trip, not one per job).
      const done: { id: number; recipient: string }[] = [];
      await pool([...groups.values()], deps.concurrency ?? 16, async (group) => {
        for (const job of group) {
          let result: SendResult;
          try {
            result = await ch[job.channel].send(job);
          } catch (err) {
            result = { ok: false, error: err instanceof Error ? err.message : String(err) };
          }
          if (result.ok) {
            done.push({ id: job.id, recipient: result.recipient });
            report.sent++;
          } else {
            const state = await db.fail(
              job.id,
              worker,
              result.error,
              result.retryAfter,
              result.permanent ?? false,
            );
            if (state === "pending") report.retried++;
            else report.failed++;
            console.warn(
              `[deliver-alerts] job ${job.id} (${job.channel}) ${state}: ${result.error}`,
            );
          }
        }
      });
      if (done.length > 0) await db.completeMany(worker, done);
    }
    report.durationMs = now() - started;
    return report;
  }

  app.post("/", async (c) => {
    authorize(env, c.req.raw);
    return c.json(await drain(makeDb(env)));
  });
  app.all("/", () => methodNotAllowed("POST"));

  // One-click unsubscribe: POST (RFC 8058, mail clients) only; the link in the e-mail's body
  // opens the SPA's page, which calls the same RPC.
  app.post("/unsubscribe", async (c) => {
    const token = c.req.query("token") ?? "";
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(token)) {
      throw new HttpError(400, "invalid_token", "The unsubscribe link is not valid.");
    }
    const known = await makeDb(env).unsubscribe(token);
    if (!known) throw new HttpError(404, "unknown_token", "The unsubscribe link is not valid.");
    return c.json({ unsubscribed: true });
  });
  app.all("/unsubscribe", () => methodNotAllowed("POST"));
  return app;
}

export default createDeliverApp();
