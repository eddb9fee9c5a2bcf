// POST /functions/v1/deliver-alerts: the outbox worker (decision 0020). Invoked by the scan
// after it enqueued alerts, and on a schedule (pg_cron in production, the local stack's runner)
// for retries and ticket e-mails. It claims due jobs (`claim_outbox`, a lease), sends each on its
// channel, then completes or fails it; repeats until nothing is due or its time budget is spent.
// Callers authenticate with the service-role key or SCAN_SECRET.
//
// POST /functions/v1/deliver-alerts/unsubscribe?token=…: one-click unsubscribe (RFC 8058) from
// the List-Unsubscribe header of alert e-mails; no session needed, the token decides.
import { type Db, serviceClient } from "../_shared/clients.ts";
import { functionApp, methodNotAllowed } from "../_shared/app.ts";
import { denoEnv, type Env } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { requireBearerSecret } from "../_shared/bearer-secret.ts";
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
import { type Limits, limitsFrom, rateSetting, type SharedBuckets } from "./pacing.ts";
import type { Links } from "./messages.ts";
import { type ClaimedRow, withMessages } from "./claimed.ts";

/** The database side of the worker. */
export interface OutboxDb {
  /** Due jobs in fair order (`channel`: only that channel's). */
  claim(worker: string, max: number, leaseSeconds: number, channel?: ChannelName): Promise<Job[]>;
  /**
   * Records that `ids` are about to be sent (channels without an idempotency key) together with
   * the completions gathered since the last call; returns the ids whose claim still holds.
   */
  beginSends(
    worker: string,
    ids: number[],
    results: { id: number; recipient: string }[],
  ): Promise<number[]>;
  /** Several completions in one round trip; returns how many were accepted. */
  completeMany(worker: string, results: { id: number; recipient: string }[]): Promise<number>;
  fail(
    id: number,
    worker: string,
    error: string,
    retryAfter: number | undefined,
    permanent: boolean,
  ): Promise<string | null>;
  /**
   * Hands back claimed jobs this worker has not started to send (due again at once, the claim's
   * attempt undone); returns how many it handed back.
   */
  release(worker: string, ids: number[]): Promise<number>;
  /** A marked job's request got no answer in time: recorded in_doubt, not retried. */
  doubt(id: number, worker: string, error: string): Promise<boolean>;
  moveTelegramChat(oldId: string, newId: string): Promise<void>;
  unsubscribe(token: string): Promise<boolean>;
  /** The buckets of the shared limits, kept for all workers (decision 0049); absent: per worker. */
  buckets?: SharedBuckets;
  /**
   * Writes the jobs of up to `maxUsers` alert recipients an enqueue left for later slices
   * (`write_alert_jobs`, decision 0074); answers the jobs written and the recipients still
   * waiting. Absent: this database has no slices.
   */
  writeJobs?(maxUsers: number): Promise<{ jobs: number; pending: number }>;
}

