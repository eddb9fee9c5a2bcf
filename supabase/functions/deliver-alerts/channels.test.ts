import { deepStrictEqual, ok, strictEqual as assertEquals } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import {
  type ChannelDeps,
  discordChannel,
  discordUrl,
  EMAIL_ONLY_FIELDS,
  emailChannel,
  type Job,
  RenderCache,
  retryAfterHeader,
  telegramChannel,
} from "./channels.ts";
import {
  alertEmail,
  type AlertItem,
  DISCORD_LIMITS,
  discordBody,
  type MarketAlertPayload,
  TELEGRAM_TEXT_LIMIT,
  telegramText,
} from "./messages.ts";
import { buildMime, sendSmtp } from "./smtp.ts";

const links = {
  site: "https://app.example",
  unsubscribeEndpoint: "https://api.example/functions/v1/deliver-alerts/unsubscribe",
};
const item = (i: number, pct = 12.345): AlertItem => ({
  instrumentId: i,
  symbol: `SYM${i}/USDT`,
  exchange: "Binance",
  direction: pct > 0 ? "pump" : "dump",
  pct,
  windowMinutes: 15,
  price: 1.2345,
  ts: "2026-11-24T10:00:00.000Z",
});
const single: MarketAlertPayload = {
  shape: "single",
  items: [item(1)],
  scannedAt: "2026-11-24T10:00:00.000Z",
  unsubscribeToken: "0b7c5d52-5a43-4a4c-9a0e-2f7f3b0e9a11",
};
const job = (channel: Job["channel"], target: string, payload: unknown = single): Job => ({
  id: 7,
  kind: "market_alert",
  channel,
  attempts: 1,
  payload,
  target,
  locale: null,
  dedupKey: "u:email:alert:1:pump:1",
});

type Call = { url: string; init: RequestInit };
function fakeFetch(answers: Response[]): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: ((url: string | URL, init?: RequestInit) => {
      calls.push({ url: String(url), init: init ?? {} });
      const next = answers.shift();
      if (!next) throw new Error("no more answers");
      return Promise.resolve(next);
    }) as typeof fetch,
  };
}
function deps(
  env: Record<string, string>,
  f: typeof fetch,
  extra: Partial<ChannelDeps> = {},
): ChannelDeps {
  let t = 1_000_000;
  return {
    env: envFrom(env),
    fetch: f,
    links,
    now: () => t,
    sleep: (ms) => {
      t += ms;
      return Promise.resolve();
    },
    ...extra,
  };
}
const WEBHOOK = "https://discord.com/api/webhooks/123456789/abc_DEF-1";

Deno.test("Discord: posts embeds with ?wait=true under DISCORD_API_URL", async () => {
  const f = fakeFetch([Response.json({ id: "1", webhook_id: "123456789" })]);
  const ch = discordChannel(deps({ DISCORD_API_URL: "http://127.0.0.1:1/api" }, f.fetch));
  const r = await ch.send(job("discord", WEBHOOK));
  deepStrictEqual(r, { ok: true, recipient: "discord:123456789" });
  assertEquals(f.calls[0]!.url, "http://127.0.0.1:1/api/webhooks/123456789/abc_DEF-1?wait=true");
  const body = JSON.parse(String(f.calls[0]!.init.body));
  assertEquals(body.embeds.length, 1);
  ok(body.embeds[0].title.includes("SYM1/USDT"));
  ok(body.embeds[0].title.includes("+12.35%"));
  deepStrictEqual(body.allowed_mentions, { parse: [] });
  assertEquals(discordUrl(envFrom({}), WEBHOOK), `${WEBHOOK}?wait=true`);
  assertEquals(discordUrl(envFrom({}), "https://evil.example/api/webhooks/1/x"), null);
});

