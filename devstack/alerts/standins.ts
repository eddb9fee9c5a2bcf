// Local stand-ins for Discord webhooks, the Telegram Bot API and Resend (decisions 0020, 0031).
// One HTTP server (CHAT_STANDIN_PORT, default 54326) that answers as the real services do,
// enforces the limits they document with their documented limit answers, records what it
// receives, lists it on a page (GET /), and can be told to fail:
//
//   POST /api/webhooks/<id>/<token>[?wait=true]   Discord: execute webhook (DISCORD_API_URL=<url>/api);
//                                                  5 requests per 2 s per webhook, X-RateLimit-* headers,
//                                                  429 { message, retry_after, global }
//   POST /bot<token>/sendMessage                   Telegram (TELEGRAM_API_URL=<url>); per bot about 30
//                                                  messages/s (1000/s with allow_paid_broadcast), 1 per
//                                                  second per chat, 20 per minute per group; 429
//                                                  { ok: false, error_code: 429, parameters.retry_after }
//   POST /resend/emails, /resend/emails/batch      Resend (RESEND_API_URL=<url>/resend): 2 requests/s per
//                                                  team (or the raised rate given), batch of up to 100,
//                                                  Idempotency-Key, 429 with retry-after and ratelimit-*
//   GET  /__standins/requests                      what was received (JSON)
//   POST /__standins/fail {service, status, times, retryAfter?, target?}   answer 429 or 500 the next N
//                                                  times (only to one webhook id or chat id with target)
//   POST /__standins/migrate {from, to}            Telegram: chat <from> was upgraded to a supergroup <to>
//   POST /__standins/delay {ms}                    every service answer waits ms (0-60000) first
//   POST /__standins/reset                         forget requests, pending failures, delays and limits
import http from "node:http";

export const DEFAULT_CHAT_STANDIN_PORT = 54326;

export type Service = "discord" | "telegram" | "resend";

export interface ReceivedRequest {
  seq: number;
  service: Service;
  at: string;
  path: string;
  status: number;
  body: unknown;
  /** Discord: webhook id; Telegram: chat_id. */
  target: string;
}

interface Failure {
  status: 429 | 500;
  remaining: number;
  retryAfter: number;
}

export interface ChatStandInOptions {
  host: string;
  port: number;
  log?: (line: string) => void;
  /** The Resend team's request rate (default 2 per second; a raised limit when sold). */
  resendPerSecond?: number;
  /** Keep each request's body (default true; the bench's 100,000 digests keep only the rest). */
  recordBodies?: boolean;
  /** Milliseconds every Discord/Telegram/Resend answer waits (tests of workers killed mid-send). */
  delayMs?: number;
}

/**
 * A token bucket as the services meter: `rate` per second, at most `burst` at once. `take()`
 * answers 0 when the request may pass, else the seconds until it would.
 */
export class LimitBucket {
  private tokens: number;
  private last = Date.now();
  constructor(
    readonly rate: number,
    readonly burst: number,
  ) {
    this.tokens = burst;
  }
  take(now = Date.now()): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return (1 - this.tokens) / this.rate;
  }
}

export interface ChatStandIn {
  url: string;
  requests(service?: Service): ReceivedRequest[];
  /**
   * Answer `status` to the next `times` requests of `service`, or only to those for `target` (a
   * Discord webhook id or a Telegram chat id), so other traffic cannot use up the failures.
   */
  fail(
    service: Service,
    status: 429 | 500,
    times: number,
    retryAfter?: number,
    target?: string,
  ): void;
  migrate(from: string, to: string): void;
  reset(): void;
  stop(): Promise<void>;
}

const DISCORD_PATH = /^\/api(?:\/v\d+)?\/webhooks\/([0-9]{1,25})\/([A-Za-z0-9_-]{1,100})$/;
const TELEGRAM_PATH = /^\/bot([0-9]+:[A-Za-z0-9_-]+)\/([A-Za-z]+)$/;