export function supabaseOutboxDb(client: Db): OutboxDb {
  return {
    async writeJobs(maxUsers) {
      const { data, error } = await client.rpc("write_alert_jobs", { max_users: maxUsers });
      if (error) throw new Error(`write_alert_jobs failed: ${error.message}`);
      const r = data as { jobs?: number; pending?: number } | null;
      return { jobs: Number(r?.jobs ?? 0), pending: Number(r?.pending ?? 0) };
    },
    async claim(worker, max, leaseSeconds, channel) {
      const { data, error } = await client.rpc("claim_outbox", {
        worker,
        max_jobs: max,
        lease_seconds: leaseSeconds,
        ...(channel ? { only_channel: channel } : {}),
      });
      if (error) throw new Error(`claim_outbox failed: ${error.message}`);
      return withMessages((data ?? []) as (ClaimedRow & Omit<Job, "id" | "timeZone">)[]);
    },
    async beginSends(worker, ids, results) {
      const { data, error } = await client.rpc("begin_outbox_sends", {
        worker,
        job_ids: ids,
        results,
      });
      if (error) throw new Error(`begin_outbox_sends failed: ${error.message}`);
      return ((data ?? []) as (number | string)[]).map(Number);
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
        retry_after_seconds: retryAfter,
        permanent,
      });
      if (error) throw new Error(`fail_outbox failed: ${error.message}`);
      return (data as string | null) ?? null;
    },
    async release(worker, ids) {
      const { data, error } = await client.rpc("release_outbox", { worker, job_ids: ids });
      if (error) throw new Error(`release_outbox failed: ${error.message}`);
      return Number(data ?? 0);
    },
    async doubt(id, worker, message) {
      const { data, error } = await client.rpc("doubt_outbox", {
        job_id: id,
        worker,
        error: message,
      });
      if (error) throw new Error(`doubt_outbox failed: ${error.message}`);
      return data === true;
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
    buckets: {
      async take(name, rate, burst, wanted) {
        const { data, error } = await client.rpc("take_delivery_tokens", {
          name,
          rate,
          burst,
          wanted,
        });
        if (error) throw new Error(`take_delivery_tokens failed: ${error.message}`);
        const row = (Array.isArray(data) ? data[0] : data) as
          | { granted: number; wait_ms: number }
          | undefined;
        return { granted: Number(row?.granted ?? 0), waitMs: Number(row?.wait_ms ?? 1000) };
      },
      async pause(name, rate, seconds) {
        const { error } = await client.rpc("pause_delivery_bucket", { name, rate, seconds });
        if (error) throw new Error(`pause_delivery_bucket failed: ${error.message}`);
      },
      async reserve(name, rate, burst, wanted, horizonMs) {
        const { data, error } = await client.rpc("reserve_delivery_slots", {
          name,
          rate,
          burst,
          wanted,
          horizon_ms: horizonMs,
        });
        if (error) throw new Error(`reserve_delivery_slots failed: ${error.message}`);
        const row = (Array.isArray(data) ? data[0] : data) as
          | { waits_ms: number[] | null; next_ms: number }
          | undefined;
        return {
          waitsMs: (row?.waits_ms ?? []).map(Number),
          nextMs: Number(row?.next_ms ?? 1000),
        };
      },
    },
  };
}

/**
 * Group commit of a worker's progress: every sender that is about to send asks `begin(ids)`;
 * all who asked while the previous call was on its way go in the next single call, together
 * with the completions gathered meanwhile. A sender sends only once its mark is committed, so a
 * worker killed at any moment leaves at most the message each sender had in flight in doubt.
 */
