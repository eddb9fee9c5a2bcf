// The three channels behind one interface: send(job) → delivered, or failed with what the
// service said (retry after N seconds, permanent, or a Telegram chat that moved).
import type { Env } from "../_shared/env.ts";
import { parseJson } from "../_shared/json.ts";
import { keepAlivePost, type Posted, postViaFetch } from "../_shared/keep-alive-post.ts";
import {
  alertEmail,
  discordBody,
  type Email,
  type Links,
  localeOf,
  type MarketAlertPayload,
  telegramText,
  ticketEmail,
  ticketOverdueEmail,
  type TicketOverduePayload,
  type TicketPayload,
  zoneOf,
} from "./messages.ts";
import {
  BucketMap,
  type Clock,
  type Limits,
  limitsFrom,
  type Pacer,
  type SharedBuckets,
  SharedTokenBucket,
  TokenBucket,
} from "./pacing.ts";
import { sendSmtp, SmtpError, type SmtpOptions } from "./smtp.ts";

export type ChannelName = "email" | "discord" | "telegram";

/** One claimed outbox job (public.claim_outbox). */
export interface Job {
  id: number;
  kind: string;
  channel: ChannelName;
  attempts: number;
  payload: unknown;
  target: string;
  locale: string | null;
  /** The recipient's IANA time zone (profiles.time_zone; UTC when none). */
  timeZone?: string | null;
  dedupKey?: string;
}

export type SendResult =
  | { ok: true; recipient: string }
  | {
    ok: false;
    error: string;
    /** Seconds the service asked us to wait (429 retry_after, Retry-After). */
    retryAfter?: number;
    /** Never worth another try (a deleted webhook, a bot blocked by the user, a bad address). */
    permanent?: boolean;
    /** No answer in time: the request may have arrived (decision 0031: not re-sent blindly). */
    doubt?: boolean;
  };

/** A request that was sent but not answered in time (as opposed to one that never left). */
export function mayHaveArrived(err: unknown): boolean {
  return err instanceof DOMException
    ? err.name === "TimeoutError" || err.name === "AbortError"
    : err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
}

export interface Channel {
  send(job: Job): Promise<SendResult>;
  /**
   * Several jobs in one request (Resend's POST /emails/batch); one result per job, in order.
   * Only offered when it cuts requests (`batchSize() > 1`).
   */
  sendBatch?(jobs: Job[]): Promise<SendResult[]>;
  batchSize?(): number;
  /**
   * Whether a repeated request is harmless (Resend's Idempotency-Key). Jobs of channels without
   * one are marked as being sent before their request (decision 0031): a worker that dies then
   * leaves them in_doubt instead of having them sent again.
   */
  idempotent?(): boolean;
}

export interface ChannelDeps {
  env: Env;
  /**
   * The channels' HTTP client (tests give a fake). Without one, Discord posts over kept-alive
   * node:http(s) connections (decision 0110) and the others use the global `fetch`.
   */
  fetch?: typeof fetch;
  links: Links;
  /** Waits (tests pass a fake clock). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  smtpConnect?: SmtpOptions["connect"];
  /** Telegram said a chat moved (migrate_to_chat_id): store the new id. */
  moveTelegramChat?: (oldId: string, newId: string) => Promise<void>;
  /** The limits to pace by (default: from the environment, `limitsFrom`). */
  limits?: Limits;
  /**
   * Buckets shared by every worker (`take_delivery_tokens`, decision 0049) for the shared
   * limits (one Telegram bot, one Resend team); without them each worker paces alone.
   */
  shared?: SharedBuckets;
}

