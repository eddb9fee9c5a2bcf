// Alert delivery end to end on the real stack (PGlite, and PostgreSQL with STACK_DB=postgres):
// a scan that crosses a subscriber's threshold becomes outbox jobs (enqueue_alerts), the
// deliver-alerts function sends them to MailDev and the Discord/Telegram stand-ins, records them
// in alerts_sent; cooldown, dead workers, 429/500 retries, inactive users and ticket e-mails.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Quote } from "../../supabase/functions/_shared/domain/market.ts";
import {
  demoUser,
  serviceClient,
  signedInUser,
  stackInfo,
  type Client,
} from "../support/clients.ts";
import { sleep } from "../support/realtime.ts";
import { spawn } from "node:child_process";
import path from "node:path";
import { DENO_BIN, DENO_CONFIG, denoEnv, FUNCTIONS_DIR } from "../../devstack/deno.ts";

interface CaughtEmail {
  subject: string;
  text?: string;
  html?: string;
  to: { address: string }[];
  headers: Record<string, string>;
}
interface ChatRequest {
  service: "discord" | "telegram";
  status: number;
  target: string;
  body: Record<string, unknown>;
}

const run = Date.now().toString(36).toUpperCase();
let serial = 0;

async function emailsTo(address: string): Promise<CaughtEmail[]> {
  const res = await fetch(`${stackInfo().mailUrl}/email`);
  return ((await res.json()) as CaughtEmail[]).filter((m) =>
    m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()),
  );
}

async function chatRequests(target: string): Promise<ChatRequest[]> {
  const res = await fetch(`${stackInfo().chatUrl}/__standins/requests`);
  return ((await res.json()) as ChatRequest[]).filter((r) => r.target === target);
}

async function standIn(path: string, body: unknown) {
  const res = await fetch(`${stackInfo().chatUrl}/__standins/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

async function deliver(): Promise<{
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
}> {
  const s = stackInfo();
  // Its budget is 20 s, and each send has a time-out: an invocation that has not answered in 40 s
  // is stuck, and says so here instead of as the test's own time-out.
  const res = await fetch(`${s.url}/functions/v1/deliver-alerts`, {
    method: "POST",
    headers: { authorization: `Bearer ${s.secretKey}`, "content-type": "application/json" },
    body: "{}",
    signal: AbortSignal.timeout(40_000),
  }).catch((err: unknown) => {
    throw new Error(`deliver-alerts did not answer within 40 s: ${String(err)}`);
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { claimed: number; sent: number; retried: number; failed: number };
}

/** The delivery worker as its own process (`worker.ts --once`), on the stack and its stand-ins. */
function workerProcess(settings: Record<string, string>) {
  const s = stackInfo();
  return spawn(
    DENO_BIN,
    [
      "run",
      "--cached-only",
      "--frozen",
      "--node-modules-dir=none",
      "--config",
      DENO_CONFIG,
      "--allow-env",
      "--allow-net",
      "--allow-read",
      path.join(FUNCTIONS_DIR, "deliver-alerts/worker.ts"),
      "--once",
    ],
    {
      env: {
        ...denoEnv(),
        SUPABASE_URL: s.url,
        SUPABASE_SERVICE_ROLE_KEY: s.secretKey,
        DISCORD_API_URL: `${s.chatUrl}/api`,
        TELEGRAM_API_URL: s.chatUrl,
        TELEGRAM_BOT_TOKEN: "123456789:local-stand-in-token",
        SMTP_HOST: "127.0.0.1",
        SMTP_PORT: String(s.smtpPort),
        ...settings,
      },
      stdio: "ignore",
    },
  );
}

/** A supergroup-style chat id (-100 and ten digits, a safe integer) unique to this run. */
function chatIdFor(n: number): string {
  return `-100${String((Date.now() % 1e8) * 100 + (n % 100)).padStart(10, "0")}`;
}

/** The subscribers of the running test; afterEach ends their subscriptions. */
const current: string[] = [];

interface Subscriber {
  id: string;
  email: string;
  webhookId: string;
  chatId: string;
  client: Client;
}

/** A fresh enterprise subscriber with all three channels and a 5 % threshold on 30 minutes. */
async function subscriber(extra: Record<string, unknown> = {}): Promise<Subscriber> {
  const u = await signedInUser();
  const n = ++serial;
  const webhookId = `9${Date.now()}${n}`.slice(0, 19);
  const chatId = chatIdFor(n);
  const service = serviceClient();
  const { error } = await service
    .from("profiles")
    .update({
      plan: "enterprise",
      subscription_active: true,
      selected_window_minutes: 30,
      user_threshold: 5,
      email_alert: u.email,
      discord_webhook_url: `https://discord.com/api/webhooks/${webhookId}/tok-${n}`,
      telegram_chat_id: chatId,
      ...extra,
    } as never)
    .eq("id", u.user.id);
  expect(error).toBeNull();
  current.push(u.user.id);
  return { id: u.user.id, email: u.email, webhookId, chatId, client: u.client };
}