export class Progress {
  private begins: {
    ids: number[];
    resolve: (ok: Set<number>) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private done: { id: number; recipient: string }[] = [];
  private running: Promise<void> | null = null;
  constructor(private readonly db: OutboxDb, private readonly worker: string) {}

  begin(ids: number[]): Promise<Set<number>> {
    return new Promise((resolve, reject) => {
      this.begins.push({ ids, resolve, reject });
      this.running ??= this.loop().finally(() => (this.running = null));
    });
  }

  complete(id: number, recipient: string): void {
    this.done.push({ id, recipient });
  }

  private async loop(): Promise<void> {
    // Senders that start together (a new claim) ask in the same tick: one call for all of them.
    await Promise.resolve();
    while (this.begins.length > 0) {
      const waiting = this.begins.splice(0);
      const done = this.done.splice(0);
      try {
        const ok = new Set(
          await this.db.beginSends(this.worker, waiting.flatMap((w) => w.ids), done),
        );
        for (const w of waiting) w.resolve(ok);
      } catch (err) {
        this.done.unshift(...done);
        for (const w of waiting) w.reject(err);
      }
    }
  }

  /** Records the completions not yet recorded. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
    const done = this.done.splice(0);
    if (done.length > 0) await this.db.completeMany(this.worker, done);
  }
}

export interface DeliverDeps {
  env?: Env;
  fetch?: typeof fetch;
  db?: (env: Env) => OutboxDb;
  channels?: Partial<Record<ChannelName, Channel>>;
  /** How long one invocation keeps claiming (default 20 s; the scan's call and the schedule overlap safely). */
  budgetMs?: number;
  /**
   * Jobs per claim (default: DELIVERY_CLAIM_SIZE, else per channel, see `claimSize`) and parallel
   * senders per channel (default: DELIVERY_CONCURRENCY, else per channel, see `sendersFor`).
   */
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
  /** Claimed jobs whose claim had ended before they were sent (another worker has them). */
  skipped: number;
  /** Requests without an idempotency key that got no answer in time (recorded in_doubt). */
  inDoubt: number;
  /** Jobs claimed ahead and handed back unsent because the budget ended. */
  released: number;
  /** Outbox jobs this invocation wrote from slices an enqueue left (decision 0074). */
  written: number;
  durationMs: number;
}

function authorize(env: Env, req: Request): void {
  requireBearerSecret(env, req, {
    notConfiguredCode: "delivery_not_configured",
    unauthorizedMessage: "Delivery needs the service-role key or SCAN_SECRET.",
  });
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

const CHANNELS: ChannelName[] = ["discord", "telegram", "email"];

/** Jobs in a drain's first claim per channel without batch calls (batch calls: one call's worth). */
const FIRST_CLAIM = 100;

/** Recipients per `write_alert_jobs` call (up to six jobs each: three channels, two messages). */
const WRITE_SLICE = 2000;

/**
 * Parallel senders per channel and invocation. Discord (each subscriber's own webhook, no limit
 * shared between them) 256: every sender that is about to send joins the next send-mark call,
 * so the senders set how many messages one round trip marks — 64 marked about 32 a call, 256
 * about 150 (decision 0082). Telegram and Resend are paced by their shared limits; SMTP is one
 * relay: 64, as before.
 */
export function sendersFor(channel: ChannelName): number {
  return channel === "discord" ? 256 : 64;
}

/**
 * Jobs per claim: what a channel can send well within one lease. Channels without a shared
 * limit take large claims: Discord's own webhooks the largest (1,000), so that a claim's 256
 * senders (`sendersFor`) have four waves to send while the next claim is made, not two
 * (decision 0082); SMTP 500. Telegram about ten seconds of its overall rate; Resend ten seconds
 * of its request rate times its batch size, in whole batches.
 */
export function claimSize(channel: ChannelName, limits: Limits, ch: Channel): number {
  if (channel === "telegram") {
    return Math.max(10, Math.min(1000, Math.floor(limits.telegramPerSecond * 10)));
  }
  const batch = ch.batchSize?.() ?? 1;
  if (channel === "email" && batch > 1) {
    // Whole batches: every batch call but a claim's last carries its full size.
    const jobs = Math.min(1000, Math.floor(limits.resendPerSecond * 10 * batch));
    return Math.max(batch, Math.floor(jobs / batch) * batch);
  }
  if (channel === "email" && ch.idempotent?.()) {
    return Math.max(10, Math.min(1000, Math.floor(limits.resendPerSecond * 10)));
  }
  return channel === "discord" ? 1000 : 500;
}

export function createDeliverApp(deps: DeliverDeps = {}) {
  const env = deps.env ?? denoEnv;
  const now = deps.now ?? Date.now;
  const makeDb = deps.db ??
    ((e: Env) => supabaseOutboxDb(serviceClient(e, "delivery_not_configured")));
  const app = functionApp("deliver-alerts", { cors: false });
  const limits = limitsFrom(env);
  // Parallel senders per channel (DELIVERY_CONCURRENCY for every channel; default per channel,
  // `sendersFor`).
  const concurrencySetting = deps.concurrency ??
    (env("DELIVERY_CONCURRENCY")?.trim()
      ? Math.min(1000, Math.max(1, Math.floor(rateSetting(env("DELIVERY_CONCURRENCY"), 64))))
      : undefined);
  const concurrencyFor = (name: ChannelName) => concurrencySetting ?? sendersFor(name);
  // The claim's lease (DELIVERY_LEASE_SECONDS, default 60; 5-900).
  const leaseSeconds = deps.leaseSeconds ??
    Math.min(900, Math.max(5, Math.floor(rateSetting(env("DELIVERY_LEASE_SECONDS"), 60))));
  // Jobs per claim (DELIVERY_CLAIM_SIZE, 1-1000; default per channel, `claimSize`).
  const claimSetting = deps.batch ??
    (env("DELIVERY_CLAIM_SIZE")?.trim()
      ? Math.min(1000, Math.max(1, Math.floor(rateSetting(env("DELIVERY_CLAIM_SIZE"), 500))))
      : undefined);
  const claimSizeFor = (name: ChannelName, channel: Channel) =>
    claimSetting ?? claimSize(name, limits, channel);
  // Channels live as long as the app: their pacing state (token buckets per bot, chat, team and
  // webhook) spans invocations.
  let channels: Record<ChannelName, Channel> | null = null;
  function channelsFor(db: OutboxDb): Record<ChannelName, Channel> {
    if (!channels) {
      const cd: ChannelDeps = {
        env,
        fetch: deps.fetch,
        links: linksFrom(env),
        sleep: deps.sleep,
        now,
        limits,
        moveTelegramChat: (a, b) => db.moveTelegramChat(a, b),
        shared: db.buckets,
      };
      channels = {
        email: deps.channels?.email ?? emailChannel(cd),
        discord: deps.channels?.discord ?? discordChannel(cd),
        telegram: deps.channels?.telegram ?? telegramChannel(cd),
      };
    }
    return channels;
  }

  /**
   * One invocation: each channel claims its own jobs and sends them at its own pace (a shared
   * limit on one channel never holds back another), until nothing is due or the budget is spent.
   */
  async function drain(db: OutboxDb): Promise<DeliverReport> {
    const started = now();
    const worker = `deliver-${crypto.randomUUID()}`;
    const budget = deps.budgetMs ?? 20_000;
    const report: DeliverReport = {
      claimed: 0,
      sent: 0,
      retried: 0,
      failed: 0,
      skipped: 0,
      inDoubt: 0,
      released: 0,
      written: 0,
      durationMs: 0,
    };
    const ch = channelsFor(db);
    const progress = new Progress(db, worker);

    // The slices an enqueue left (decision 0074) are written beside the claims, one after the
    // other, so the jobs already written go out meanwhile. A channel that finds nothing due
    // while slices are being written waits for the next slice instead of ending its loop.
    let writing = db.writeJobs !== undefined;
    let sliceDone: () => void = () => {};
    let nextSlice = new Promise<void>((resolve) => (sliceDone = resolve));
    let slices = 0;
    const sliceWritten = () => {
      slices++;
      const done = sliceDone;
      nextSlice = new Promise<void>((resolve) => (sliceDone = resolve));
      done();
    };
    const writer = (async () => {
      if (!db.writeJobs) return;
      try {
        while (now() - started < budget) {
          const slice = await db.writeJobs(WRITE_SLICE);
          report.written += slice.jobs;
          // Nothing written while some is pending: another worker holds those slices (skip
          // locked) and writes them; asking again at once would only spin.
          if (slice.pending === 0 || slice.jobs === 0) break;
          sliceWritten();
        }
      } catch (err) {
        // The next invocation (or the schedule's) writes them: a delay, never a lost job.
        console.warn(`[deliver-alerts] writing alert jobs failed: ${String(err)}`);
      } finally {
        writing = false;
        sliceWritten();
      }
    })();

    async function record(job: Job, result: SendResult, marked: boolean): Promise<void> {
      if (result.ok) {
        progress.complete(job.id, result.recipient);
        report.sent++;
        return;
      }
      if (result.doubt && marked && (await db.doubt(job.id, worker, result.error))) {
        report.inDoubt++;
        console.warn(`[deliver-alerts] job ${job.id} (${job.channel}) in doubt: ${result.error}`);
        return;
      }
      const state = await db.fail(
        job.id,
        worker,
        result.error,
        result.retryAfter,
        result.permanent ?? false,
      );
      if (state === "pending") report.retried++;
      else report.failed++;
      console.warn(`[deliver-alerts] job ${job.id} (${job.channel}) ${state}: ${result.error}`);
    }

    async function sendOne(channel: Channel, job: Job): Promise<void> {
      const marked = !channel.idempotent?.();
      if (marked) {
        // No idempotency key: the mark is committed before the request (decision 0031).
        const ok = await progress.begin([job.id]);
        if (!ok.has(job.id)) {
          report.skipped++;
          return;
        }
      }
      let result: SendResult;
      try {
        result = await channel.send(job);
      } catch (err) {
        result = { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
      await record(job, result, marked);
    }

    async function sendBatch(channel: Channel, jobs: Job[]): Promise<void> {
      const ok = await progress.begin(jobs.map((j) => j.id));
      const go = jobs.filter((j) => ok.has(j.id));
      report.skipped += jobs.length - go.length;
      if (go.length === 0) return;
      let results: SendResult[];
      try {
        results = await channel.sendBatch!(go);
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        results = go.map(() => ({ ok: false as const, error }));
      }
      for (const [i, job] of go.entries()) await record(job, results[i]!, true);
    }

    /** Sends one claimed batch and records its completions. */
    async function sendClaimed(
      channel: Channel,
      batchSize: number,
      concurrency: number,
      jobs: Job[],
    ): Promise<void> {
      if (batchSize > 1) {
        const chunks: Job[][] = [];
        for (let i = 0; i < jobs.length; i += batchSize) chunks.push(jobs.slice(i, i + batchSize));
        await pool(chunks, concurrency, (chunk) => sendBatch(channel, chunk));
      } else {
        // Jobs to one recipient go one after another (one Telegram chat, one Discord webhook's
        // bucket), in claim order; different recipients in parallel.
        const groups = new Map<string, Job[]>();
        for (const job of jobs) {
          const list = groups.get(job.target);
          if (list) list.push(job);
          else groups.set(job.target, [job]);
        }
        await pool([...groups.values()], concurrency, async (group) => {
          for (const job of group) await sendOne(channel, job);
        });
      }
      await progress.flush();
    }

    /**
     * Claims and sends until nothing is due or the budget is spent, with at most one batch
     * claimed ahead while the current one is sent (decision 0049 point 3, decision 0066): the
     * senders never idle at a claim's round trip. The batch claimed ahead holds a lease of two
     * leases (it waits for the current batch, then is sent) and no send mark, so a worker that
     * dies leaves it to be claimed again when that lease has ended, never in doubt. It is claimed
     * ahead only while the budget leaves time for one more batch (judged by the last one), and
     * handed back (`release_outbox`) when the budget ends before it is sent.
     */
    async function runChannel(name: ChannelName): Promise<void> {
      const channel = ch[name];
      const size = claimSizeFor(name, channel);
      const batchSize = channel.sendBatch ? (channel.batchSize?.() ?? 1) : 1;
      // The first claim is small (100 jobs; batch calls: one call's worth): the first messages
      // go out while the next, full claim is made (claimed ahead, below). Before, Resend claimed
      // ten seconds of its rate at once, and its first call waited for 1,000 jobs to be claimed,
      // marked and rendered (decision 0069).
      const first = Math.min(size, batchSize > 1 ? batchSize : FIRST_CLAIM);
      let asked = first;
      let next = first;
      const claim = (max: number, lease: number) => {
        asked = max;
        return db.claim(worker, max, lease, name);
      };
      let ahead: Promise<Job[]> | null = null;
      let lastBatchMs = 0;
      try {
        while (now() - started < budget) {
          const seen = slices;
          const jobs = await (ahead ?? claim(first, leaseSeconds));
          const full = jobs.length >= asked;
          ahead = null;
          if (jobs.length === 0) {
            if (!writing && slices === seen) break;
            // Jobs are still being written (above): claim again when the next slice is in (at
            // once if one came in while this claim was made).
            if (slices === seen) await nextSlice;
            continue;
          }
          report.claimed += jobs.length;
          const batchStart = now();
          // A full claim says more may be due: claim the next one while this one is sent.
          if (full && batchStart - started + 2 * lastBatchMs < budget) {
            // Claims grow (first, ×2, ×4, … up to the full size), so each is made well within
            // the time its predecessor takes to send: a full claim right after a one-call first
            // claim kept Resend's second call waiting for 900 jobs (decision 0069).
            next = Math.min(size, next * 2);
            ahead = claim(next, Math.min(900, leaseSeconds * 2));
            // Claimed-ahead jobs are counted when their turn comes; a failed claim is seen there.
            ahead.catch(() => {});
          }
          await sendClaimed(channel, batchSize, concurrencyFor(name), jobs);
          lastBatchMs = now() - batchStart;
        }
      } finally {
        if (ahead) await handBack(ahead);
      }
    }

    /** Hands a batch claimed ahead, and not sent, back to the queue (due at once). */
    async function handBack(ahead: Promise<Job[]>): Promise<void> {
      let jobs: Job[];
      try {
        jobs = await ahead;
      } catch {
        return;
      }
      if (jobs.length === 0) return;
      try {
        report.released += await db.release(worker, jobs.map((j) => j.id));
      } catch (err) {
        // Not handed back: they are claimed again when their lease ends (a delay, no double send).
        console.warn(`[deliver-alerts] handing back ${jobs.length} jobs failed: ${String(err)}`);
      }
    }

    const outcomes = await Promise.allSettled([...CHANNELS.map(runChannel), writer]);
    await progress.flush();
    const broken = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
    if (broken) throw broken.reason;
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