function clockOf(deps: ChannelDeps): Clock {
  return { now: deps.now ?? Date.now, sleep: deps.sleep ?? defaultSleep };
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The pacer of one shared limit: in the database when it is shared, else in this worker. */
function sharedLimit(deps: ChannelDeps, name: string, rate: number, burst: number): Pacer {
  const clock = clockOf(deps);
  return deps.shared
    ? new SharedTokenBucket(
      name,
      rate,
      burst,
      deps.shared,
      clock,
      (err) => console.warn(`[deliver-alerts] shared bucket ${name}: ${describe(err)}`),
    )
    : new TokenBucket(rate, burst, clock);
}

/**
 * Rendered messages by (locale, zone, payload). A message is a pure function of them (and of the
 * links, fixed per worker), and subscribers grouped by identical rules (decision 0029) share one
 * message (`alert_messages`): one rendering serves all of them. Rendering a 20-item digest cost
 * about 4 ms of CPU per job (an `Intl` formatter built per item), more than the request itself:
 * it was where the worker's ~250 jobs/s went (decision 0055). `omit` names the payload's
 * per-user fields the rendering does not read (Discord and Telegram do not show the
 * unsubscribe token that every job carries; tests hold them to it). Bounded: emptied when it
 * holds `max` renderings.
 */
/**
 * An object value's content as a short token, remembered per object (the jobs of one message
 * share its objects): equal JSON, equal token, so the same content parsed apart (another claim)
 * still finds its rendering. A digest's items are a few kilobytes of JSON; written into every
 * job's key, each key was built and hashed whole, per job.
 */
const tokenOfObject = new WeakMap<object, string>();
const tokenOfJson = new Map<string, string>();
let tokens = 0;
function tokenOf(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  let token = tokenOfObject.get(value);
  if (token === undefined) {
    const json = JSON.stringify(value);
    token = tokenOfJson.get(json);
    if (token === undefined) {
      // Bounded as the renderings are: a token forgotten only costs a rendering.
      if (tokenOfJson.size >= 5000) tokenOfJson.clear();
      token = `#${++tokens}`;
      tokenOfJson.set(json, token);
    }
    tokenOfObject.set(value, token);
  }
  return token;
}

export class RenderCache<T> {
  private readonly entries = new Map<string, T>();
  hits = 0;
  constructor(
    private readonly omit: readonly string[] = [],
    private readonly max = 5000,
  ) {}

  private keyOf(job: Job): string {
    const payload = job.payload;
    let body: string;
    if (payload && typeof payload === "object" && !Array.isArray(payload)) {
      // Field by field, each object value written once however many jobs share it (a claim's
      // jobs of one message share its items: decision 0072).
      const parts: string[] = [];
      for (const [field, value] of Object.entries(payload as Record<string, unknown>)) {
        if (this.omit.includes(field)) continue;
        parts.push(`${JSON.stringify(field)}:${tokenOf(value)}`);
      }
      body = `{${parts.join(",")}}`;
    } else {
      body = JSON.stringify(payload);
    }
    return `${job.locale ?? ""}\u0000${job.timeZone ?? ""}\u0000${body}`;
  }

  get(job: Job, render: () => T): T {
    const key = this.keyOf(job);
    const known = this.entries.get(key);
    if (known !== undefined) {
      this.hits++;
      return known;
    }
    const value = render();
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(key, value);
    return value;
  }
}

/** Fields of a market alert's payload that only the e-mail shows. */
export const EMAIL_ONLY_FIELDS = ["unsubscribeToken"] as const;

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Seconds from a Retry-After header (seconds or an HTTP date), or undefined. */
export function retryAfterHeader(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const n = Number(value);
  if (Number.isFinite(n) && n >= 0) return n;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, (at - now) / 1000) : undefined;
}

/** Stands in for the unsubscribe token in a cached alert e-mail (a UUID no user gets: version 4, all f). */
const TOKEN_MARK = "ffffffff-ffff-4fff-bfff-ffffffffffff";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An alert e-mail through the render cache: rendered once per message with a mark for the
 * token, then the user's own token put in its place (subject, text, HTML, headers). A token that
 * is not a UUID (never from the database) is rendered on its own.
 */
function cachedAlertEmail(job: Job, links: Links, cache: RenderCache<Email>): Email {
  const payload = job.payload as MarketAlertPayload;
  const locale = localeOf(job.locale);
  const zone = zoneOf(job.timeZone);
  const token = payload.unsubscribeToken;
  if (token !== undefined && !(typeof token === "string" && UUID.test(token))) {
    return alertEmail(payload, locale, links, zone);
  }
  const template = cache.get(
    job,
    () =>
      alertEmail(
        { ...payload, unsubscribeToken: token ? TOKEN_MARK : undefined },
        locale,
        links,
        zone,
      ),
  );
  if (!token) return { ...template, headers: { ...template.headers } };
  const put = (s: string) => s.replaceAll(TOKEN_MARK, token);
  return {
    subject: put(template.subject),
    text: put(template.text),
    html: put(template.html),
    headers: Object.fromEntries(Object.entries(template.headers).map(([k, v]) => [k, put(v)])),
  };
}