Deno.test("Discord: a 429 body's retry_after is honoured; X-RateLimit-Remaining 0 delays the next post", async () => {
  const f = fakeFetch([
    Response.json({ message: "You are being rate limited.", retry_after: 0.75, global: false }, {
      status: 429,
      headers: { "Retry-After": "1" },
    }),
    Response.json({ id: "2" }, {
      headers: { "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "1.5" },
    }),
    Response.json({ id: "3" }),
  ]);
  const d = deps({}, f.fetch);
  const slept: number[] = [];
  const sleep = d.sleep!;
  d.sleep = (ms) => {
    slept.push(ms);
    return sleep(ms);
  };
  const ch = discordChannel(d);
  const r = await ch.send(job("discord", WEBHOOK));
  assertEquals(r.ok, false);
  if (!r.ok) assertEquals(r.retryAfter, 0.75);
  assertEquals((await ch.send(job("discord", WEBHOOK))).ok, true);
  assertEquals((await ch.send(job("discord", WEBHOOK))).ok, true);
  // Before the 2nd post: the 429's 750 ms; before the 3rd: the bucket's 1.5 s reset.
  deepStrictEqual(slept, [750, 1500]);
});

Deno.test("Discord: 404 Unknown Webhook is permanent, 500 is retried", async () => {
  const f = fakeFetch([
    Response.json({ message: "Unknown Webhook", code: 10015 }, { status: 404 }),
    Response.json({ message: "500: Internal Server Error", code: 0 }, { status: 500 }),
  ]);
  const ch = discordChannel(deps({}, f.fetch));
  const a = await ch.send(job("discord", WEBHOOK));
  ok(!a.ok && a.permanent && a.error.includes("10015"));
  const b = await ch.send(job("discord", WEBHOOK));
  ok(!b.ok && !b.permanent);
});

Deno.test("Discord: a digest of 300 symbols stays within every limit", () => {
  const payload: MarketAlertPayload = {
    shape: "digest",
    items: Array.from({ length: 300 }, (_, i) => item(i, i % 2 ? 33.3 : -21)),
    scannedAt: single.scannedAt,
  };
  const body = discordBody(payload, "de", links);
  ok(body.embeds.length <= DISCORD_LIMITS.embeds);
  const e = body.embeds[0]!;
  ok(e.title.length <= 256);
  ok(e.description!.length <= 4096);
  const total = body.embeds.reduce(
    (a, x) => a + x.title.length + (x.description?.length ?? 0) + (x.footer?.text.length ?? 0),
    0,
  );
  ok(total <= 6000, `total ${total}`);
  ok(e.description!.includes("… +"));
});

Deno.test("Telegram: sendMessage with the bot token, HTML, one message per second per chat", async () => {
  const ok1 = () =>
    Response.json({
      ok: true,
      result: {
        message_id: 1,
        chat: { id: -1001234567890, type: "supergroup" },
        date: 1,
        text: "x",
      },
    });
  const f = fakeFetch([ok1(), ok1()]);
  const d = deps({ TELEGRAM_BOT_TOKEN: "123:abc", TELEGRAM_API_URL: "http://tg.local" }, f.fetch);
  const slept: number[] = [];
  const sleep = d.sleep!;
  d.sleep = (ms) => {
    slept.push(ms);
    return sleep(ms);
  };
  const ch = telegramChannel(d);
  deepStrictEqual(await ch.send(job("telegram", "-1001234567890")), {
    ok: true,
    recipient: "telegram:-1001234567890",
  });
  assertEquals((await ch.send(job("telegram", "-1001234567890"))).ok, true);
  assertEquals(f.calls[0]!.url, "http://tg.local/bot123:abc/sendMessage");
  const body = JSON.parse(String(f.calls[0]!.init.body));
  assertEquals(body.chat_id, -1001234567890);
  assertEquals(body.parse_mode, "HTML");
  ok(body.text.includes("SYM1/USDT"));
  deepStrictEqual(slept, [1000]);
});

Deno.test("Telegram: 429 parameters.retry_after; migrate_to_chat_id is followed and stored", async () => {
  const moved: [string, string][] = [];
  const f = fakeFetch([
    Response.json({
      ok: false,
      error_code: 429,
      description: "Too Many Requests: retry after 7",
      parameters: { retry_after: 7 },
    }, { status: 429 }),
    Response.json({
      ok: false,
      error_code: 400,
      description: "Bad Request: group chat was upgraded to a supergroup chat",
      parameters: { migrate_to_chat_id: -1009876543210 },
    }, { status: 400 }),
    Response.json({ ok: true, result: { message_id: 2 } }),
    Response.json({
      ok: false,
      error_code: 403,
      description: "Forbidden: bot was blocked by the user",
    }, { status: 403 }),
  ]);
  const ch = telegramChannel(
    deps({ TELEGRAM_BOT_TOKEN: "123:abc" }, f.fetch, {
      moveTelegramChat: (a, b) => {
        moved.push([a, b]);
        return Promise.resolve();
      },
    }),
  );
  const a = await ch.send(job("telegram", "-4001"));
  ok(!a.ok && a.retryAfter === 7);
  const b = await ch.send(job("telegram", "-4002"));
  deepStrictEqual(b, { ok: true, recipient: "telegram:-1009876543210" });
  deepStrictEqual(moved, [["-4002", "-1009876543210"]]);
  const c = await ch.send(job("telegram", "555"));
  ok(!c.ok && c.permanent);
  assertEquals(f.calls[0]!.url, "https://api.telegram.org/bot123:abc/sendMessage");
});

Deno.test("Telegram: a long digest stays under 4,096 characters", () => {
  const text = telegramText(
    {
      shape: "digest",
      items: Array.from({ length: 200 }, (_, i) => item(i)),
      scannedAt: single.scannedAt,
    },
    "fr",
    links,
  );
  ok(text.length <= TELEGRAM_TEXT_LIMIT, String(text.length));
  ok(text.includes("… +"));
});

Deno.test("E-mail via Resend: Bearer key, Idempotency-Key, the documented body; 422 permanent, 429 retried", async () => {
  const f = fakeFetch([
    Response.json({ id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" }),
    Response.json({ statusCode: 429, message: "Too many requests", name: "rate_limit_exceeded" }, {
      status: 429,
      headers: { "retry-after": "2" },
    }),
    Response.json({ statusCode: 422, message: "Invalid `to` field.", name: "validation_error" }, {
      status: 422,
    }),
  ]);
  const ch = emailChannel(
    deps({ RESEND_API_KEY: "re_test_123", RESEND_API_URL: "http://resend.local" }, f.fetch),
  );
  deepStrictEqual(await ch.send(job("email", "trader@example.com")), {
    ok: true,
    recipient: "trader@example.com",
  });
  const call = f.calls[0]!;
  assertEquals(call.url, "http://resend.local/emails");
  const h = new Headers(call.init.headers);
  assertEquals(h.get("authorization"), "Bearer re_test_123");
  assertEquals(h.get("idempotency-key"), "outbox/u:email:alert:1:pump:1");
  const body = JSON.parse(String(call.init.body));
  deepStrictEqual(body.to, ["trader@example.com"]);
  ok(body.subject.includes("SYM1/USDT"));
  ok(body.html.includes("/alerts/unsubscribe?token="));
  assertEquals(body.headers["List-Unsubscribe-Post"], "List-Unsubscribe=One-Click");
  const r429 = await ch.send(job("email", "trader@example.com"));
  ok(!r429.ok && r429.retryAfter === 2 && !r429.permanent);
  const r422 = await ch.send(job("email", "trader@example.com"));
  ok(!r422.ok && r422.permanent && r422.error.includes("validation_error"));
});

Deno.test("E-mail via SMTP: a real SMTP dialogue, dot-stuffing and UTF-8 subjects", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const transcript: string[] = [];
  const server = (async () => {
    const conn = await listener.accept();
    const enc = new TextEncoder();
    const dec = new TextDecoder();
    const say = (s: string) => conn.write(enc.encode(`${s}\r\n`));
    await say("220 test ESMTP");
    let buf = "";
    let inData = false;
    const chunk = new Uint8Array(65536);
    while (true) {
      const n = await conn.read(chunk);
      if (n === null) break;
      buf += dec.decode(chunk.subarray(0, n));
      while (true) {
        if (inData) {
          const end = buf.indexOf("\r\n.\r\n");
          if (end < 0) break;
          transcript.push(`DATA:${buf.slice(0, end)}`);
          buf = buf.slice(end + 5);
          inData = false;
          await say("250 OK: queued as 1");
          continue;
        }
        const i = buf.indexOf("\r\n");
        if (i < 0) break;
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        transcript.push(line);
        if (line.startsWith("EHLO")) await say("250-test\r\n250 SMTPUTF8");
        else if (line === "DATA") {
          inData = true;
          await say("354 End data with <CR><LF>.<CR><LF>");
        } else if (line === "QUIT") {
          await say("221 Bye");
          conn.close();
          listener.close();
          return;
        } else await say("250 OK");
      }
    }
    listener.close();
  })();
  await sendSmtp({ host: "127.0.0.1", port }, {
    from: "MoverScan <alerts@moverscan.local>",
    to: "trader@example.com",
    subject: "Ticket n° 5 – résolu",
    text: "line\n.starts with a dot",
    html: "<p>x</p>",
  });
  await server;
  assertEquals(transcript[1], "MAIL FROM:<alerts@moverscan.local>");
  assertEquals(transcript[2], "RCPT TO:<trader@example.com>");
  const data = transcript.find((l) => l.startsWith("DATA:"))!;
  ok(data.includes("Subject: =?UTF-8?B?"));
  ok(data.includes("multipart/alternative"));
});

Deno.test("SMTP refusals: 5xx is permanent, a closed port is retried", async () => {
  const ch = emailChannel(deps({ SMTP_HOST: "127.0.0.1", SMTP_PORT: "1" }, fetch));
  const r = await ch.send(job("email", "trader@example.com"));
  ok(!r.ok && !r.permanent);
  ok(
    buildMime({ from: "a@b.c", to: "d@e.f", subject: "s", text: "t", html: "h" }).includes("\r\n"),
  );
});

Deno.test("Retry-After: seconds or an HTTP date", () => {
  assertEquals(retryAfterHeader("3"), 3);
  assertEquals(retryAfterHeader(new Date(10_000).toUTCString(), 5_000), 5);
  assertEquals(retryAfterHeader(null), undefined);
});

Deno.test("E-mail via a local Resend stand-in: a retry with the same Idempotency-Key sends once", async () => {
  // Resend's documented behaviour: POST /emails with a Bearer key; the same Idempotency-Key
  // within 24 h answers the first response again without sending; errors are
  // { statusCode, message, name }.
  const sent: { id: string; to: string[]; subject: string }[] = [];
  const byKey = new Map<string, string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    if (req.headers.get("authorization") !== "Bearer re_standin") {
      return Response.json({
        statusCode: 401,
        message: "API key is invalid",
        name: "validation_error",
      }, {
        status: 401,
      });
    }
    const body = await req.json() as { to?: string[]; subject?: string };
    if (!body.to?.length) {
      return Response.json({
        statusCode: 422,
        message: "Missing `to` field.",
        name: "missing_required_field",
      }, {
        status: 422,
      });
    }
    const key = req.headers.get("idempotency-key");
    const known = key ? byKey.get(key) : undefined;
    if (known) return Response.json({ id: known });
    const id = crypto.randomUUID();
    if (key) byKey.set(key, id);
    sent.push({ id, to: body.to, subject: body.subject ?? "" });
    return Response.json({ id });
  });
  try {
    const url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
    const ch = emailChannel(deps({ RESEND_API_KEY: "re_standin", RESEND_API_URL: url }, fetch));
    const first = await ch.send(job("email", "trader@example.com"));
    const retry = await ch.send(job("email", "trader@example.com"));
    deepStrictEqual([first.ok, retry.ok], [true, true]);
    assertEquals(sent.length, 1);
    deepStrictEqual(sent[0]!.to, ["trader@example.com"]);
    const wrongKey = emailChannel(deps({ RESEND_API_KEY: "re_wrong", RESEND_API_URL: url }, fetch));
    const refused = await wrongKey.send(job("email", "trader@example.com"));
    ok(!refused.ok && refused.permanent && refused.error.includes("401"));
  } finally {
    await server.shutdown();
  }
});

