// The local delivery schedule: a run per interval, and a run at once when an enqueue NOTIFYs
// `outbox` (decision 0069), one more after the run on its way, never two at once.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { type DeliveryCron, startDeliveryCron } from "./delivery-cron.ts";

let server: Server | null = null;
let cron: DeliveryCron | null = null;
afterEach(async () => {
  await cron?.stop();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  cron = server = null;
});

/** A deliver-alerts stand-in that holds each call until the test releases it. */
async function worker() {
  const calls: { auth: string | undefined; release: () => void }[] = [];
  let inFlight = 0;
  let most = 0;
  server = createServer((req, res) => {
    inFlight++;
    most = Math.max(most, inFlight);
    calls.push({
      auth: req.headers.authorization,
      release: () => {
        inFlight--;
        res.writeHead(200, { "content-type": "application/json" }).end('{"claimed":0}');
      },
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  return { url, calls, most: () => most };
}

it("an enqueue's NOTIFY on outbox wakes the worker at once; one during a run makes one more run after it", async () => {
  const w = await worker();
  let notify: (payload: string) => void = () => {};
  let listening = "";
  let unlistened = false;
  cron = startDeliveryCron({
    apiUrl: w.url,
    serviceKey: "sb_secret_test",
    intervalMs: 3_600_000,
    listen: async (channel, onPayload) => {
      listening = channel;
      notify = onPayload;
      return async () => void (unlistened = true);
    },
  });
  await expect.poll(() => listening).toBe("outbox");
  // Nothing before a NOTIFY (the interval is an hour).
  await new Promise((r) => setTimeout(r, 100));
  expect(w.calls).toHaveLength(0);
  notify("30000");
  await expect.poll(() => w.calls.length).toBe(1);
  expect(w.calls[0]!.auth).toBe("Bearer sb_secret_test");
  // Two more enqueues while that run is on its way: one more run, after it, not two at once.
  notify("12");
  notify("7");
  await new Promise((r) => setTimeout(r, 100));
  expect(w.calls).toHaveLength(1);
  w.calls[0]!.release();
  await expect.poll(() => w.calls.length).toBe(2);
  w.calls[1]!.release();
  await new Promise((r) => setTimeout(r, 100));
  expect(w.calls).toHaveLength(2);
  expect(w.most()).toBe(1);
  await cron.stop();
  cron = null;
  expect(unlistened).toBe(true);
});

it("without a NOTIFY channel the schedule still runs on its interval", async () => {
  const w = await worker();
  const lines: string[] = [];
  cron = startDeliveryCron({
    apiUrl: w.url,
    serviceKey: "sb_secret_test",
    intervalMs: 100,
    log: (line) => lines.push(line),
    listen: () => Promise.reject(new Error("no LISTEN here")),
  });
  await expect.poll(() => w.calls.length).toBeGreaterThanOrEqual(1);
  w.calls[0]!.release();
  expect(lines.join("\n")).toMatch(/not listening for enqueued jobs .*no LISTEN here/);
});