function emailFor(job: Job, links: Links, cache?: RenderCache<Email>): Email {
  const locale = localeOf(job.locale);
  if (job.kind === "market_alert") {
    return cache
      ? cachedAlertEmail(job, links, cache)
      : alertEmail(job.payload as MarketAlertPayload, locale, links, zoneOf(job.timeZone));
  }
  if (job.kind === "ticket_reply" || job.kind === "ticket_status") {
    return ticketEmail(job.kind, job.payload as TicketPayload, locale, links);
  }
  if (job.kind === "ticket_overdue") {
    return ticketOverdueEmail(
      job.payload as TicketOverduePayload,
      locale,
      links,
      zoneOf(job.timeZone),
    );
  }
  throw new Error(`no e-mail for jobs of kind ${job.kind}`);
}

// ---- E-mail ---------------------------------------------------------------------------------

export const RESEND_API_URL = "https://api.resend.com";

/**
 * E-mail: Resend's HTTP API when RESEND_API_KEY is set (hosted edge functions block SMTP ports),
 * else SMTP to SMTP_HOST:SMTP_PORT (the local stack's MailDev).
 */
export function emailChannel(deps: ChannelDeps): Channel {
  const env = deps.env;
  const from = env("ALERT_EMAIL_FROM")?.trim() || "MoverScan Alerts <alerts@moverscan.local>";
  const doFetch = deps.fetch ?? fetch;
  const limits = deps.limits ?? limitsFrom(env);
  // One Resend team: RESEND_RATE_PER_SECOND requests per second across all its keys.
  const resendBucket = sharedLimit(deps, "resend:team", limits.resendPerSecond, 1);
  // Alert e-mails of one message share one rendering; the token is put in per user.
  const alertEmails = new RenderCache<Email>(EMAIL_ONLY_FIELDS);
  const resend = () => !!env("RESEND_API_KEY")?.trim();
  const resendBase = () => (env("RESEND_API_URL")?.trim() || RESEND_API_URL).replace(/\/+$/, "");
  const resendBody = (job: Job, email: Email) => ({
    from,
    to: [job.target],
    subject: email.subject,
    html: email.html,
    text: email.text,
    ...(Object.keys(email.headers).length ? { headers: email.headers } : {}),
  });
  const resendFailure = (res: Response, body: { message?: string; name?: string } | null) => {
    const error = `Resend ${res.status}${body?.name ? ` ${body.name}` : ""}: ${
      body?.message ?? "no message"
    }`;
    if (res.status === 429) {
      const retryAfter = retryAfterHeader(res.headers.get("retry-after")) ?? 1;
      resendBucket.pause(retryAfter);
      return { ok: false as const, error, retryAfter };
    }
    if (res.status >= 500 || body?.name === "concurrent_idempotent_requests") {
      return {
        ok: false as const,
        error,
        retryAfter: retryAfterHeader(res.headers.get("retry-after")),
      };
    }
    return { ok: false as const, error, permanent: true };
  };
  return {
    idempotent: () => resend() && limits.resendBatchSize <= 1,
    batchSize: () => (resend() ? limits.resendBatchSize : 1),
    async sendBatch(jobs) {
      const results: (SendResult | null)[] = jobs.map(() => null);
      const emails: { i: number; body: ReturnType<typeof resendBody> }[] = [];
      for (const [i, job] of jobs.entries()) {
        try {
          emails.push({ i, body: resendBody(job, emailFor(job, deps.links, alertEmails)) });
        } catch (err) {
          results[i] = { ok: false, error: describe(err), permanent: true };
        }
      }
      if (emails.length > 0) {
        // The same jobs in the same batch are the same request: a retry after a lost answer is
        // answered from Resend's idempotency store instead of sending again.
        const ids = emails.map((e) => jobs[e.i]!.id).join(",");
        const digest = new Uint8Array(
          await crypto.subtle.digest("SHA-256", new TextEncoder().encode(ids)),
        );
        const key = `outbox-batch/${
          [...digest].map((b) => b.toString(16).padStart(2, "0")).join("")
        }`;
        const body = JSON.stringify(emails.map((e) => e.body));
        let failure: SendResult | null = null;
        // A 429 means Resend took none of the batch (a late timer or the network bunched two
        // calls): the same call, same key, goes again in the next slot after its retry-after
        // (the bucket is paused for every worker), at most twice, instead of the jobs waiting
        // for a retry of their own.
        for (let attempt = 0;; attempt++) {
          await resendBucket.take();
          failure = null;
          let res: Response;
          try {
            res = await doFetch(`${resendBase()}/emails/batch`, {
              method: "POST",
              headers: {
                "Authorization": `Bearer ${env("RESEND_API_KEY")!.trim()}`,
                "Content-Type": "application/json",
                "Idempotency-Key": key,
              },
              body,
              signal: AbortSignal.timeout(30_000),
            });
            const answer = await res.json().catch(() => null) as
              | { data?: { id?: string }[]; message?: string; name?: string }
              | null;
            if (res.ok && Array.isArray(answer?.data) && answer.data.length === emails.length) {
              for (const e of emails) results[e.i] = { ok: true, recipient: jobs[e.i]!.target };
            } else if (res.ok) {
              failure = { ok: false, error: "Resend batch: the answer does not list every e-mail" };
            } else {
              failure = resendFailure(res, answer);
              if (res.status === 429 && attempt < 2) continue;
            }
          } catch (err) {
            failure = { ok: false, error: `Resend unreachable: ${describe(err)}` };
          }
          break;
        }
        if (failure) { for (const e of emails) results[e.i] = failure; }
      }
      return results.map((r) => r!);
    },
    async send(job) {
      let email: Email;
      try {
        email = emailFor(job, deps.links, alertEmails);
      } catch (err) {
        return { ok: false, error: describe(err), permanent: true };
      }
      const key = env("RESEND_API_KEY")?.trim();
      if (key) {
        await resendBucket.take();
        let res: Response;
        try {
          res = await doFetch(`${resendBase()}/emails`, {
            method: "POST",
            headers: {
              "Authorization": `Bearer ${key}`,
              "Content-Type": "application/json",
              // Resend sends one e-mail per key within 24 h: a retry after a lost answer is safe.
              "Idempotency-Key": `outbox/${job.dedupKey ?? job.id}`.slice(0, 256),
            },
            body: JSON.stringify(resendBody(job, email)),
            signal: AbortSignal.timeout(15_000),
          });
        } catch (err) {
          return { ok: false, error: `Resend unreachable: ${describe(err)}` };
        }
        const body = await res.json().catch(() => null) as
          | { id?: string; message?: string; name?: string; statusCode?: number }
          | null;
        if (res.ok && body?.id) return { ok: true, recipient: job.target };
        return resendFailure(res, body);
      }
      const host = env("SMTP_HOST")?.trim();
      const port = Number(env("SMTP_PORT") ?? 0);
      if (!host || !port) {
        return {
          ok: false,
          error: "No e-mail transport: set RESEND_API_KEY, or SMTP_HOST and SMTP_PORT.",
        };
      }
      try {
        await sendSmtp(
          { host, port, connect: deps.smtpConnect },
          { from, to: job.target, ...email },
        );
        return { ok: true, recipient: job.target };
      } catch (err) {
        return {
          ok: false,
          error: describe(err),
          permanent: err instanceof SmtpError && err.permanent,
        };
      }
    },
  };
}