Deno.test("an overdue Enterprise ticket becomes an e-mail to the admin in their language", async () => {
  const sent: { body: string }[] = [];
  const channel = emailChannel({
    env: envFrom({ RESEND_API_KEY: "re_test", RESEND_API_URL: "https://resend.test" }),
    links,
    fetch: ((_url: string, init: RequestInit) => {
      sent.push({ body: String(init.body) });
      return Promise.resolve(new Response(JSON.stringify({ id: "email-1" }), { status: 200 }));
    }) as unknown as typeof fetch,
  } as ChannelDeps);
  const job = {
    id: 7,
    kind: "ticket_overdue",
    channel: "email",
    target: "admin@example.test",
    locale: "de",
    timeZone: "Europe/Berlin",
    attempts: 0,
    payload: {
      ticketId: "3f0c7a52-8b7e-4d7e-9a4e-5c1d2e3f4a5b",
      ticketNumber: 42,
      subject: "Cannot log in",
      dueAt: "2026-11-24T11:00:00.000Z",
    },
  } as unknown as Job;
  const result = await channel.send(job);
  ok(result.ok, JSON.stringify(result));
  const email = JSON.parse(sent[0]!.body) as {
    subject: string;
    text: string;
    to: string[] | string;
  };
  assertEquals(email.subject, "Enterprise-Ticket #42 hat sein 1-Stunden-Ziel überschritten");
  ok(email.text.includes("„Cannot log in“"), email.text);
  // The due time in the admin's zone and language.
  ok(email.text.includes("war am 24.11.2026, 12:00 (Europe/Berlin) fällig."), email.text);
  ok(
    email.text.includes("https://app.example/support/ticket/3f0c7a52-8b7e-4d7e-9a4e-5c1d2e3f4a5b"),
  );
});

