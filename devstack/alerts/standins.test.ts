import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discordViolation, LimitBucket, startChatStandIn, type ChatStandIn } from "./standins.ts";

let standIn: ChatStandIn;
beforeAll(async () => {
  standIn = await startChatStandIn({ host: "127.0.0.1", port: 0 });
});
afterAll(() => standIn.stop());

const post = (path: string, body: unknown) =>
  fetch(`${standIn.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("Discord stand-in", () => {
  it("answers ?wait=true with the message and rate-limit headers, and records it", async () => {
    const res = await post("/api/webhooks/123/abc?wait=true", { embeds: [{ title: "BTC +5%" }] });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBe("5");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("4");
    const body = (await res.json()) as { webhook_id: string; embeds: unknown[] };
    expect(body.webhook_id).toBe("123");
    expect(standIn.requests("discord").at(-1)).toMatchObject({ target: "123", status: 200 });
    expect((await post("/api/webhooks/123/abc", { content: "hi" })).status).toBe(204);
  });

  it("answers 429 with retry_after, then 500, when told to", async () => {
    standIn.fail("discord", 429, 1, 0.5);
    const limited = await post("/api/webhooks/9/x?wait=true", { content: "a" });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      message: "You are being rate limited.",
      retry_after: 0.5,
      global: false,
    });
    expect(limited.headers.get("retry-after")).toBe("1");
    const control = await post("/__standins/fail", { service: "discord", status: 500, times: 1 });
    expect(control.status).toBe(200);
    expect((await post("/api/webhooks/9/x?wait=true", { content: "a" })).status).toBe(500);
    expect((await post("/api/webhooks/9/x?wait=true", { content: "a" })).status).toBe(200);
  });

  it("fails only the named webhook or chat when told a target, whatever else is sent first", async () => {
    const control = await post("/__standins/fail", {
      service: "discord",
      status: 429,
      times: 1,
      retryAfter: 0.2,
      target: "777",
    });
    expect(control.status).toBe(200);
    standIn.fail("telegram", 500, 1, undefined, "-100777");
    expect((await post("/api/webhooks/778/x?wait=true", { content: "other" })).status).toBe(200);
    expect((await post("/bot1:a/sendMessage", { chat_id: -100778, text: "other" })).status).toBe(
      200,
    );
    expect((await post("/api/webhooks/777/x?wait=true", { content: "mine" })).status).toBe(429);
    expect((await post("/bot1:a/sendMessage", { chat_id: -100777, text: "mine" })).status).toBe(
      500,
    );
    expect((await post("/api/webhooks/777/x?wait=true", { content: "mine" })).status).toBe(200);
    const refused = await post("/__standins/fail", {
      service: "discord",
      status: 429,
      target: "not-an-id",
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe("invalid_input");
  });

  it("refuses what Discord refuses", async () => {
    expect(
      discordViolation({ embeds: Array.from({ length: 11 }, () => ({ title: "x" })) }),
    ).toMatch(/10 or fewer/);
    expect(discordViolation({ embeds: [{ title: "x".repeat(257) }] })).toMatch(/256/);
    expect(
      discordViolation({
        embeds: [
          { title: "t", description: "d".repeat(4000) },
          { title: "t", description: "d".repeat(2500) },
        ],
      }),
    ).toMatch(/6000/);
    const res = await post("/api/webhooks/1/x?wait=true", { content: "" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: number }).code).toBe(50035);
  });

  it("answers a body over its limit with 400, and a body in many chunks whole", async () => {
    const before = standIn.requests("discord").length;
    const big = await post("/api/webhooks/7/x?wait=true", { content: "x".repeat(1_000_001) });
    expect(big.status).toBe(400);
    expect(await big.json()).toEqual({ error: "bad_request", message: "body too large" });
    expect(standIn.requests("discord")).toHaveLength(before);
    // A body sent in pieces is read as one.
    const parts = ['{"content":', '"in', ' pieces"}'].map((p) => new TextEncoder().encode(p));
    const res = await fetch(`${standIn.url}/api/webhooks/8/x?wait=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        pull(c) {
          const next = parts.shift();
          if (next) c.enqueue(next);
          else c.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { content: string }).content).toBe("in pieces");
  });
});