/** Discord's own limits on an execute-webhook body; a message naming the first one broken, or null. */
export function discordViolation(body: unknown): string | null {
  if (!body || typeof body !== "object") return "Cannot send an empty message";
  const b = body as { content?: unknown; embeds?: unknown };
  const content = typeof b.content === "string" ? b.content : "";
  const embeds = Array.isArray(b.embeds) ? (b.embeds as Record<string, unknown>[]) : [];
  if (content.length > 2000) return "content: Must be 2000 or fewer in length.";
  if (!content && embeds.length === 0) return "Cannot send an empty message";
  if (embeds.length > 10) return "embeds: Must be 10 or fewer in length.";
  let total = 0;
  for (const [i, e] of embeds.entries()) {
    const title = typeof e.title === "string" ? e.title : "";
    const description = typeof e.description === "string" ? e.description : "";
    const fields = Array.isArray(e.fields) ? (e.fields as { name?: string; value?: string }[]) : [];
    const footer = (e.footer as { text?: string } | undefined)?.text ?? "";
    if (title.length > 256) return `embeds.${i}.title: Must be 256 or fewer in length.`;
    if (description.length > 4096)
      return `embeds.${i}.description: Must be 4096 or fewer in length.`;
    if (fields.length > 25) return `embeds.${i}.fields: Must be 25 or fewer in length.`;
    for (const f of fields) {
      if ((f.name ?? "").length > 256 || (f.value ?? "").length > 1024) {
        return `embeds.${i}.fields: a field is too long.`;
      }
      total += (f.name ?? "").length + (f.value ?? "").length;
    }
    total += title.length + description.length + footer.length;
  }
  if (total > 6000) return "embeds: Embed size exceeds maximum size of 6000";
  return null;
}

function escape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(list: ReceivedRequest[], failures: Map<string, Failure>): string {
  const rows = list
    .slice(-200)
    .reverse()
    .map(
      (r) =>
        `<tr><td>${r.seq}</td><td>${r.at}</td><td>${r.service}</td><td>${escape(r.target)}</td><td>${r.status}</td><td><pre>${escape(JSON.stringify(r.body, null, 2)).slice(0, 4000)}</pre></td></tr>`,
    )
    .join("");
  const pending = [...failures.entries()]
    .filter(([, f]) => f.remaining > 0)
    .map(([s, f]) => `${s}: ${f.status} × ${f.remaining}`)
    .join(", ");
  return `<!doctype html><html><head><meta charset="utf-8"><title>Discord & Telegram stand-ins</title>
<style>body{font-family:system-ui,sans-serif;margin:1.5rem}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:4px 6px;vertical-align:top;font-size:13px}pre{margin:0;white-space:pre-wrap;max-height:16rem;overflow:auto}</style></head>
<body><h1>Discord &amp; Telegram stand-ins</h1>
<p>Discord: <code>DISCORD_API_URL=&lt;this&gt;/api</code> · Telegram: <code>TELEGRAM_API_URL=&lt;this&gt;</code> · ${list.length} requests received${pending ? ` · next answers: ${escape(pending)}` : ""}</p>
<form method="post" action="/__standins/fail">
<label>Service <select name="service"><option>discord</option><option>telegram</option></select></label>
<label>answers <select name="status"><option>429</option><option>500</option></select></label>
<label>the next <input name="times" type="number" min="1" max="100" value="1" style="width:4rem"> times</label>
<button>Set</button></form>
<form method="post" action="/__standins/reset" style="margin-top:.5rem"><button>Reset</button></form>
<table style="margin-top:1rem"><tr><th>#</th><th>Time</th><th>Service</th><th>Target</th><th>Answer</th><th>Body</th></tr>${rows}</table>
</body></html>`;
}

/**
 * The request's body as text, at most `limit` bytes (beyond it: an error, the rest read and
 * dropped, the error given at its end so that the answer can still be read). Read with `data`/`end` events, not an async
 * iterator: the stand-in reads one body per request, and the iterator's set-up was about a
 * tenth of its CPU per Discord post (decision 0097).
 */
function readBody(req: http.IncomingMessage, limit = 1_000_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        // Answered once the whole body is in: an answer sent while the client is still
        // writing may reach it as a reset connection instead of the 400.
        failed = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => {
      if (failed) return reject(new Error("body too large"));
      resolve(
        chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8"),
      );
    });
    req.once("error", reject);
  });
}