// ---- Discord --------------------------------------------------------------------------------

export const DISCORD_API_URL = "https://discord.com/api";
const DISCORD_WEBHOOK =
  /^https:\/\/(?:discord\.com|discordapp\.com|ptb\.discord\.com|canary\.discord\.com)\/api(\/webhooks\/([0-9]+)\/[A-Za-z0-9_-]+)$/;

/** Where the posts go: DISCORD_API_URL (stand-ins), else Discord's own API. */
function discordBase(env: Env): string {
  return (env("DISCORD_API_URL")?.trim() || DISCORD_API_URL).replace(/\/+$/, "");
}

/** A stored webhook's URL to post to under `base`, and its id; null when it is not Discord's. */
function discordTarget(base: string, webhook: string): { url: string; id: string } | null {
  const m = DISCORD_WEBHOOK.exec(webhook);
  return m ? { url: `${base}${m[1]}?wait=true`, id: m[2]! } : null;
}

/** The URL to post to: the stored webhook, or its path under DISCORD_API_URL (stand-ins). */
export function discordUrl(env: Env, webhook: string): string | null {
  return discordTarget(discordBase(env), webhook)?.url ?? null;
}

/**
 * Discord webhooks: `?wait=true` (the message is confirmed), 429 `retry_after` honoured, and the
 * X-RateLimit-* headers: when a webhook's bucket is empty, the next post to it waits for the
 * reset (or, when that is long, the job is retried after it).
 */
