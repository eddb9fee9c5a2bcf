// Storm control on the real stack (PGlite, and PostgreSQL with STACK_DB=postgres), decision 0029:
// scans go through public.ingest_scan and public.enqueue_alerts as the scan function calls them,
// and the jobs are read back through public.claim_outbox as a worker would get them (the shared
// message merged in). Escalation step, daily cap with its one notice, quiet hours in the user's
// zone with dumps let through, and one enqueue per scan.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ClaimedRow, withMessages } from "../../supabase/functions/deliver-alerts/claimed.ts";
import { serviceClient, signedInUser } from "../support/clients.ts";

const run = Date.now().toString(36).toUpperCase();
let serial = 0;
const ingested = new Set<string>();
const users: string[] = [];

interface Job {
  id: number;
  kind: string;
  channel: string;
  target: string;
  payload: {
    shape: string;
    items: { symbol: string; pct: number; direction: string }[];
    capReached?: boolean;
    dailyCap?: number;
  };
}

function sym(tag: string) {
  return `S${tag}${run}${++serial}/USDT`;
}

/** An enterprise subscriber with e-mail alerts only, 5 % on 30 minutes, pumps and dumps. */
async function subscriber(extra: Record<string, unknown> = {}): Promise<string> {
  const u = await signedInUser();
  const { error } = await serviceClient()
    .from("profiles")
    .update({
      plan: "enterprise",
      subscription_active: true,
      selected_window_minutes: 30,
      user_threshold: 5,
      alert_directions: "both",
      email_alert: u.email,
      ...extra,
    } as never)
    .eq("id", u.user.id);
  expect(error).toBeNull();
  users.push(u.user.id);
  return u.email;
}

async function ingest(prices: Record<string, number>, at: Date) {
  const scannedAt = at.toISOString();
  for (const s of Object.keys(prices)) ingested.add(s);
  const { error } = await serviceClient().rpc("ingest_scan", {
    quotes: Object.entries(prices).map(([symbol, price]) => ({
      venueKey: `Binance:${symbol}`,
      symbol,
      exchange: "Binance",
      exchangeType: "cex",
      source: "simulated",
      price,
      volume24h: 1_000_000, // above the thin floor (decision 0046): default settings alert it
      ts: scannedAt,
    })) as never,
    scanned_at: scannedAt,
  });
  expect(error).toBeNull();
}

/** A scan as the scan function runs it: ingest, then enqueue (after its answer). */
async function scan(
  prices: Record<string, number>,
  at: Date,
): Promise<{ alerts: number; jobs: number }> {
  await ingest(prices, at);
  const { data, error } = await serviceClient().rpc("enqueue_alerts", {
    scanned_at: at.toISOString(),
  });
  expect(error).toBeNull();
  return data as unknown as { alerts: number; jobs: number };
}

/**
 * Claims every due job as a worker would, completes them, and returns those for `email` in the
 * order they were enqueued (a claim's rows come back in no particular order).
 */
async function jobsFor(email: string): Promise<Job[]> {
  return (await claimAll())
    .filter((j) => j.target === email)
    .sort((a, b) => Number(a.id) - Number(b.id));
}

/** Claims every due job as a worker would and completes them. */
async function claimAll(): Promise<Job[]> {
  const service = serviceClient();
  const mine: Job[] = [];
  for (;;) {
    const { data, error } = await service.rpc("claim_outbox", {
      worker: "storm-test",
      max_jobs: 500,
      lease_seconds: 60,
    });
    expect(error).toBeNull();
    // As the worker reads a claim: each job with its shared message (decision 0072).
    const claimed = withMessages((data ?? []) as unknown as ClaimedRow[]) as unknown as Job[];
    if (claimed.length === 0) return mine;
    mine.push(...claimed);
    const done = await service.rpc("complete_outbox_batch", {
      worker: "storm-test",
      results: claimed.map((j) => ({ id: j.id, recipient: j.target })) as never,
    });
    expect(done.error).toBeNull();
  }
}

const minutes = (n: number) => n * 60_000;
const hhmm = (d: Date) => d.toISOString().slice(11, 16);