Deno.test("RenderCache: one rendering per locale, zone and payload; any difference renders again", () => {
  const cache = new RenderCache<string>([], 3);
  let renders = 0;
  const render = (label: string) => () => `${label}:${++renders}`;
  const a = job("discord", WEBHOOK);
  assertEquals(cache.get(a, render("a")), "a:1");
  // Another subscriber with the same payload, locale and zone: the same message, not rendered.
  assertEquals(cache.get({ ...a, id: 8, target: "other" }, render("x")), "a:1");
  assertEquals(cache.hits, 1);
  // The reader's language, zone or any field of the payload makes it another message.
  assertEquals(cache.get({ ...a, locale: "de" }, render("de")), "de:2");
  assertEquals(cache.get({ ...a, timeZone: "Europe/Berlin" }, render("tz")), "tz:3");
  assertEquals(
    cache.get({ ...a, payload: { ...single, capReached: true, dailyCap: 5 } }, render("cap")),
    "cap:4",
  );
  assertEquals(cache.hits, 1);
});

Deno.test("RenderCache: contents stay apart after the table of their tokens has been emptied", () => {
  const cache = new RenderCache<string>([], 20_000);
  const first = { ...single, items: [item(1)] };
  assertEquals(cache.get({ ...job("discord", WEBHOOK), payload: first }, () => "first"), "first");
  // More distinct contents than the token table keeps (5,000): it is emptied on the way.
  for (let i = 0; i < 5_001; i++) {
    const payload = { ...single, items: [{ ...item(2), symbol: `S${i}/USDT` }] };
    cache.get({ ...job("discord", WEBHOOK), payload }, () => `s${i}`);
  }
  // A new content never takes the token of one still held: it renders, and the first is kept.
  const other = { ...single, items: [item(3)] };
  assertEquals(cache.get({ ...job("discord", WEBHOOK), payload: other }, () => "other"), "other");
  assertEquals(cache.get({ ...job("discord", WEBHOOK), payload: first }, () => "again"), "first");
});

