// A JSON POST over node:http(s) with kept-alive connections (decision 0110): the alert worker's
// Discord posts, one per subscriber's webhook, where Deno's `fetch` cost about twice the CPU per
// request (its web streams, `Headers`, `Response` and an `AbortSignal` timer each time).
import { Buffer } from "node:buffer";
import http from "node:http";
import https from "node:https";

/** What a POST answered: the status, a header by (lower-case) name, the body as text. */
export type Posted = {
  status: number;
  header(name: string): string | null;
  text: string;
};

/**
 * POSTs `body` (JSON) to `url`; rejects when the connection fails, and with an error named
 * `TimeoutError` when no whole answer came within `timeoutMs` (the request may have arrived).
 */
export type JsonPost = (url: string, body: string, timeoutMs: number) => Promise<Posted>;

/**
 * Idle connections each pool keeps per host. Node's default, 256, is one invocation's Discord
 * senders (`sendersFor`), but invocations overlap (the scan's call, the schedule's) and share
 * the isolate's pools: with four at once, about 1,000 requests are in flight, and every answer
 * beyond the 256th closed its connection, so the next post to that host opened a new one
 * (7,460 connections for 40,000 posts, decision 0112). Kept idle, a connection costs a socket
 * until the host closes it.
 */
export const FREE_SOCKETS_PER_HOST = 1024;

/**
 * How long a connection stays idle in the pool (decision 0117). With a time-out set, the pool
 * also follows a server's `Keep-Alive: timeout=N` and closes the connection a second before the
 * server would (Node's rule, which Deno's node:http keeps; without a time-out the hint is
 * ignored). Posts then no longer go out on a connection the server is closing: such a post
 * failed with "socket hang up" and waited for its retry (4 of 100,000 posts in a bench on
 * PGlite, whose pauses leave connections idle for the server's 5 s).
 */
export const IDLE_MS = 60_000;

// One pool per scheme for the isolate's life: a webhook post reuses a connection to its host.
const poolOptions = { keepAlive: true, maxFreeSockets: FREE_SOCKETS_PER_HOST, timeout: IDLE_MS };
const agents = { http: new http.Agent(poolOptions), https: new https.Agent(poolOptions) };

/**
 * The time-outs of the posts in flight, kept by one timer for all of them instead of a timer
 * each (a timer set and cleared per post was a few per cent of the worker's CPU per post). It
 * looks every TICK_MS, so a post gives up at most that much after its time-out, and it stops
 * when nothing is in flight.
 */
const TICK_MS = 100;
type Deadline = { at: number; expire(): void };
const inFlight = new Set<Deadline>();
let ticker: ReturnType<typeof setInterval> | null = null;

function watch(deadline: Deadline): void {
  inFlight.add(deadline);
  ticker ??= setInterval(() => {
    const now = performance.now();
    for (const d of inFlight) if (d.at <= now) d.expire();
  }, TICK_MS);
}

function unwatch(deadline: Deadline): void {
  inFlight.delete(deadline);
  if (inFlight.size === 0 && ticker !== null) {
    clearInterval(ticker);
    ticker = null;
  }
}

function timeoutError(ms: number): Error {
  const err = new Error(`no answer within ${ms} ms`);
  err.name = "TimeoutError";
  return err;
}

export const keepAlivePost: JsonPost = (input, body, timeoutMs) => {
  const url = new URL(input);
  const tls = url.protocol === "https:";
  if (!tls && url.protocol !== "http:") {
    return Promise.reject(new TypeError(`Not an http(s) URL: ${url.protocol}`));
  }
  return new Promise<Posted>((resolve, reject) => {
    let settled = false;
    const deadline: Deadline = {
      at: performance.now() + timeoutMs,
      expire() {
        const err = timeoutError(timeoutMs);
        fail(err);
        req.destroy(err);
      },
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      unwatch(deadline);
      reject(err);
    };
    const req = (tls ? https : http).request(
      url,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
        },
        agent: tls ? agents.https : agents.http,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", fail);
        // A connection closed before the end of the answer.
        res.on("close", () => {
          if (!res.complete) fail(new Error("connection closed before the whole answer"));
        });
        res.on("end", () => {
          if (settled) return;
          settled = true;
          unwatch(deadline);
          const headers = res.headers;
          resolve({
            status: res.statusCode ?? 0,
            header: (name) => {
              const value = headers[name.toLowerCase()];
              return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
            },
            text: (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString("utf8"),
          });
        });
      },
    );
    watch(deadline);
    req.on("error", fail);
    req.end(body);
  });
};

/** The same POST through a `fetch` (tests give the channels a fake one). */
export function postViaFetch(doFetch: typeof fetch): JsonPost {
  return async (url, body, timeoutMs) => {
    const res = await doFetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text().catch(() => "");
    return { status: res.status, header: (name) => res.headers.get(name), text };
  };
}