describe("alert storm control", () => {
  let demo: Record<string, unknown> | null = null;
  beforeAll(async () => {
    const service = serviceClient();
    const { data } = await service
      .from("profiles")
      .select("email_alert, discord_webhook_url, telegram_chat_id")
      .eq("email", "enterprise@demo.local")
      .single();
    demo = data;
    await service
      .from("profiles")
      .update({ email_alert: null, discord_webhook_url: null, telegram_chat_id: null })
      .eq("email", "enterprise@demo.local");
    await jobsFor("nobody");
  });
  // Each test counts only its own subscribers' alerts.
  beforeEach(async () => {
    if (users.length) {
      await serviceClient().from("profiles").update({ subscription_active: false }).in("id", users);
    }
  });
  afterAll(async () => {
    const service = serviceClient();
    if (users.length) {
      await service.from("profiles").update({ subscription_active: false }).in("id", users);
    }
    if (ingested.size)
      await service
        .from("instruments")
        .delete()
        .in("symbol", [...ingested]);
    if (demo)
      await service
        .from("profiles")
        .update(demo as never)
        .eq("email", "enterprise@demo.local");
  });

  it("escalation: within a pump a symbol alerts again only when its move grew by the step", async () => {
    const email = await subscriber({ alert_escalation_step: 5, alert_cooldown_minutes: 15 });
    const s = sym("E");
    const t = Date.now() - minutes(90);
    // Two references: a window needs one at most 1.5 windows old (venue time, decision 0033).
    await ingest({ [s]: 1 }, new Date(t - minutes(30)));
    await ingest({ [s]: 1 }, new Date(t - minutes(10)));
    await scan({ [s]: 1.1 }, new Date(t));
    // 20 minutes later (cooldown over) +13 % on the window: grew by 3 points only.
    await scan({ [s]: 1.13 }, new Date(t + minutes(20)));
    // 25 minutes later +16 %: grew by 6 points.
    await scan({ [s]: 1.16 }, new Date(t + minutes(25)));
    const jobs = await jobsFor(email);
    expect(jobs.map((j) => j.payload.items[0]!.pct)).toEqual([10, 16]);
    expect(jobs.every((j) => j.payload.items[0]!.symbol === s)).toBe(true);
  });

  it("daily cap: the alert that reaches it carries the one notice, then nothing", async () => {
    // No time zone: the user's day is the UTC day.
    const email = await subscriber({ alert_daily_cap: 2 });
    const [a, b, c] = [sym("CA"), sym("CB"), sym("CC")];
    // Three scans on one UTC day (the user's day).
    const t = Date.now() - minutes(60);
    const start = t % 86_400_000 > 86_400_000 - minutes(5) ? t - minutes(10) : t;
    await ingest({ [a]: 1, [b]: 1, [c]: 1 }, new Date(start - minutes(30)));
    await scan({ [a]: 1.2 }, new Date(start));
    await scan({ [b]: 1.2 }, new Date(start + minutes(1)));
    await scan({ [c]: 1.2 }, new Date(start + minutes(2)));
    const jobs = await jobsFor(email);
    expect(jobs.map((j) => j.payload.items[0]!.symbol)).toEqual([a, b]);
    expect(jobs.map((j) => j.payload.capReached ?? false)).toEqual([false, true]);
    expect(jobs[1]!.payload.dailyCap).toBe(2);
  });

  it("quiet hours hold pumps, let dumps through when asked, and a pump still on alerts after them", async () => {
    const t = Date.now() - minutes(45);
    const now = new Date(t);
    // No time zone: quiet hours are in UTC.
    const quiet = {
      alert_quiet_start: hhmm(new Date(t - minutes(120))),
      alert_quiet_end: hhmm(new Date(t + minutes(120))),
    };
    const dumpsThrough = await subscriber({ ...quiet, alert_quiet_dumps: true });
    const holdAll = await subscriber(quiet);
    const [up, down] = [sym("QU"), sym("QD")];
    await ingest({ [up]: 1, [down]: 1 }, new Date(t - minutes(30)));
    // The scan's job count includes other suites' subscribers on the shared stack: count ours.
    await scan({ [up]: 1.2, [down]: 0.8 }, now);
    const held = await claimAll();
    expect(
      held.filter((j) => j.target === dumpsThrough).map((j) => j.payload.items[0]!.symbol),
    ).toEqual([down]);
    expect(held.filter((j) => j.target === holdAll)).toEqual([]);

    // Quiet hours end (moved away from now): the pump, still on, alerts both at the next scan.
    const later = {
      alert_quiet_start: hhmm(new Date(t + minutes(180))),
      alert_quiet_end: hhmm(new Date(t + minutes(240))),
    };
    await serviceClient()
      .from("profiles")
      .update(later as never)
      .in("id", users.slice(-2));
    await scan({ [up]: 1.21, [down]: 0.79 }, new Date(t + minutes(1)));
    const after = await claimAll();
    const jobsDumps = after.filter((j) => j.target === dumpsThrough);
    expect(jobsDumps.map((j) => j.payload.items[0]!.symbol)).toEqual([up]);
    const jobsAll = after.filter((j) => j.target === holdAll);
    expect(jobsAll.map((j) => j.payload.shape)).toEqual(["single", "single"]);
    expect(jobsAll.map((j) => j.payload.items[0]!.symbol).sort()).toEqual([down, up].sort());
  });

  it("enqueues a scan once", async () => {
    const email = await subscriber();
    const s = sym("O");
    const t = Date.now() - minutes(20);
    await ingest({ [s]: 1 }, new Date(t - minutes(30)));
    const first = await scan({ [s]: 1.3 }, new Date(t));
    expect(first.jobs).toBeGreaterThan(0);
    const again = await serviceClient().rpc("enqueue_alerts", {
      scanned_at: new Date(t).toISOString(),
    });
    expect(again.data).toEqual({ alerts: 0, jobs: 0, repeated: true });
    expect(await jobsFor(email)).toHaveLength(1);
  });

  it("a range of writes (the stream's alert step): two writes, one enqueue, each crossing once across overlapping ranges", async () => {
    const email = await subscriber();
    const [a, b, c] = [sym("RA"), sym("RB"), sym("RC")];
    const t = Date.now() - minutes(12);
    await ingest({ [a]: 1, [b]: 1, [c]: 1 }, new Date(t - minutes(30)));
    // Two stream writes a second apart, no enqueue between them.
    await ingest({ [a]: 1.2 }, new Date(t));
    await ingest({ [b]: 0.8 }, new Date(t + 1000));
    const between = (since: number, through: number) =>
      serviceClient().rpc("enqueue_alerts_between", {
        since: new Date(since).toISOString(),
        through: new Date(through).toISOString(),
      });
    const first = await between(t, t + 1000);
    expect(first.error).toBeNull();
    expect((first.data as unknown as { writes: number }).writes).toBe(2);
    const both = await jobsFor(email);
    expect(both.map((j) => j.payload.items[0]!.symbol).sort()).toEqual([a, b].sort());
    // A third write, then a range overlapping the first, and the first range again.
    await ingest({ [c]: 1.3 }, new Date(t + 2000));
    expect((await between(t - 500, t + 2000)).error).toBeNull();
    const again = await between(t, t + 1000);
    expect(again.data).toMatchObject({ alerts: 0, jobs: 0, repeated: true });
    // The single-scan call for a write a range took is a repeat too.
    const single = await serviceClient().rpc("enqueue_alerts", {
      scanned_at: new Date(t + 1000).toISOString(),
    });
    expect(single.data).toEqual({ alerts: 0, jobs: 0, repeated: true });
    const later = await jobsFor(email);
    expect(later.map((j) => j.payload.items[0]!.symbol)).toEqual([c]);
    // Bad input: a clear refusal.
    const backwards = await between(t + 1000, t);
    expect(backwards.error?.code).toBe("22023");
    expect(backwards.error?.message).toMatch(/since .* is after through/);
  });

  it("refuses settings outside the rules with the rule's name", async () => {
    const u = await signedInUser();
    const { error } = await u.client
      .from("profiles")
      .update({ alert_daily_cap: 0 } as never)
      .eq("id", u.user.id);
    expect(error?.code).toBe("23514");
    expect(error?.message).toContain("profiles_alert_daily_cap_range");
    // What the settings page saves on a first save: the rules and the browser's zone.
    const saved = await u.client
      .from("profiles")
      .update({
        alert_daily_cap: 30,
        alert_escalation_step: 5,
        alert_quiet_start: "22:00",
        alert_quiet_end: "07:00",
        alert_quiet_dumps: true,
        time_zone: "Europe/Berlin",
      } as never)
      .eq("id", u.user.id)
      .select("alert_daily_cap, alert_quiet_start, time_zone");
    expect(saved.error).toBeNull();
    expect(saved.data).toEqual([
      { alert_daily_cap: 30, alert_quiet_start: "22:00:00", time_zone: "Europe/Berlin" },
    ]);
  });
});