Deno.test("Discord: subscribers with identical digests get identical bodies, each in their own language", async () => {
  const f = fakeFetch([
    Response.json({ id: "1" }),
    Response.json({ id: "2" }),
    Response.json({ id: "3" }),
  ]);
  const ch = discordChannel(deps({}, f.fetch));
  const other = "https://discord.com/api/webhooks/987654321/xyz";
  await ch.send(job("discord", WEBHOOK));
  await ch.send({ ...job("discord", other), id: 8 });
  await ch.send({ ...job("discord", other), id: 9, locale: "de" });
  assertEquals(f.calls[0]!.init.body, f.calls[1]!.init.body);
  deepStrictEqual(
    JSON.parse(String(f.calls[2]!.init.body)),
    JSON.parse(JSON.stringify(discordBody(single, "de", links))),
  );
  ok(f.calls[2]!.init.body !== f.calls[0]!.init.body);
});

Deno.test("RenderCache: the e-mail-only fields are left out of the key, everything else is in it", () => {
  const cache = new RenderCache<string>(EMAIL_ONLY_FIELDS);
  let renders = 0;
  const a = job("discord", WEBHOOK);
  cache.get(a, () => `r${++renders}`);
  const otherToken = { ...single, unsubscribeToken: "5f0c9a7e-1d2b-4c3d-8e4f-a5b6c7d8e9f0" };
  assertEquals(cache.get({ ...a, id: 8, payload: otherToken }, () => `r${++renders}`), "r1");
  assertEquals(
    cache.get(
      { ...a, id: 9, payload: { ...otherToken, scannedAt: "2026-11-24T10:05:00.000Z" } },
      () => `r${++renders}`,
    ),
    "r2",
  );
});