export async function startChatStandIn(opts: ChatStandInOptions): Promise<ChatStandIn> {
  const received: ReceivedRequest[] = [];
  // Keyed by service, or by `service:target` for failures meant for one webhook or chat.
  const failures = new Map<string, Failure>();
  const migrations = new Map<string, string>();
  let seq = 0;
  let messageId = 1000;
  let delayMs = opts.delayMs ?? 0;
  const keep = opts.recordBodies !== false;
  // Discord's per-webhook bucket: 5 requests per 2 s.
  const buckets = new Map<string, { remaining: number; resetAt: number }>();
  // Telegram: one bot overall (30/s; 1000/s for paid broadcasts), 1/s per chat (short bursts
  // tolerated), 20/min per group.
  const telegramOverall = new LimitBucket(30, 30);
  const telegramPaid = new LimitBucket(1000, 1000);
  const telegramChats = new Map<string, LimitBucket>();
  const telegramGroups = new Map<string, LimitBucket>();
  // Resend: one team's request rate.
  const resendRate = opts.resendPerSecond ?? 2;
  let resendBucket = new LimitBucket(resendRate, Math.max(1, Math.ceil(resendRate)));
  const resendKeys = new Map<string, { status: number; body: unknown }>();
  let resendId = 0;
  const keyed = (map: Map<string, LimitBucket>, key: string, rate: number, burst: number) => {
    let b = map.get(key);
    if (!b) map.set(key, (b = new LimitBucket(rate, burst)));
    return b;
  };

  function takeFailure(service: Service, target: string): Failure | null {
    for (const key of [`${service}:${target}`, service]) {
      const f = failures.get(key);
      if (!f || f.remaining <= 0) continue;
      f.remaining--;
      return f;
    }
    return null;
  }

  function send(
    res: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    if (status === 204) {
      res.writeHead(204, headers).end();
      return;
    }
    res
      .writeHead(status, { "Content-Type": "application/json", ...headers })
      .end(JSON.stringify(body));
  }

  function discord(res: http.ServerResponse, url: URL, raw: string, m: RegExpExecArray) {
    const webhookId = m[1]!;
    let body: unknown = null;
    try {
      body = JSON.parse(raw);
    } catch {
      // recorded as null below
    }
    const record = (status: number) =>
      received.push({
        seq: ++seq,
        service: "discord",
        at: new Date().toISOString(),
        path: url.pathname,
        status,
        body: keep ? body : null,
        target: webhookId,
      });
    const now = Date.now();
    let bucket = buckets.get(webhookId);
    if (!bucket || bucket.resetAt <= now) bucket = { remaining: 5, resetAt: now + 2000 };
    buckets.set(webhookId, bucket);
    const failure = takeFailure("discord", webhookId);
    if (failure?.status === 429) {
      record(429);
      return send(
        res,
        429,
        { message: "You are being rate limited.", retry_after: failure.retryAfter, global: false },
        {
          "Retry-After": String(Math.ceil(failure.retryAfter)),
          "X-RateLimit-Limit": "5",
          "X-RateLimit-Remaining": "0",
          "X-RateLimit-Reset-After": String(failure.retryAfter),
          "X-RateLimit-Bucket": `standin-${webhookId}`,
          "X-RateLimit-Scope": "shared",
        },
      );
    }
    if (failure?.status === 500) {
      record(500);
      return send(res, 500, { message: "500: Internal Server Error", code: 0 });
    }
    if (bucket.remaining <= 0) {
      const retryAfter = Number(((bucket.resetAt - now) / 1000).toFixed(3));
      record(429);
      return send(
        res,
        429,
        { message: "You are being rate limited.", retry_after: retryAfter, global: false },
        {
          "Retry-After": String(Math.ceil(retryAfter)),
          "X-RateLimit-Limit": "5",
          "X-RateLimit-Remaining": "0",
          "X-RateLimit-Reset": String((bucket.resetAt / 1000).toFixed(3)),
          "X-RateLimit-Reset-After": String(retryAfter),
          "X-RateLimit-Bucket": `standin-${webhookId}`,
          "X-RateLimit-Scope": "shared",
        },
      );
    }
    const violation = discordViolation(body);
    if (violation) {
      record(400);
      return send(res, 400, {
        message: "Invalid Form Body",
        code: 50035,
        errors: { _errors: [{ code: "BASE_TYPE_INVALID", message: violation }] },
      });
    }
    bucket.remaining = Math.max(0, bucket.remaining - 1);
    const headers = {
      "X-RateLimit-Limit": "5",
      "X-RateLimit-Remaining": String(bucket.remaining),
      "X-RateLimit-Reset": String((bucket.resetAt / 1000).toFixed(3)),
      "X-RateLimit-Reset-After": String(((bucket.resetAt - now) / 1000).toFixed(3)),
      "X-RateLimit-Bucket": `standin-${webhookId}`,
    };
    record(url.searchParams.get("wait") === "true" ? 200 : 204);
    if (url.searchParams.get("wait") !== "true") return send(res, 204, null, headers);
    const b = body as { content?: string; embeds?: unknown[] };
    return send(
      res,
      200,
      {
        id: String(BigInt(Date.now()) << 22n),
        type: 0,
        content: b.content ?? "",
        channel_id: "100000000000000001",
        author: { id: webhookId, username: "MoverScan", bot: true },
        embeds: b.embeds ?? [],
        attachments: [],
        mentions: [],
        timestamp: new Date().toISOString(),
        webhook_id: webhookId,
      },
      headers,
    );
  }

  function telegram(res: http.ServerResponse, url: URL, raw: string, m: RegExpExecArray) {
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      body = null;
    }
    const chat = body?.chat_id === undefined ? "" : String(body.chat_id);
    const record = (status: number) =>
      received.push({
        seq: ++seq,
        service: "telegram",
        at: new Date().toISOString(),
        path: url.pathname.replace(m[1]!, "<token>"),
        status,
        body: keep ? body : null,
        target: chat,
      });
    if (m[2] !== "sendMessage") {
      record(404);
      return send(res, 404, { ok: false, error_code: 404, description: "Not Found" });
    }
    const failure = takeFailure("telegram", chat);
    if (failure?.status === 429) {
      record(429);
      return send(res, 429, {
        ok: false,
        error_code: 429,
        description: `Too Many Requests: retry after ${Math.ceil(failure.retryAfter)}`,
        parameters: { retry_after: Math.ceil(failure.retryAfter) },
      });
    }
    if (failure?.status === 500) {
      record(500);
      return send(res, 500, { ok: false, error_code: 500, description: "Internal Server Error" });
    }
    const moved = migrations.get(chat);
    if (moved) {
      record(400);
      return send(res, 400, {
        ok: false,
        error_code: 400,
        description: "Bad Request: group chat was upgraded to a supergroup chat",
        parameters: { migrate_to_chat_id: Number(moved) },
      });
    }
    const text = typeof body?.text === "string" ? body.text : "";
    if (chat) {
      const paid = body?.allow_paid_broadcast === true;
      const wait = Math.max(
        keyed(telegramChats, chat, 1, 3).take(),
        chat.startsWith("-") ? keyed(telegramGroups, chat, 20 / 60, 20).take() : 0,
        (paid ? telegramPaid : telegramOverall).take(),
      );
      if (wait > 0) {
        const retryAfter = Math.max(1, Math.ceil(wait));
        record(429);
        return send(res, 429, {
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${retryAfter}`,
          parameters: { retry_after: retryAfter },
        });
      }
    }
    if (!chat) {
      record(400);
      return send(res, 400, {
        ok: false,
        error_code: 400,
        description: "Bad Request: chat_id is empty",
      });
    }
    if (!text.trim()) {
      record(400);
      return send(res, 400, {
        ok: false,
        error_code: 400,
        description: "Bad Request: message text is empty",
      });
    }
    if (text.length > 4096) {
      record(400);
      return send(res, 400, {
        ok: false,
        error_code: 400,
        description: "Bad Request: message is too long",
      });
    }
    record(200);
    const id = Number(chat);
    return send(res, 200, {
      ok: true,
      result: {
        message_id: ++messageId,
        from: { id: 1, is_bot: true, first_name: "MoverScan", username: "moverscan_bot" },
        chat: Number.isFinite(id)
          ? { id, type: id < 0 ? "supergroup" : "private" }
          : { id: chat, type: "channel" },
        date: Math.floor(Date.now() / 1000),
        text,
      },
    });
  }

  function resend(req: http.IncomingMessage, res: http.ServerResponse, url: URL, raw: string) {
    const batch = url.pathname === "/resend/emails/batch";
    const error = (status: number, name: string, message: string, headers = {}) => {
      received.push({
        seq: ++seq,
        service: "resend",
        at: new Date().toISOString(),
        path: url.pathname,
        status,
        body: null,
        target: "",
      });
      return send(res, status, { statusCode: status, message, name }, headers);
    };
    const auth = req.headers.authorization ?? "";
    if (!/^Bearer re_[A-Za-z0-9_]+$/.test(auth)) {
      return error(401, "validation_error", "API key is invalid");
    }
    const wait = resendBucket.take();
    const limitHeaders = {
      "ratelimit-limit": String(resendRate),
      "ratelimit-remaining": wait > 0 ? "0" : "1",
      "ratelimit-reset": String(Math.max(1, Math.ceil(wait))),
    };
    if (wait > 0) {
      return error(
        429,
        "rate_limit_exceeded",
        `Too many requests. You can only make ${resendRate} requests per second. See rate limit response headers for more information. Or contact support to increase rate limit.`,
        { ...limitHeaders, "retry-after": String(Math.max(1, Math.ceil(wait))) },
      );
    }
    const key = req.headers["idempotency-key"];
    const idem = typeof key === "string" && key ? `${url.pathname}\u0000${key}` : null;
    const known = idem ? resendKeys.get(idem) : undefined;
    if (known) return send(res, known.status, known.body, limitHeaders);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return error(400, "validation_error", "Invalid JSON body.");
    }
    const emails = batch ? parsed : [parsed];
    if (!Array.isArray(emails) || emails.length === 0) {
      return error(422, "validation_error", "The batch must be an array of 1 to 100 e-mails.");
    }
    if (emails.length > 100) {
      return error(422, "validation_error", "Too many emails: a batch holds at most 100.");
    }
    for (const e of emails as { to?: unknown; from?: unknown; subject?: unknown }[]) {
      const to = Array.isArray(e?.to) ? e.to : typeof e?.to === "string" ? [e.to] : [];
      if (to.length === 0) return error(422, "missing_required_field", "Missing `to` field.");
      if (typeof e.from !== "string" || !e.from)
        return error(422, "missing_required_field", "Missing `from` field.");
      if (typeof e.subject !== "string")
        return error(422, "missing_required_field", "Missing `subject` field.");
    }
    const ids = (emails as { to: string | string[] }[]).map((e) => {
      const id = `00000000-0000-4000-8000-${String(++resendId).padStart(12, "0")}`;
      received.push({
        seq: ++seq,
        service: "resend",
        at: new Date().toISOString(),
        path: url.pathname,
        status: 200,
        body: keep ? e : null,
        target: String(Array.isArray(e.to) ? e.to[0] : e.to),
      });
      return { id };
    });
    const answer = batch ? { data: ids } : ids[0];
    if (idem) resendKeys.set(idem, { status: 200, body: answer });
    return send(res, 200, answer, limitHeaders);
  }

  async function control(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    raw: string,
  ) {
    const form = (req.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded");
    let input: Record<string, string>;
    try {
      input = form
        ? Object.fromEntries(new URLSearchParams(raw))
        : raw
          ? (JSON.parse(raw) as Record<string, string>)
          : {};
    } catch {
      return send(res, 400, { error: "invalid_json", message: "The body is not JSON." });
    }
    const done = (body: unknown) =>
      form ? res.writeHead(303, { Location: "/" }).end() : send(res, 200, body);
    if (url.pathname === "/__standins/fail") {
      const service = input.service as Service;
      const status = Number(input.status);
      const times = Number(input.times ?? 1);
      const target = input.target ? String(input.target) : undefined;
      if (
        !["discord", "telegram"].includes(service) ||
        ![429, 500].includes(status) ||
        !(times >= 1 && times <= 100) ||
        (target !== undefined && !/^-?[0-9]{1,25}$/.test(target))
      ) {
        return send(res, 400, {
          error: "invalid_input",
          message:
            "service discord|telegram, status 429|500, times 1-100, target a webhook or chat id",
        });
      }
      api.fail(
        service,
        status as 429 | 500,
        times,
        input.retryAfter === undefined ? undefined : Number(input.retryAfter),
        target,
      );
      return done({ ok: true });
    }
    if (url.pathname === "/__standins/migrate") {
      if (!input.from || !/^-?[0-9]+$/.test(String(input.to))) {
        return send(res, 400, {
          error: "invalid_input",
          message: "from and a numeric to are required",
        });
      }
      api.migrate(String(input.from), String(input.to));
      return done({ ok: true });
    }
    if (url.pathname === "/__standins/delay") {
      const ms = Number(input.ms);
      if (!(Number.isInteger(ms) && ms >= 0 && ms <= 60_000)) {
        return send(res, 400, { error: "invalid_input", message: "ms must be 0-60000" });
      }
      delayMs = ms;
      return done({ ok: true });
    }
    if (url.pathname === "/__standins/reset") {
      api.reset();
      return done({ ok: true });
    }
    return send(res, 404, { error: "not_found", message: "No such control" });
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://standin");
      try {
        if (req.method === "GET" && url.pathname === "/") {
          res
            .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
            .end(page(received, failures));
          return;
        }
        if (req.method === "GET" && url.pathname === "/__standins/requests") {
          const service = url.searchParams.get("service") as Service | null;
          return send(res, 200, api.requests(service ?? undefined));
        }
        if (req.method !== "POST")
          return send(res, 405, { error: "method_not_allowed", message: "Use POST." });
        // A Resend batch carries up to 100 whole e-mails (Resend takes up to 40 MB per e-mail).
        const raw = await readBody(
          req,
          url.pathname.startsWith("/resend/") ? 40_000_000 : 1_000_000,
        );
        if (url.pathname.startsWith("/__standins/")) return await control(req, res, url, raw);
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        const discordPath = DISCORD_PATH.exec(url.pathname);
        if (discordPath) return discord(res, url, raw, discordPath);
        const telegramPath = TELEGRAM_PATH.exec(url.pathname);
        if (telegramPath) return telegram(res, url, raw, telegramPath);
        if (url.pathname === "/resend/emails" || url.pathname === "/resend/emails/batch") {
          return resend(req, res, url, raw);
        }
        return send(res, 404, { message: "404: Not Found", code: 0 });
      } catch (err) {
        opts.log?.(`chat stand-in: ${(err as Error).message}`);
        if (!res.headersSent)
          send(res, 400, { error: "bad_request", message: (err as Error).message });
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        err.code === "EADDRINUSE"
          ? new Error(`Port ${opts.port} is already in use; set CHAT_STANDIN_PORT to another port.`)
          : err,
      ),
    );
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  const url = `http://${opts.host}:${port}`;

  const api: ChatStandIn = {
    url,
    requests: (service) => received.filter((r) => !service || r.service === service),
    fail(service, status, times, retryAfter, target) {
      failures.set(target === undefined ? service : `${service}:${target}`, {
        status,
        remaining: times,
        retryAfter: retryAfter ?? (status === 429 ? 1 : 0),
      });
    },
    migrate(from, to) {
      migrations.set(from, to);
    },
    reset() {
      received.length = 0;
      failures.clear();
      migrations.clear();
      buckets.clear();
      telegramChats.clear();
      telegramGroups.clear();
      resendKeys.clear();
      delayMs = opts.delayMs ?? 0;
      resendBucket = new LimitBucket(resendRate, Math.max(1, Math.ceil(resendRate)));
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return api;
}
