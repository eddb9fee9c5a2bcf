import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import { type ClaimedRow, withMessages } from "./claimed.ts";
import { type Job, RenderCache } from "./channels.ts";

const row = (
  id: number,
  messageId: number | null,
  payload: unknown,
  message?: unknown,
): ClaimedRow & Omit<Job, "id" | "timeZone"> => ({
  id,
  kind: "market_alert",
  channel: "discord",
  attempts: 1,
  payload,
  target: `https://discord.com/api/webhooks/${id}/t`,
  locale: "de",
  time_zone: "Europe/Berlin",
  message_id: messageId,
  message: (message ?? null) as Record<string, unknown> | null,
});

Deno.test("withMessages: each job gets its message with its own keys over it, the message's objects shared", () => {
  const digest = { shape: "digest", items: [{ symbol: "A/USDT" }, { symbol: "B/USDT" }], total: 2 };
  const jobs = withMessages([
    row(1, 7, { scannedAt: "t1", unsubscribeToken: "u1" }, digest),
    row(2, 7, { scannedAt: "t2", total: 5 }),
    row(3, null, { shape: "single", items: [{ symbol: "C/USDT" }] }),
  ]);
  deepStrictEqual(jobs[0]!.payload, { ...digest, scannedAt: "t1", unsubscribeToken: "u1" });
  // Its own `total` wins, as `message || payload` in PostgreSQL.
  deepStrictEqual(jobs[1]!.payload, { ...digest, scannedAt: "t2", total: 5 });
  assertEquals(
    (jobs[0]!.payload as typeof digest).items,
    (jobs[1]!.payload as typeof digest).items,
  );
  deepStrictEqual(jobs[2]!.payload, { shape: "single", items: [{ symbol: "C/USDT" }] });
  deepStrictEqual(jobs.map((j) => [j.id, j.timeZone, "message_id" in j, "time_zone" in j]), [
    [1, "Europe/Berlin", false, false],
    [2, "Europe/Berlin", false, false],
    [3, "Europe/Berlin", false, false],
  ]);
});

Deno.test("withMessages: a job that carries its message already (claimed before decision 0072) is sent as it is", () => {
  const own = { shape: "single", items: [{ symbol: "OLD/USDT" }] };
  const [job] = withMessages([row(4, 9, own)]);
  deepStrictEqual(job!.payload, own);
});

Deno.test("RenderCache: jobs of one message render once, and a different own field renders again", () => {
  const digest = { shape: "digest", items: [{ symbol: "A/USDT" }], total: 1 };
  const jobs: Job[] = withMessages([
    row(1, 7, { scannedAt: "t", unsubscribeToken: "u1" }, digest),
    row(2, 7, { scannedAt: "t", unsubscribeToken: "u2" }),
    row(3, 7, { scannedAt: "other", unsubscribeToken: "u3" }),
  ]);
  const cache = new RenderCache<string>(["unsubscribeToken"]);
  let renders = 0;
  const out = jobs.map((j) =>
    cache.get(j, () => `r${++renders}:${(j.payload as { scannedAt: string }).scannedAt}`)
  );
  deepStrictEqual(out, ["r1:t", "r1:t", "r2:other"]);
  // The same content parsed apart (another claim) hits the same entry.
  const again = withMessages([
    row(5, 8, { scannedAt: "t", unsubscribeToken: "u5" }, structuredClone(digest)),
  ]);
  assertEquals(cache.get(again[0]!, () => "new"), "r1:t");
});