export function discordChannel(deps: ChannelDeps): Channel {
  const post = deps.fetch ? postViaFetch(deps.fetch) : keepAlivePost;
  const sleep = deps.sleep ?? defaultSleep;
  const now = deps.now ?? Date.now;
  const resetAt = new Map<string, number>();
  const bodies = new RenderCache<string>(EMAIL_ONLY_FIELDS);
  // Read once per channel, not per post (the host's environment is read through an op).
  const base = discordBase(deps.env);
  return {
    async send(job) {
      if (job.kind !== "market_alert") {
        return { ok: false, error: `Discord does not carry ${job.kind}`, permanent: true };
      }
      const webhook = discordTarget(base, job.target);
      if (!webhook) return { ok: false, error: "Not a Discord webhook URL", permanent: true };
      const wait = (resetAt.get(job.target) ?? 0) - now();
      if (wait > 5_000) {
        return { ok: false, error: "Discord rate limit (bucket empty)", retryAfter: wait / 1000 };
      }
      if (wait > 0) await sleep(wait);
      const body = bodies.get(job, () =>
        JSON.stringify(
          discordBody(
            job.payload as MarketAlertPayload,
            localeOf(job.locale),
            deps.links,
            zoneOf(job.timeZone),
          ),
        ));
      let res: Posted;
      try {
        res = await post(webhook.url, body, 15_000);
      } catch (err) {
        return {
          ok: false,
          error: `Discord unreachable: ${describe(err)}`,
          doubt: mayHaveArrived(err),
        };
      }
      const remaining = res.header("x-ratelimit-remaining");
      const resetAfter = Number(res.header("x-ratelimit-reset-after"));
      if (remaining === "0" && Number.isFinite(resetAfter)) {
        resetAt.set(job.target, now() + resetAfter * 1000);
      }
      // A 2xx is all a delivery needs: the message Discord echoes is not read (decision 0110).
      if (res.status >= 200 && res.status < 300) {
        return { ok: true, recipient: `discord:${webhook.id}` };
      }
      const data = parseJson(res.text) as
        | { id?: string; message?: string; code?: number; retry_after?: number; global?: boolean }
        | undefined;
      if (res.status === 429) {
        const retryAfter = typeof data?.retry_after === "number"
          ? data.retry_after
          : retryAfterHeader(res.header("retry-after"), now()) ?? 1;
        resetAt.set(job.target, now() + retryAfter * 1000);
        return { ok: false, error: `Discord 429: ${data?.message ?? "rate limited"}`, retryAfter };
      }
      const error = `Discord ${res.status}${data?.code ? ` (${data.code})` : ""}: ${
        data?.message ?? "no message"
      }`;
      // 404 Unknown Webhook, 401/403: the webhook is gone; 400: our payload (never retried).
      if (res.status >= 400 && res.status < 500) return { ok: false, error, permanent: true };
      return { ok: false, error };
    },
  };
}

// ---- Telegram -------------------------------------------------------------------------------

export const TELEGRAM_API_URL = "https://api.telegram.org";

/**
 * Telegram Bot API sendMessage: at most one message per second per chat (the worker spaces
 * them), 429 `parameters.retry_after` honoured, `parameters.migrate_to_chat_id` followed (the
 * new id is stored and the message sent there at once).
 */