describe("Telegram stand-in", () => {
  it("answers sendMessage like the Bot API, 429 with parameters.retry_after, and a chat migration", async () => {
    const ok = await post("/bot123:abc/sendMessage", { chat_id: -100123, text: "hello" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      ok: true,
      result: { chat: { id: -100123 }, text: "hello" },
    });
    standIn.fail("telegram", 429, 1, 3);
    const limited = await post("/bot123:abc/sendMessage", { chat_id: 5, text: "x" });
    expect(await limited.json()).toEqual({
      ok: false,
      error_code: 429,
      description: "Too Many Requests: retry after 3",
      parameters: { retry_after: 3 },
    });
    standIn.migrate("-42", "-100420");
    const moved = await post("/bot123:abc/sendMessage", { chat_id: -42, text: "x" });
    expect(moved.status).toBe(400);
    expect(((await moved.json()) as { parameters: unknown }).parameters).toEqual({
      migrate_to_chat_id: -100420,
    });
    expect((await post("/bot123:abc/sendMessage", { chat_id: 1, text: "" })).status).toBe(400);
  });

  it("lists what it received on its page", async () => {
    const page = await (await fetch(standIn.url)).text();
    expect(page).toContain("Discord &amp; Telegram stand-ins");
    expect(page).toContain("hello");
  });
});