Deno.test("Discord and Telegram messages do not depend on the e-mail-only fields (what lets the render cache share them)", () => {
  const capped: MarketAlertPayload = {
    ...single,
    shape: "digest",
    items: [item(1), item(2, -7.5), item(3)],
    total: 30,
    capReached: true,
    dailyCap: 5,
  };
  const without = { ...capped };
  for (const field of EMAIL_ONLY_FIELDS) delete (without as Record<string, unknown>)[field];
  for (const locale of ["de", "en", "fr", "es"] as const) {
    for (const p of [single, capped]) {
      const bare = p === single ? { ...single, unsubscribeToken: undefined } : without;
      deepStrictEqual(
        discordBody(p, locale, links, "Europe/Berlin"),
        discordBody(bare, locale, links, "Europe/Berlin"),
      );
      assertEquals(
        telegramText(p, locale, links, "Europe/Berlin"),
        telegramText(bare, locale, links, "Europe/Berlin"),
      );
    }
  }
});

Deno.test("E-mail: cached alert e-mails carry each user's own token, exactly as a direct rendering", async () => {
  const tokens = [
    "0b7c5d52-5a43-4a4c-9a0e-2f7f3b0e9a11",
    "5f0c9a7e-1d2b-4c3d-8e4f-a5b6c7d8e9f0",
  ];
  const capped: MarketAlertPayload = {
    ...single,
    shape: "digest",
    items: [item(1), item(2, -7.5)],
    total: 12,
    capReached: true,
    dailyCap: 5,
  };
  for (const locale of ["de", "en", "fr", "es"] as const) {
    for (const base of [single, capped]) {
      const f = fakeFetch(tokens.map(() => Response.json({ id: "re_1" })));
      const ch = emailChannel(deps({ RESEND_API_KEY: "re_test", RESEND_BATCH_SIZE: "1" }, f.fetch));
      for (const [i, token] of tokens.entries()) {
        const payload = { ...base, unsubscribeToken: token };
        const r = await ch.send({ ...job("email", `u${i}@example.com`, payload), id: i, locale });
        ok(r.ok);
        const sent = JSON.parse(String(f.calls[i]!.init.body)) as {
          subject: string;
          text: string;
          html: string;
          headers: Record<string, string>;
        };
        const direct = alertEmail(payload, locale, links, "UTC");
        assertEquals(sent.subject, direct.subject);
        assertEquals(sent.text, direct.text);
        assertEquals(sent.html, direct.html);
        deepStrictEqual(sent.headers, direct.headers);
        ok(sent.html.includes(token));
        ok(!sent.html.includes(tokens[1 - i]!));
      }
    }
  }
});

Deno.test("E-mail via Resend's batch call: a 429 sends the same call (same key) again after its retry-after, at most twice more", async () => {
  const tooMany = () =>
    Response.json({ statusCode: 429, message: "Too many requests", name: "rate_limit_exceeded" }, {
      status: 429,
      headers: { "retry-after": "1" },
    });
  const f = fakeFetch([
    tooMany(),
    Response.json({ data: [{ id: "a" }, { id: "b" }] }),
    tooMany(),
    tooMany(),
    tooMany(),
  ]);
  let t = 0;
  const ch = emailChannel(
    deps({ RESEND_API_KEY: "re_test_123", RESEND_API_URL: "http://resend.local" }, f.fetch, {
      now: () => t,
      sleep: (ms) => {
        t += ms;
        return Promise.resolve();
      },
    }),
  );
  const jobs = [
    { ...job("email", "a@example.com"), id: 1 },
    { ...job("email", "b@example.com"), id: 2 },
  ];
  deepStrictEqual(await ch.sendBatch!(jobs), [
    { ok: true, recipient: "a@example.com" },
    { ok: true, recipient: "b@example.com" },
  ]);
  assertEquals(f.calls.length, 2);
  const keys = f.calls.map((c) => new Headers(c.init.headers).get("idempotency-key"));
  assertEquals(keys[0], keys[1]);
  assertEquals(f.calls[0]!.init.body, f.calls[1]!.init.body);
  // The second try waited out the retry-after.
  ok(t >= 1000, `waited ${t} ms`);
  // Three 429s in a row: the jobs are handed to the queue's retry with the service's wait.
  const failed = await ch.sendBatch!(jobs);
  assertEquals(f.calls.length, 5);
  ok(failed.every((r) => !r.ok && r.retryAfter === 1 && !r.permanent));
});