export function telegramChannel(deps: ChannelDeps): Channel {
  const doFetch = deps.fetch ?? fetch;
  const clock = clockOf(deps);
  const limits = deps.limits ?? limitsFrom(deps.env);
  // One bot: its overall rate (30/s, or up to 1000/s with paid broadcasts), 1 message per
  // second per chat, 20 per minute per group (negative chat ids are groups and channels). The
  // bursts stay below what Telegram tolerates, so the sustained rate is the ceiling itself.
  // The bot's overall rate is shared by every worker (named by the bot's public id).
  const botId = /^([0-9]{1,20}):/.exec(deps.env("TELEGRAM_BOT_TOKEN")?.trim() ?? "")?.[1] ?? "bot";
  const overall = sharedLimit(
    deps,
    `telegram:${botId}`,
    limits.telegramPerSecond,
    Math.max(1, Math.floor(limits.telegramPerSecond / 3)),
  );
  const texts = new RenderCache<string>(EMAIL_ONLY_FIELDS);
  const perChat = new BucketMap(limits.telegramChatPerSecond, 1, clock);
  const perGroup = new BucketMap(limits.telegramGroupPerMinute / 60, 5, clock);
  async function post(token: string, chatId: string, text: string) {
    const base = (deps.env("TELEGRAM_API_URL")?.trim() || TELEGRAM_API_URL).replace(/\/+$/, "");
    await perChat.get(chatId).take();
    if (chatId.startsWith("-")) await perGroup.get(chatId).take();
    await overall.take();
    const res = await doFetch(`${base}/bot${token}/sendMessage`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        // An Integer where it is one exactly (JSON numbers above 2^53 would lose digits).
        chat_id: /^-?[0-9]+$/.test(chatId) && Number.isSafeInteger(Number(chatId))
          ? Number(chatId)
          : chatId,
        text,
        parse_mode: "HTML",
        link_preview_options: { is_disabled: true },
        // Paid broadcasts: up to 1000 messages per second, charged in Telegram Stars.
        ...(limits.telegramPaidBroadcast ? { allow_paid_broadcast: true } : {}),
      }),
      signal: AbortSignal.timeout(15_000),
    });
    const data = await res.json().catch(() => null) as
      | {
        ok?: boolean;
        error_code?: number;
        description?: string;
        parameters?: { retry_after?: number; migrate_to_chat_id?: number };
      }
      | null;
    return { res, data };
  }
  return {
    async send(job) {
      if (job.kind !== "market_alert") {
        return { ok: false, error: `Telegram does not carry ${job.kind}`, permanent: true };
      }
      const token = deps.env("TELEGRAM_BOT_TOKEN")?.trim();
      if (!token) return { ok: false, error: "TELEGRAM_BOT_TOKEN is not set" };
      const text = texts.get(job, () =>
        telegramText(
          job.payload as MarketAlertPayload,
          localeOf(job.locale),
          deps.links,
          zoneOf(job.timeZone),
        ));
      let chat = job.target;
      for (let hop = 0; hop < 2; hop++) {
        let answer;
        try {
          answer = await post(token, chat, text);
        } catch (err) {
          return {
            ok: false,
            error: `Telegram unreachable: ${describe(err)}`,
            doubt: mayHaveArrived(err),
          };
        }
        const { res, data } = answer;
        if (res.ok && data?.ok) return { ok: true, recipient: `telegram:${chat}` };
        const error = `Telegram ${data?.error_code ?? res.status}: ${
          data?.description ?? "no description"
        }`;
        const moved = data?.parameters?.migrate_to_chat_id;
        if (moved !== undefined && hop === 0) {
          const next = String(moved);
          await deps.moveTelegramChat?.(chat, next);
          chat = next;
          continue;
        }
        if (res.status === 429 || data?.error_code === 429) {
          const retryAfter = data?.parameters?.retry_after ?? 1;
          perChat.get(chat).pause(retryAfter);
          return { ok: false, error, retryAfter };
        }
        if (res.status >= 500) return { ok: false, error };
        // 400 chat not found, 403 bot blocked by the user, 401 bad token: never retried.
        return { ok: false, error, permanent: res.status !== 401 };
      }
      return { ok: false, error: "Telegram: the chat moved twice" };
    },
  };
}
