// Reading a venue's public JSON API: a timeout per request, rate-limit answers turned into a
// "do not call before" time, and every other failure turned into a `MarketSourceError`.
import type { MarketSource } from "../domain/market.ts";
import { MarketSourceError } from "./types.ts";

export const DEFAULT_TIMEOUT_MS = 8_000;
/** The pause after a rate-limit answer that names none (no or unreadable Retry-After). */
export const DEFAULT_BACKOFF_SECONDS = 60;
/** HTTP statuses that mean "you are calling too often" (418: Binance's ban after ignored 429s). */
export const RATE_LIMIT_STATUSES: ReadonlySet<number> = new Set([429, 418]);

/**
 * Milliseconds to wait from a Retry-After header: delay-seconds (Binance, Coinbase and
 * GeckoTerminal send these) or an HTTP date; null when absent or unreadable.
 */
export function retryAfterMs(value: string | null, now: Date): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`); anything else is unreadable.
  const at = /^[A-Za-z]{3}, /.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

/** The "do not call before" time of one adapter instance. */
export class Backoff {
  #until = 0;

  /** The ISO time calls are paused until, or null when calling is allowed at `now`. */
  activeAt(now: Date): string | null {
    return now.getTime() < this.#until ? new Date(this.#until).toISOString() : null;
  }

  /** Pauses calls until `untilMs` (epoch ms; an earlier pause is never shortened); returns that time. */
  pauseUntil(untilMs: number): string {
    this.#until = Math.max(this.#until, untilMs);
    return new Date(this.#until).toISOString();
  }

  /** Pauses calls until the venue's Retry-After (default 60 s) has passed; returns that time. */
  pause(now: Date, retryAfter: string | null): string {
    const ms = retryAfterMs(retryAfter, now) ?? DEFAULT_BACKOFF_SECONDS * 1000;
    this.#until = Math.max(this.#until, now.getTime() + ms);
    return new Date(this.#until).toISOString();
  }
}

export interface RequestContext {
  source: MarketSource;
  fetch: typeof fetch;
  now: () => Date;
  signal?: AbortSignal;
  timeoutMs: number;
  backoff: Backoff;
}

export type JsonAnswer =
  | { ok: true; body: unknown; headers: Headers; receivedAt: Date }
  | { ok: false; backoffUntil: string };

/**
 * The venue's clock as one answer shows it. `skewMs` is the venue's clock minus ours from the
 * HTTP `Date` header (whole seconds, so the header's second is taken at its middle), null when
 * the answer has none. A skew within the header's resolution (under a second) is no skew:
 * `venueNow` is then the time the answer arrived, else that time moved by the skew.
 */
export function venueClock(
  answer: { headers: Headers; receivedAt: Date },
): { skewMs: number | null; venueNow: Date } {
  const header = answer.headers.get("date");
  const at = header ? Date.parse(header) : Number.NaN;
  if (Number.isNaN(at)) return { skewMs: null, venueNow: answer.receivedAt };
  const skewMs = Math.round(at + 500 - answer.receivedAt.getTime());
  return {
    skewMs,
    venueNow: Math.abs(skewMs) < 1000
      ? answer.receivedAt
      : new Date(answer.receivedAt.getTime() + skewMs),
  };
}

/** Settles like `work`, or rejects once `signal` aborts (even if `work` ignores the signal). */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}

/** The error of a request that failed before (`unreachable`) or while (`body`) its body arrived. */
function requestFailure(
  ctx: RequestContext,
  host: string,
  timeout: AbortSignal,
  err: unknown,
  stage: "unreachable" | "body",
): MarketSourceError {
  const during = stage === "body" ? " while sending its body" : "";
  if (timeout.aborted) {
    return new MarketSourceError(
      ctx.source,
      "timeout",
      `${host} did not answer within ${ctx.timeoutMs} ms${during}`,
      undefined,
      { cause: err },
    );
  }
  if (ctx.signal?.aborted) {
    return new MarketSourceError(
      ctx.source,
      "network",
      `request to ${host} was cancelled`,
      undefined,
      {
        cause: err,
      },
    );
  }
  const reason = err instanceof Error ? err.message : String(err);
  return new MarketSourceError(
    ctx.source,
    "network",
    stage === "body"
      ? `${host} cut its answer off mid-transfer: ${reason}`
      : `${host} unreachable: ${reason}`,
    undefined,
    { cause: err },
  );
}

/**
 * GET `url` and parse its JSON body within `timeoutMs`. A 429/418 pauses the adapter (see
 * `Backoff`) and answers `{ ok: false, backoffUntil }`; anything else that is not a 2xx with a
 * JSON body throws `MarketSourceError`.
 */
export async function getJson(ctx: RequestContext, url: string): Promise<JsonAnswer> {
  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = ctx.signal ? AbortSignal.any([timeout, ctx.signal]) : timeout;
  const host = new URL(url).host;
  let res: Response;
  try {
    res = await raceAbort(
      ctx.fetch(url, { headers: { accept: "application/json" }, signal }),
      signal,
    );
  } catch (err) {
    throw requestFailure(ctx, host, timeout, err, "unreachable");
  }
  const status = res.status;
  if (RATE_LIMIT_STATUSES.has(status)) {
    await res.body?.cancel().catch(() => {});
    const backoffUntil = ctx.backoff.pause(ctx.now(), res.headers.get("retry-after"));
    console.warn(
      `[market] ${ctx.source}: HTTP ${status} from ${host}; paused until ${backoffUntil}`,
    );
    return { ok: false, backoffUntil };
  }
  let text: string;
  try {
    text = await raceAbort(res.text(), signal);
  } catch (err) {
    // The venue answered (status and headers arrived), then the body stopped: not "unreachable".
    throw requestFailure(ctx, host, timeout, err, "body");
  }
  if (status < 200 || status > 299) {
    const detail = snippet(text);
    throw new MarketSourceError(
      ctx.source,
      "http",
      `${host} answered HTTP ${status}${detail ? `: ${detail}` : ""}`,
      status,
    );
  }
  try {
    return { ok: true, body: JSON.parse(text), headers: res.headers, receivedAt: ctx.now() };
  } catch (err) {
    throw new MarketSourceError(
      ctx.source,
      "parse",
      `${host} sent a body that is not JSON`,
      status,
      {
        cause: err,
      },
    );
  }
}

export { toNumber } from "../domain/numbers.ts";

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The request settings shared by the real-venue adapters. */
export interface VenueOptions {
  /** Per-request timeout (default 8 s). */
  timeoutMs?: number;
  /**
   * The API's base URL instead of the venue's own (a regional mirror, a testnet, a local test
   * server): `BINANCE_API_URL`, `COINBASE_API_URL`, `GECKOTERMINAL_API_URL`.
   */
  baseUrl?: string;
}

/**
 * A base URL setting as the adapters use it (no trailing slash), or a `config` failure that the
 * scan reports for that venue: only absolute http(s) URLs without a query or fragment are taken.
 */
export function venueBaseUrl(
  source: MarketSource,
  setting: string,
  value: string | undefined,
  fallback: string,
): string {
  const raw = value?.trim();
  if (!raw) return fallback;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
    throw new MarketSourceError(
      source,
      "config",
      `${setting} must be an http(s) URL without query or fragment (got "${raw.slice(0, 80)}")`,
    );
  }
  return url.href.replace(/\/+$/, "");
}

/** Builds the request context of one call. */
export function requestContext(
  source: MarketSource,
  backoff: Backoff,
  venue: VenueOptions,
  opts: { fetch?: typeof fetch; now?: () => Date; signal?: AbortSignal },
): RequestContext {
  return {
    source,
    backoff,
    fetch: opts.fetch ?? globalThis.fetch,
    now: opts.now ?? (() => new Date()),
    signal: opts.signal,
    timeoutMs: venue.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
}
