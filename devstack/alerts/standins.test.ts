import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discordViolation, startChatStandIn, type ChatStandIn } from "./standins.ts";

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