/** The symbols this suite ingested; removed at the end, so later suites see only their own movers. */
const ingested = new Set<string>();

/** Two scans of fresh symbols: a base price 30 minutes ago, then `factor` times it now. */
async function crossingScan(symbols: string[], factor: number, at = new Date()): Promise<string> {
  const service = serviceClient();
  for (const symbol of symbols) ingested.add(symbol);
  const quote = (symbol: string, price: number, ts: Date): Quote => ({
    venueKey: `Binance:${symbol}`,
    symbol,
    exchange: "Binance",
    exchangeType: "cex",
    network: null,
    source: "simulated",
    selection: "cex-major",
    poolUrl: null,
    price,
    volume24h: 1_000_000, // above the thin floor (decision 0046): default settings alert it
    ts: ts.toISOString(),
  });
  const before = new Date(at.getTime() - 30 * 60_000);
  const first = await service.rpc("ingest_scan", {
    quotes: symbols.map((s) => quote(s, 1, before)) as never,
    scanned_at: before.toISOString(),
  });
  expect(first.error).toBeNull();
  return laterScan(symbols, factor, at);
}

async function laterScan(symbols: string[], price: number, at: Date): Promise<string> {
  const service = serviceClient();
  const scannedAt = at.toISOString();
  const q = symbols.map((symbol) => ({
    venueKey: `Binance:${symbol}`,
    symbol,
    exchange: "Binance",
    exchangeType: "cex",
    source: "simulated",
    price,
    volume24h: 1_000_000, // above the thin floor (decision 0046): default settings alert it
    ts: scannedAt,
  }));
  const second = await service.rpc("ingest_scan", { quotes: q as never, scanned_at: scannedAt });
  expect(second.error).toBeNull();
  const enq = await service.rpc("enqueue_alerts", { scanned_at: scannedAt });
  expect(enq.error).toBeNull();
  return scannedAt;
}

function sym(tag: string) {
  return `A${tag}${run}${++serial}/USDT`;
}