describe("the services' documented limits", () => {
  it("Discord: the sixth request to one webhook within 2 s is a 429 with X-RateLimit-* and retry_after", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await post("/api/webhooks/555/limit?wait=true", { content: `m${i}` })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const res = await post("/api/webhooks/555/limit?wait=true", { content: "again" });
    expect(res.status).toBe(429);
    expect(res.headers.get("x-ratelimit-limit")).toBe("5");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(res.headers.get("x-ratelimit-bucket")).toBe("standin-555");
    expect(Number(res.headers.get("x-ratelimit-reset-after"))).toBeGreaterThan(0);
    const body = (await res.json()) as { message: string; retry_after: number; global: boolean };
    expect(body.message).toBe("You are being rate limited.");
    expect(body.global).toBe(false);
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(2);
    // Another webhook has its own bucket.
    expect((await post("/api/webhooks/556/limit?wait=true", { content: "x" })).status).toBe(200);
  });

  const tg = (chat: number | string, extra: Record<string, unknown> = {}) =>
    post("/bot1:tok/sendMessage", { chat_id: chat, text: "hello", ...extra });

  it("Telegram: one chat gets a short burst, then 429 with parameters.retry_after", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await tg(4242)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const res = await tg(4242);
    expect(res.status).toBe(429);
    const body = (await res.json()) as {
      ok: boolean;
      error_code: number;
      description: string;
      parameters: { retry_after: number };
    };
    expect(body).toMatchObject({ ok: false, error_code: 429 });
    expect(body.description).toMatch(/^Too Many Requests: retry after \d+$/);
    expect(body.parameters.retry_after).toBeGreaterThanOrEqual(1);
  });

  it("Telegram: a group's bucket takes 20 per minute (the stand-in's LimitBucket for groups)", () => {
    const group = new LimitBucket(20 / 60, 20);
    const t0 = Date.now();
    const waits = Array.from({ length: 21 }, () => group.take(t0));
    expect(waits.slice(0, 20).every((w) => w === 0)).toBe(true);
    expect(waits[20]).toBeCloseTo(3, 5);
    expect(group.take(t0 + 3000)).toBe(0);
  });

  it("Telegram: about 30 messages per second per bot overall, more with allow_paid_broadcast", async () => {
    const own = await startChatStandIn({ host: "127.0.0.1", port: 0 });
    try {
      const send = (chat: number, extra: Record<string, unknown> = {}) =>
        fetch(`${own.url}/bot1:tok/sendMessage`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ chat_id: chat, text: "x", ...extra }),
        }).then((r) => r.status);
      const started = Date.now();
      const free = await Promise.all(Array.from({ length: 100 }, (_, i) => send(7000 + i)));
      const seconds = (Date.now() - started) / 1000;
      // The burst of 30 plus what 30 per second refills while the requests arrive.
      expect(free.filter((s) => s === 200).length).toBeLessThanOrEqual(
        30 + Math.ceil(30 * seconds),
      );
      expect(free.filter((s) => s === 429).length).toBeGreaterThan(0);
      const paid = await Promise.all(
        Array.from({ length: 100 }, (_, i) => send(8000 + i, { allow_paid_broadcast: true })),
      );
      expect(paid.every((s) => s === 200)).toBe(true);
    } finally {
      await own.stop();
    }
  });

  it("Resend: 2 requests per second per team with ratelimit-* and retry-after; batch of up to 100; Idempotency-Key", async () => {
    const own = await startChatStandIn({ host: "127.0.0.1", port: 0 });
    try {
      const email = (to: string) => ({ from: "a@x.test", to: [to], subject: "s", text: "t" });
      const call = (path: string, body: unknown, key?: string, auth = "Bearer re_test") =>
        fetch(`${own.url}/resend${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: auth,
            ...(key ? { "idempotency-key": key } : {}),
          },
          body: JSON.stringify(body),
        });
      expect((await call("/emails", email("a@b.test"), undefined, "Bearer nope")).status).toBe(401);
      const batch = await call(
        "/emails/batch",
        Array.from({ length: 100 }, (_, i) => email(`u${i}@b.test`)),
        "k1",
      );
      expect(batch.status).toBe(200);
      expect(((await batch.json()) as { data: { id: string }[] }).data).toHaveLength(100);
      expect((await call("/emails", email("w@b.test"))).status).toBe(200);
      const limited = await call("/emails", email("x@b.test"));
      // The batch and the single e-mail drained the team's burst of 2.
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("1");
      expect(limited.headers.get("ratelimit-limit")).toBe("2");
      expect(limited.headers.get("ratelimit-remaining")).toBe("0");
      expect(await limited.json()).toMatchObject({ statusCode: 429, name: "rate_limit_exceeded" });
      await new Promise((r) => setTimeout(r, 1100));
      const tooMany = await call(
        "/emails/batch",
        Array.from({ length: 101 }, (_, i) => email(`v${i}@b.test`)),
      );
      expect(tooMany.status).toBe(422);
      expect(await tooMany.json()).toMatchObject({ statusCode: 422, name: "validation_error" });
      // The same batch with the same key: answered again, not sent again.
      const again = await call(
        "/emails/batch",
        Array.from({ length: 100 }, (_, i) => email(`u${i}@b.test`)),
        "k1",
      );
      expect(again.status).toBe(200);
      expect(own.requests("resend").filter((r) => r.status === 200)).toHaveLength(101);
    } finally {
      await own.stop();
    }
  });

  it("Resend: a raised team rate (RESEND_RATE_PER_SECOND) lets that many requests through a second, then 429", async () => {
    const own = await startChatStandIn({ host: "127.0.0.1", port: 0, resendPerSecond: 10 });
    try {
      const call = (i: number) =>
        fetch(`${own.url}/resend/emails/batch`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer re_test" },
          body: JSON.stringify([{ from: "a@x.test", to: [`r${i}@b.test`], subject: "s" }]),
        });
      const first = await Promise.all(Array.from({ length: 10 }, (_, i) => call(i)));
      expect(first.map((r) => r.status)).toEqual(Array(10).fill(200));
      const over = await call(10);
      expect(over.status).toBe(429);
      expect(over.headers.get("ratelimit-limit")).toBe("10");
      expect(await over.json()).toMatchObject({ statusCode: 429, name: "rate_limit_exceeded" });
    } finally {
      await own.stop();
    }
  });
});
