// A newcomer's first minute on a stack of its own (fresh data, the real functions host): the first
// scan replays the simulated market's last 3 hours, so a new Pro subscriber with the spec's
// defaults (10 % threshold; the 30-minute window new accounts start with, decision 0005) sees movers, the 3-hour column, the analysis's
// history and signals at once (issue 11, decision 0014).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack, type Stack } from "../../devstack/stack.ts";
import type { Database } from "../../web/src/lib/database.types.ts";
import { freshDatabase } from "../support/postgres.ts";

const tmp = mkdtempSync(path.join(tmpdir(), "first-scan-"));
const postgresUrl = inject("stack").postgresUrl;
let stack: Stack;

beforeAll(async () => {
  mkdirSync(path.join(tmp, "data"), { recursive: true });
  stack = await startStack({
    ...defaultOptions({}),
    databaseUrl: await freshDatabase(postgresUrl, "first_scan"),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    // The test scans itself, once, like the cron runner's first tick.
    cron: false,
    quiet: true,
  });
});
afterAll(async () => {
  await stack?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const client = (key: string) =>
  createClient<Database>(stack.url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });

async function scan() {
  const res = await fetch(`${stack.url}/functions/v1/scan`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.secrets.secretKey}` },
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** A new account with the spec's defaults, made Pro the way the Stripe webhook does. */
async function newProSubscriber() {
  const user = client(stack.secrets.publishableKey);
  const email = `newcomer-${Date.now().toString(36)}@example.test`;
  const { data, error } = await user.auth.signUp({ email, password: "correct-horse-1" });
  expect(error).toBeNull();
  const service = client(stack.secrets.secretKey);
  const { error: planError } = await service
    .from("profiles")
    .update({ plan: "pro", subscription_active: true })
    .eq("id", data.user!.id);
  expect(planError).toBeNull();
  return user;
}

describe("the first scan of a fresh stack", () => {
  let first: {
    backfill?: { samples: number; instruments: number; signals?: number; outcomes?: number };
    ingest: { movers: number };
    signals: { computed: number };
  };

  beforeAll(async () => {
    first = await scan();
  });

  it("replays the simulated market's last 3 hours before ingesting", async () => {
    expect(first.backfill?.instruments).toBeGreaterThan(280);
    // Every minute for 2.5 hours and every 10 s for the last half hour, per instrument.
    expect(first.backfill!.samples).toBeGreaterThan(first.backfill!.instruments * 300);
    const [{ oldest, newest }] = await stack.db.query<{ oldest: Date; newest: Date }>(
      "select min(ts) as oldest, max(ts) as newest from public.price_history",
    );
    // Three hours back from the scan's time; the scan's own quotes carry their venue time, a
    // moment (80 ms seen on a loaded machine) before the scan's time the backfill counts from.
    expect(new Date(newest).getTime() - new Date(oldest).getTime()).toBeGreaterThan(
      3 * 3_600_000 - 5_000,
    );
    // One scan in, the signals step already has its candles.
    expect(first.signals.computed).toBeGreaterThan(0);
  });

  it("shows a new Pro subscriber with the default settings at least 5 movers", async () => {
    const user = await newProSubscriber();
    const { data: profile } = await user
      .from("profiles")
      .select("selected_window_minutes, user_threshold")
      .single();
    expect(profile).toEqual({ selected_window_minutes: 30, user_threshold: 10 });
    const { data: feed, error } = await user.rpc("movers_feed", {});
    expect(error).toBeNull();
    const aboveThreshold = feed!.filter((row) => Math.abs(Number(row.pct)) >= 10);
    expect(aboveThreshold.length).toBeGreaterThanOrEqual(5);
    // Pro's shortest window too.
    const { data: fifteen } = await user.rpc("movers_feed", { window_minutes: 15 });
    expect(fifteen!.filter((row) => Math.abs(Number(row.pct)) >= 10).length).toBeGreaterThanOrEqual(
      5,
    );
    // Every row comes from this scan: the seeded movers are the simulated market's own
    // instruments, not stale twins of them.
    expect(new Set(feed!.map((row) => row.ts)).size).toBe(1);
    // (Two pools of one pair on one DEX share symbol and exchange; their names tell them apart.)
    expect(
      new Set(feed!.map((row) => `${row.symbol}@${row.exchange}@${row.pool_name ?? ""}`)).size,
    ).toBe(feed!.length);
    // Every row has its 3-hour price and change ("Price (3h)" is never "—").
    for (const row of feed!) {
      expect(row.price_3hour_ago, String(row.symbol)).not.toBeNull();
      expect(row.pct_3hour, String(row.symbol)).not.toBeNull();
    }
    const { data: signals } = await user.from("strategy_signals").select("id").limit(1);
    expect(signals).toHaveLength(1);
  });

  it("replays the strategies' signals of that past, so the track record has outcomes at once", async () => {
    // Decision 0090: one set of signals per past 5-minute candle, the outcomes of those an hour
    // old recorded from the replayed history.
    expect(first.backfill!.signals).toBeGreaterThan(0);
    expect(first.backfill!.outcomes).toBeGreaterThan(0);
    const [past] = await stack.db.query<{
      signals: number;
      oldest: Date;
      recorded: number;
      outcomes: number;
      unmatched: number;
    }>(
      `select (select count(*)::int from public.strategy_signals where computed_at <= now() - interval '1 hour') as signals,
              (select min(computed_at) from public.strategy_signals) as oldest,
              (select count(*)::int from public.strategy_signal_outcomes) as recorded,
              (select count(*)::int from public.strategy_signal_outcomes o
                 join public.strategy_signals s on s.id = o.signal_id
                 cross join lateral (select ph.price from public.price_history ph
                   where ph.instrument_id = s.instrument_id and ph.ts >= s.computed_at + interval '1 hour'
                   order by ph.ts limit 1) x
                 where o.exit_price = x.price) as outcomes,
              (select count(*)::int from public.strategy_signals where instrument_id is null) as unmatched`,
    );
    expect(past!.signals).toBeGreaterThan(0);
    // The first instant with enough closed candles (15) for a strategy: 3 h − 75 min back.
    expect(Date.now() - new Date(past!.oldest).getTime()).toBeGreaterThan(1.5 * 3_600_000);
    // The replay's outcomes are all stored. The scan's live step after it records the outcomes
    // due by then too: when an hour-old candle's signals come due between the two (the scan
    // crossed a 5-minute boundary an hour after a replayed candle), those add to the replay's.
    expect(past!.recorded).toBeGreaterThanOrEqual(first.backfill!.outcomes!);
    // Every outcome's exit is the signal's own instrument's first stored price an hour on.
    expect(past!.outcomes).toBe(past!.recorded);
    expect(past!.unmatched).toBe(0);
    // What the track record page reads: a subscriber's signal_track_record over 24 hours.
    const user = await newProSubscriber();
    const { data, error } = await user.rpc("signal_track_record", { period: "24h" });
    expect(error).toBeNull();
    const total = (data ?? []).reduce((n, row) => n + Number(row.signals), 0);
    expect(total).toBe(past!.recorded);
    const { data: outcomes } = await user
      .from("strategy_signal_outcomes")
      .select("signal_id, hours_elapsed")
      .limit(5);
    expect(outcomes!.length).toBeGreaterThan(0);
    for (const o of outcomes!) expect(Number(o.hours_elapsed)).toBeGreaterThanOrEqual(1);
  });

  it("records each source's state, which visitors read and /api/health lists", async () => {
    const { data, error } = await client(stack.secrets.publishableKey)
      .from("source_health")
      .select("source, state, quotes, failure, last_attempt_at, last_success_at");
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
    expect(data![0]).toMatchObject({ source: "simulated", state: "ok", failure: null });
    expect(data![0]!.quotes).toBeGreaterThan(280);
    expect(data![0]!.last_success_at).toBe(data![0]!.last_attempt_at);
    const health = await (await fetch(`${stack.url}/api/health`)).json();
    expect(health).toMatchObject({
      status: "ok",
      sources: [{ source: "simulated", state: "ok", failure: null }],
    });
  });

  it("does not replay again while the scans keep the history", async () => {
    const second = await scan();
    expect(second.backfill).toBeUndefined();
    expect(second.ingest.movers).toBeGreaterThan(280);
  });
});