describe("alert delivery", () => {
  // The seeded enterprise demo account has all three channels too: off while these tests count
  // what the stand-ins receive (and the 429/500 they answer), restored afterwards.
  let demoChannels: {
    email_alert: string | null;
    discord_webhook_url: string | null;
    telegram_chat_id: string | null;
  } | null = null;
  beforeAll(async () => {
    const service = serviceClient();
    const { data } = await service
      .from("profiles")
      .select("email_alert, discord_webhook_url, telegram_chat_id")
      .eq("email", "enterprise@demo.local")
      .single();
    demoChannels = data;
    await service
      .from("profiles")
      .update({ email_alert: null, discord_webhook_url: null, telegram_chat_id: null })
      .eq("email", "enterprise@demo.local");
    // Whatever earlier suites left in the outbox is sent first.
    await deliver();
  });
  afterAll(async () => {
    // Their history and movers cascade; a big fake move must not crowd out later suites' movers.
    if (ingested.size) {
      await serviceClient()
        .from("instruments")
        .delete()
        .in("symbol", [...ingested]);
    }
    if (demoChannels) {
      await serviceClient()
        .from("profiles")
        .update(demoChannels)
        .eq("email", "enterprise@demo.local");
    }
  });
  afterEach(async () => {
    // Every subscriber gets every crossing symbol: end this test's ones so the next test counts its own.
    if (current.length) {
      await serviceClient()
        .from("profiles")
        .update({ subscription_active: false })
        .in("id", current.splice(0));
    }
    await fetch(`${stackInfo().chatUrl}/__standins/reset`, { method: "POST" });
    await deliver();
  });

  it("sends exactly one alert per user, channel and symbol, and none inside the cooldown", async () => {
    const u = await subscriber();
    const symbol = sym("ONE");
    const t0 = new Date();
    await crossingScan([symbol], 1.2, t0);
    const report = await deliver();
    expect(report.sent).toBeGreaterThanOrEqual(3);

    const mails = await emailsTo(u.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(symbol);
    expect(mails[0]!.subject).toContain("+20.00%");
    expect(mails[0]!.text).toContain("/dashboard?symbol=");
    expect(mails[0]!.text).toContain("/alerts/unsubscribe?token=");
    expect(mails[0]!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");

    const discord = await chatRequests(u.webhookId);
    expect(discord.map((r) => r.status)).toEqual([200]);
    const embeds = discord[0]!.body.embeds as { title: string }[];
    expect(embeds[0]!.title).toContain(symbol);
    const telegram = await chatRequests(u.chatId);
    expect(telegram.map((r) => r.status)).toEqual([200]);
    expect(String(telegram[0]!.body.text)).toContain(symbol);

    // The user reads their own alerts (one per channel), nobody else's.
    const own = await u.client.from("alerts_sent").select("symbol, channel, pct, user_id");
    expect(own.error).toBeNull();
    expect(own.data!.map((r) => r.channel).sort()).toEqual(["discord", "email", "telegram"]);
    expect(own.data!.every((r) => r.user_id === u.id && r.symbol === symbol)).toBe(true);

    // A second scan a minute later moves the price again, inside the 15-minute cooldown: nothing.
    await laterScan([symbol], 1.5, new Date(t0.getTime() + 60_000));
    await deliver();
    expect(await emailsTo(u.email)).toHaveLength(1);
    expect(await chatRequests(u.webhookId)).toHaveLength(1);
    expect(await chatRequests(u.chatId)).toHaveLength(1);
  });

  it("sends one digest when many symbols cross at once", async () => {
    const u = await subscriber();
    const symbols = Array.from({ length: 6 }, () => sym("DIG"));
    await crossingScan(symbols, 1.3);
    await deliver();
    const mails = await emailsTo(u.email);
    expect(mails).toHaveLength(1);
    for (const s of symbols) expect(mails[0]!.text).toContain(s);
    expect(await chatRequests(u.webhookId)).toHaveLength(1);
    expect(await chatRequests(u.chatId)).toHaveLength(1);

    // One record per delivered message (decision 0043): the digest's symbols in one row each channel.
    const own = await u.client.from("alerts_sent").select("channel, symbol, symbols, symbol_count");
    expect(own.error).toBeNull();
    expect(own.data!.map((r) => r.channel).sort()).toEqual(["discord", "email", "telegram"]);
    for (const r of own.data!) {
      expect(r.symbol_count).toBe(6);
      expect([...r.symbols].sort()).toEqual([...symbols].sort());
      expect(r.symbol).toBe(r.symbols[0]);
    }
  });

  it("the alert that reaches the daily cap arrives as its own notice, in the user's language and zone", async () => {
    const u = await subscriber({ alert_daily_cap: 1, locale: "de", time_zone: "Asia/Tokyo" });
    const symbol = sym("CAP");
    const at = new Date();
    await crossingScan([symbol], 1.2, at);
    await deliver();
    // Tokyo keeps UTC+9 all year: the cap ends at the next midnight there.
    const tokyo = 9 * 3_600_000;
    const tokyoMidnight = new Date(
      (Math.floor((at.getTime() + tokyo) / 86_400_000) + 1) * 86_400_000 - tokyo,
    );
    const until = `${new Intl.DateTimeFormat("de", {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone: "Asia/Tokyo",
    }).format(tokyoMidnight)} (Asia/Tokyo)`;
    expect(until).toMatch(/, 00:00 \(Asia\/Tokyo\)$/);
    const notice = `Heute keine weiteren Alarme bis ${until}.`;

    const mails = await emailsTo(u.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Tageslimit von 1 Alarm erreicht: /);
    expect(mails[0]!.subject).toContain(symbol);
    // The move and the quote's time in German and in the user's zone (issue 28).
    expect(mails[0]!.subject).toContain("stieg um +20,00\u00a0% in 30 Min.");
    expect(mails[0]!.text).toMatch(/Zeit: \d\d\.\d\d\.\d{4}, \d\d:\d\d:\d\d \(Asia\/Tokyo\)/);
    expect(mails[0]!.text).toContain(notice);
    expect(mails[0]!.text).toContain("Das Limit ändern Sie in Ihren Alarmeinstellungen: ");
    expect(mails[0]!.text).toContain("/dashboard/settings");

    const discord = await chatRequests(u.webhookId);
    expect(discord.map((r) => r.status)).toEqual([200]);
    const embeds = discord[0]!.body.embeds as { title: string; description?: string }[];
    expect(embeds.map((e) => e.title)).toEqual([
      "Tageslimit von 1 Alarm erreicht",
      expect.stringContaining(symbol),
    ]);
    expect(embeds[0]!.description).toContain(notice);

    const telegram = await chatRequests(u.chatId);
    expect(telegram.map((r) => r.status)).toEqual([200]);
    expect(String(telegram[0]!.body.text)).toContain("<b>Tageslimit von 1 Alarm erreicht</b>");
    expect(String(telegram[0]!.body.text)).toContain(notice);
    expect(String(telegram[0]!.body.text)).toContain(symbol);
  });

  it("sends nothing to inactive subscribers, and stops pending alerts when the plan changes", async () => {
    const inactive = await subscriber({ subscription_active: false });
    const downgraded = await subscriber();
    await crossingScan([sym("OFF")], 1.25);
    const service = serviceClient();
    const { error } = await service
      .from("profiles")
      .update({ plan: "pro" })
      .eq("id", downgraded.id);
    expect(error).toBeNull();
    await deliver();
    for (const u of [inactive, downgraded]) {
      expect(await emailsTo(u.email)).toHaveLength(0);
      expect(await chatRequests(u.webhookId)).toHaveLength(0);
      expect(await chatRequests(u.chatId)).toHaveLength(0);
    }
  });

  it("loses nothing and duplicates nothing when a worker dies mid-send", async () => {
    const u = await subscriber();
    await crossingScan([sym("DIE")], 1.2);
    const service = serviceClient();
    // A worker claims everything due, then dies before sending (its lease is 5 s).
    const claimed = await service.rpc("claim_outbox", {
      worker: "dead-worker",
      max_jobs: 500,
      lease_seconds: 5,
    });
    expect(claimed.error).toBeNull();
    const mine = (claimed.data ?? []).filter((j) => j.target === u.email || j.target === u.chatId);
    expect(mine.length).toBe(2);
    await deliver();
    expect(await emailsTo(u.email)).toHaveLength(0);
    await sleep(5_500);
    await deliver();
    expect(await emailsTo(u.email)).toHaveLength(1);
    expect(await chatRequests(u.chatId)).toHaveLength(1);
    // The dead worker's late answer is refused: no second record.
    for (const j of mine) {
      const late = await service.rpc("complete_outbox", { job_id: j.id!, worker: "dead-worker" });
      expect(late.data).toBe(false);
    }
    const own = await u.client.from("alerts_sent").select("channel");
    expect(own.data).toHaveLength(3);
  });

  it("a worker process killed mid-batch: every alert arrives once, except at most the one each sender had in flight, recorded in doubt", async () => {
    const CONCURRENCY = 2;
    const users = await Promise.all(Array.from({ length: 8 }, () => subscriber()));
    const admin = await demoUser("admin@demo.local");
    const statsBefore = await admin.client.rpc("admin_alert_delivery_stats");
    expect(statsBefore.error).toBeNull();
    const doubtBefore = new Map((statsBefore.data ?? []).map((r) => [r.channel, r.in_doubt]));
    await crossingScan([sym("KIL")], 1.2);
    // Slow answers, so the kill finds requests in flight.
    await standIn("delay", { ms: 400 });
    const s = stackInfo();
    const worker = workerProcess({
      DELIVERY_CONCURRENCY: String(CONCURRENCY),
      DELIVERY_LEASE_SECONDS: "5",
    });
    const exited = new Promise((r) => worker.once("exit", r));
    let beforeKill = 0;
    try {
      const hooks = new Set(users.map((u) => u.webhookId));
      for (let i = 0; i < 200; i++) {
        const res = await fetch(`${s.chatUrl}/__standins/requests?service=discord`);
        const got = ((await res.json()) as ChatRequest[]).filter((r) => hooks.has(r.target));
        beforeKill = got.length;
        if (got.length >= 3) break;
        await sleep(50);
      }
    } finally {
      worker.kill("SIGKILL");
      await exited;
      await standIn("delay", { ms: 0 });
    }
    // The dead worker's lease (5 s) runs out; the next workers deliver the rest.
    await sleep(5_500);
    for (let i = 0; i < 10; i++) {
      if ((await deliver()).claimed === 0) break;
    }
    let doubted = 0;
    const doubtedPer = { email: 0, discord: 0, telegram: 0 };
    for (const u of users) {
      const recorded = await u.client.from("alerts_sent").select("channel");
      expect(recorded.error).toBeNull();
      const channels = new Set((recorded.data ?? []).map((r) => r.channel));
      const arrivals = {
        email: (await emailsTo(u.email)).length,
        discord: (await chatRequests(u.webhookId)).filter((r) => r.status === 200).length,
        telegram: (await chatRequests(u.chatId)).filter((r) => r.status === 200).length,
      };
      for (const channel of ["email", "discord", "telegram"] as const) {
        // Never twice.
        expect(arrivals[channel]).toBeLessThanOrEqual(1);
        if (channels.has(channel)) {
          expect(arrivals[channel]).toBe(1);
        } else {
          doubted++;
          doubtedPer[channel]++;
        }
      }
    }
    // Killed with Discord requests in flight (each answer takes 400 ms): those are in doubt.
    expect(doubtedPer.discord).toBeGreaterThanOrEqual(1);
    // At most the message each of the killed worker's senders had in flight, per channel.
    for (const n of Object.values(doubtedPer)) expect(n).toBeLessThanOrEqual(CONCURRENCY);
    // Those are recorded as in doubt (and counted for the admin), not re-sent.
    const statsAfter = await admin.client.rpc("admin_alert_delivery_stats");
    expect(statsAfter.error).toBeNull();
    let doubtDelta = 0;
    for (const r of statsAfter.data ?? [])
      doubtDelta += (r.in_doubt ?? 0) - (doubtBefore.get(r.channel) ?? 0);
    expect(doubtDelta).toBe(doubted);
    // The worker was killed mid-batch: it had sent some, not all.
    expect(beforeKill).toBeGreaterThanOrEqual(3);
    expect(beforeKill).toBeLessThan(users.length);
  });

  it("a batch claimed ahead and handed back is due at once; a job marked as being sent is never handed back", async () => {
    const u = await subscriber();
    await crossingScan([sym("REL")], 1.2);
    const service = serviceClient();
    const worker = `ahead-${run}`;
    const claimed = await service.rpc("claim_outbox", {
      worker,
      max_jobs: 500,
      lease_seconds: 600,
    });
    expect(claimed.error).toBeNull();
    const mine = (claimed.data ?? []).filter((j) =>
      [u.email, u.chatId, `https://discord.com/api/webhooks/${u.webhookId}/tok-`].some((t) =>
        j.target!.startsWith(t),
      ),
    );
    expect(mine).toHaveLength(3);
    const discordJob = mine.find((j) => j.channel === "discord")!;
    // The Discord job is marked (its request would be on its way); the others are not.
    const begun = await service.rpc("begin_outbox_sends", {
      worker,
      job_ids: [discordJob.id!],
    });
    expect(begun.error).toBeNull();
    const released = await service.rpc("release_outbox", {
      worker,
      job_ids: mine.map((j) => j.id!),
    });
    expect(released.error).toBeNull();
    expect(released.data).toBe(2);
    // Handed back: another worker sends them now, not after the 600 s lease.
    await deliver();
    expect(await emailsTo(u.email)).toHaveLength(1);
    expect((await chatRequests(u.chatId)).filter((r) => r.status === 200)).toHaveLength(1);
    // The marked one is still the first worker's: nobody else sent it.
    expect(await chatRequests(u.webhookId)).toHaveLength(0);
    const done = await service.rpc("complete_outbox_batch", {
      worker,
      results: [{ id: discordJob.id!, recipient: "discord" }],
    });
    expect(done.data).toBe(1);
    const own = await u.client.from("alerts_sent").select("channel");
    expect((own.data ?? []).map((r) => r.channel).sort()).toEqual(["discord", "email", "telegram"]);
  });

  it("a worker killed with a batch claimed ahead: that batch is sent exactly once, only after its lease ended", async () => {
    const LEASE = 5;
    const users = await Promise.all(Array.from({ length: 8 }, () => subscriber()));
    const admin = await demoUser("admin@demo.local");
    const doubtOf = async () => {
      const stats = await admin.client.rpc("admin_alert_delivery_stats");
      expect(stats.error).toBeNull();
      return (stats.data ?? []).find((r) => r.channel === "discord")?.in_doubt ?? 0;
    };
    const doubtBefore = await doubtOf();
    await crossingScan([sym("AHD")], 1.2);
    // Slow answers: the worker sends two jobs per claim (one sender each) and claims the next
    // two while it sends; it is killed while its second batch is on its way.
    await standIn("delay", { ms: 400 });
    const s = stackInfo();
    const worker = workerProcess({
      DELIVERY_CONCURRENCY: "2",
      DELIVERY_CLAIM_SIZE: "2",
      DELIVERY_LEASE_SECONDS: String(LEASE),
    });
    const exited = new Promise((r) => worker.once("exit", r));
    const hooks = new Set(users.map((u) => u.webhookId));
    const discordArrivals = async () => {
      const res = await fetch(`${s.chatUrl}/__standins/requests?service=discord`);
      return ((await res.json()) as ChatRequest[]).filter(
        (r) => hooks.has(r.target) && r.status === 200,
      );
    };
    let killedAt: number;
    try {
      // The first batch answered and the second on its way: the third is claimed ahead.
      for (let i = 0; i < 300; i++) {
        if ((await discordArrivals()).length >= 3) break;
        await sleep(25);
      }
    } finally {
      worker.kill("SIGKILL");
      killedAt = Date.now();
      await exited;
      await standIn("delay", { ms: 0 });
    }
    const sentBefore = (await discordArrivals()).length;
    expect(sentBefore).toBeGreaterThanOrEqual(3);
    expect(sentBefore).toBeLessThan(users.length);
    const recordedDiscord = async () => {
      let n = 0;
      for (const u of users) {
        const { data, error } = await u.client.from("alerts_sent").select("channel");
        expect(error).toBeNull();
        if ((data ?? []).some((r) => r.channel === "discord")) n++;
      }
      return n;
    };
    // The first lease has ended; the batch claimed ahead (two leases, never begun) has not, so a
    // new worker sends everything else but not that batch. The batch in flight at the kill may
    // itself have been claimed ahead (which batch was in flight depends on when the kill landed):
    // then it waits for its two leases too. Either way 2 or 4 jobs are held.
    await sleep(Math.max(0, killedAt + (LEASE + 1) * 1000 - Date.now()));
    for (let i = 0; i < 10; i++) if ((await deliver()).claimed === 0) break;
    const held = users.length - ((await doubtOf()) - doubtBefore) - (await recordedDiscord());
    expect([2, 4]).toContain(held);
    // The batch claimed ahead has not arrived (a message in doubt may have, before the kill).
    expect((await discordArrivals()).length).toBeLessThanOrEqual(users.length - 2);
    // Its lease ends: it is sent, once; at most the two messages on their way at the kill
    // (one per sender) are in doubt, and not sent again.
    await sleep(Math.max(0, killedAt + (2 * LEASE + 1) * 1000 - Date.now()));
    for (let i = 0; i < 10; i++) if ((await deliver()).claimed === 0) break;
    const doubted = (await doubtOf()) - doubtBefore;
    expect(doubted).toBeLessThanOrEqual(2);
    expect(await recordedDiscord()).toBe(users.length - doubted);
    const arrivals = await discordArrivals();
    // Never twice; everything not in doubt arrived.
    expect(new Set(arrivals.map((r) => r.target)).size).toBe(arrivals.length);
    expect(arrivals.length).toBeGreaterThanOrEqual(users.length - doubted);
  });

  it("refuses the delivery figures to anyone but an admin", async () => {
    const u = await signedInUser();
    const refused = await u.client.rpc("admin_alert_delivery_stats");
    expect(refused.error?.code).toBe("42501");
    const admin = await demoUser("admin@demo.local");
    const stats = await admin.client.rpc("admin_alert_delivery_stats");
    expect(stats.error).toBeNull();
    expect((stats.data ?? []).map((r) => r.channel)).toEqual(["discord", "email", "telegram"]);
  });

  it("retries 429 and 500 answers of Discord and Telegram", async () => {
    const u = await subscriber({ email_alert: null });
    // Aimed at this subscriber's webhook and chat: a job left over from an earlier test (a lease
    // that expires now) must not use up the failures.
    await standIn("fail", {
      service: "discord",
      status: 429,
      times: 1,
      retryAfter: 0.2,
      target: u.webhookId,
    });
    await standIn("fail", { service: "telegram", status: 500, times: 1, target: u.chatId });
    await crossingScan([sym("RTY")], 1.2);
    const first = await deliver();
    expect(first.retried).toBeGreaterThanOrEqual(2);
    // Backoff: the first retry is due 5 s after the failure. Bounded by time, below the test's
    // own time-out, so a miss fails on the answers below rather than on the clock.
    const until = Date.now() + 40_000;
    while (Date.now() < until) {
      await deliver();
      const d = await chatRequests(u.webhookId);
      const t = await chatRequests(u.chatId);
      if (d.length >= 2 && t.length >= 2) break;
      await sleep(500);
    }
    expect((await chatRequests(u.webhookId)).map((r) => r.status)).toEqual([429, 200]);
    expect((await chatRequests(u.chatId)).map((r) => r.status)).toEqual([500, 200]);
  });

  it("follows a Telegram chat that became a supergroup", async () => {
    const u = await subscriber({ email_alert: null, discord_webhook_url: null });
    const moved = chatIdFor(99);
    await standIn("migrate", { from: u.chatId, to: moved });
    await crossingScan([sym("MIG")], 1.2);
    await deliver();
    expect((await chatRequests(u.chatId)).map((r) => r.status)).toEqual([400]);
    expect((await chatRequests(moved)).map((r) => r.status)).toEqual([200]);
    const { data } = await serviceClient()
      .from("profiles")
      .select("telegram_chat_id")
      .eq("id", u.id)
      .single();
    expect(data!.telegram_chat_id).toBe(moved);
  });

  it("e-mails the ticket's owner on an admin reply and a status change, in their language", async () => {
    const owner = await signedInUser();
    await serviceClient()
      .from("profiles")
      .update({ locale: "de" } as never)
      .eq("id", owner.user.id);
    const ticket = await owner.client
      .from("support_tickets")
      .insert({ subject: `Alarm fehlt ${run}`, content: "Mein Alarm kam nicht an, bitte prüfen." })
      .select("id, ticket_number")
      .single();
    expect(ticket.error).toBeNull();
    const admin = await demoUser("admin@demo.local");
    const reply = await admin.client
      .from("ticket_messages")
      .insert({ ticket_id: ticket.data!.id, content: "Wir sehen uns das an." });
    expect(reply.error).toBeNull();
    const status = await admin.client.rpc("admin_set_ticket_status", {
      ticket: ticket.data!.id,
      new_status: "resolved",
    });
    expect(status.error).toBeNull();
    await deliver();
    const mails = await emailsTo(owner.email);
    expect(mails).toHaveLength(2);
    const subjects = mails.map((m) => m.subject).sort();
    expect(subjects[0]).toContain(`#${ticket.data!.ticket_number}`);
    expect(mails.some((m) => m.subject.includes("Neue Antwort"))).toBe(true);
    expect(mails.some((m) => m.subject.includes("gelöst"))).toBe(true);
    for (const m of mails) expect(m.text).toContain(`/support/ticket/${ticket.data!.id}`);
    // Delivered once: another run sends nothing new.
    await deliver();
    expect(await emailsTo(owner.email)).toHaveLength(2);
  });
});
