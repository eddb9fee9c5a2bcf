// A JSON POST over kept-alive HTTP/1.1 connections: the alert worker's Discord posts, one per
// subscriber's webhook. Deno's `fetch` cost about 85 µs of CPU a post (its web streams, `Headers`,
// `Response` and an `AbortSignal` timer each time); node:http over Deno's Node layer about 65 µs
// (decision 0110). This client writes the request and reads the answer on Deno's own sockets
// (`Deno.connect`, `Deno.connectTls`): about 21 µs (decision 0120).
//
// What it speaks is plain HTTP/1.1 (RFC 9112) as a client: one request at a time per connection,
// answers framed by Content-Length, chunked or the connection's close, interim 1xx answers
// skipped, and a connection reused only when its answer was whole and the server kept it open.

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
 * Idle connections kept per host. One invocation sends with 256 senders (`sendersFor`), and
 * invocations overlap (the scan's call, the schedule's) and share the isolate's pool: with four
 * at once about 1,000 requests are in flight, and a pool of 256 closed every connection beyond
 * it (7,460 connections for 40,000 posts, decision 0112).
 */
export const FREE_SOCKETS_PER_HOST = 1024;

/**
 * How long a connection stays idle in the pool (decision 0117). A server's `Keep-Alive:
 * timeout=N` shortens it to a second before the server would close it, so a post never goes out
 * on a connection the server is closing (it failed with "socket hang up" and waited for its retry).
 */
export const IDLE_MS = 60_000;

/** The largest answer read (Discord's are a few kilobytes); a larger one is an error. */
export const MAX_ANSWER_BYTES = 1 << 20;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// ---- time-outs ------------------------------------------------------------------------------

/**
 * The time-outs of the posts in flight, kept by one timer for all of them instead of a timer
 * each (a timer set and cleared per post was a few per cent of the worker's CPU per post,
 * decision 0114). It looks every TICK_MS, so a post gives up at most that much after its
 * time-out, and it stops when nothing is in flight.
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

// ---- the pool -------------------------------------------------------------------------------

type Connection = { conn: Deno.Conn; buf: Uint8Array; idleUntil: number };

/**
 * Idle connections per pool and origin (`<pool> http://host:port`), the most recently used last.
 * Each `createKeepAlivePost` is a pool of its own: its options (trusted authorities) never reach
 * another's connections.
 */
const pools = new Map<string, Connection[]>();
let idleCount = 0;
let nextPool = 0;
let sweeper: ReturnType<typeof setInterval> | null = null;

function close(c: Connection): void {
  try {
    c.conn.close();
  } catch {
    // Already closed.
  }
}

/** Closes the idle connections past their time; stops when none is left. */
function sweep(): void {
  const now = performance.now();
  for (const [origin, list] of pools) {
    let expired = 0;
    while (expired < list.length && list[expired]!.idleUntil <= now) close(list[expired++]!);
    if (expired > 0) {
      list.splice(0, expired);
      idleCount -= expired;
    }
    if (list.length === 0) pools.delete(origin);
  }
  if (idleCount === 0 && sweeper !== null) {
    clearInterval(sweeper);
    sweeper = null;
  }
}

function takeIdle(origin: string): Connection | undefined {
  const list = pools.get(origin);
  if (!list) return undefined;
  const now = performance.now();
  // The most recently used first: the least likely to be closed by the server meanwhile.
  for (let c = list.pop(); c; c = list.pop()) {
    idleCount--;
    if (c.idleUntil > now) return c;
    close(c);
  }
  return undefined;
}

function putIdle(origin: string, c: Connection, idleMs: number): void {
  let list = pools.get(origin);
  if (!list) pools.set(origin, list = []);
  if (list.length >= FREE_SOCKETS_PER_HOST) {
    close(c);
    return;
  }
  c.idleUntil = performance.now() + idleMs;
  list.push(c);
  idleCount++;
  if (sweeper === null) {
    sweeper = setInterval(sweep, 1000);
    // The pool's clock never keeps the isolate alive on its own.
    if (typeof Deno.unrefTimer === "function") Deno.unrefTimer(sweeper);
  }
}

/** Closes every idle connection (tests; an isolate about to end). */
export function closeIdleConnections(): void {
  for (const list of pools.values()) for (const c of list) close(c);
  pools.clear();
  idleCount = 0;
  if (sweeper !== null) clearInterval(sweeper);
  sweeper = null;
}

// ---- reading an answer ----------------------------------------------------------------------

/** The end of the head (just past its empty line) in `buf[from, to)`, or -1. */
function headEnd(buf: Uint8Array, from: number, to: number): number {
  for (let i = buf.indexOf(10, from); i >= 0 && i < to; i = buf.indexOf(10, i + 1)) {
    if (i + 1 < to && buf[i + 1] === 10) return i + 2;
    if (i + 2 < to && buf[i + 1] === 13 && buf[i + 2] === 10) return i + 3;
  }
  return -1;
}

type Head = {
  status: number;
  minor: number;
  headers: Map<string, string>;
};

function parseHead(text: string): Head {
  const lines = text.split(/\r?\n/);
  const m = /^HTTP\/1\.([01]) ([0-9]{3})(?: |$)/.exec(lines[0] ?? "");
  if (!m) throw new Error("not an HTTP/1.1 answer");
  const headers = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const seen = headers.get(name);
    headers.set(name, seen === undefined ? value : `${seen}, ${value}`);
  }
  return { status: Number(m[2]), minor: Number(m[1]), headers };
}

/** Whether a comma-separated header holds `token` (case-insensitive). */
function hasToken(value: string | undefined, token: string): boolean {
  return value !== undefined && value.split(",").some((t) => t.trim().toLowerCase() === token);
}

/**
 * A chunked body in `buf[from, to)`: its bytes and where the message ends, or null when more
 * must be read. Chunk extensions and trailers are read past.
 */
function chunked(
  buf: Uint8Array,
  from: number,
  to: number,
): { body: Uint8Array; end: number } | null {
  const parts: Uint8Array[] = [];
  let size = 0;
  let at = from;
  for (;;) {
    const lf = buf.indexOf(10, at);
    if (lf < 0 || lf >= to) return null;
    const line = decoder.decode(buf.subarray(at, lf)).replace(/\r$/, "");
    const hex = /^([0-9a-fA-F]{1,8})[ \t]*(?:;.*)?$/.exec(line);
    if (!hex) throw new Error("malformed chunked answer");
    const n = parseInt(hex[1]!, 16);
    at = lf + 1;
    if (n === 0) {
      // Trailers, then the empty line.
      for (;;) {
        const end = buf.indexOf(10, at);
        if (end < 0 || end >= to) return null;
        const empty = end === at || (end === at + 1 && buf[at] === 13);
        at = end + 1;
        if (empty) break;
      }
      const body = new Uint8Array(size);
      let o = 0;
      for (const p of parts) {
        body.set(p, o);
        o += p.length;
      }
      return { body, end: at };
    }
    if (at + n > to) return null;
    parts.push(buf.subarray(at, at + n));
    size += n;
    at += n;
    // The chunk's CRLF.
    if (at < to && buf[at] === 13) at++;
    if (at >= to) return null;
    if (buf[at] !== 10) throw new Error("malformed chunked answer");
    at++;
  }
}

type Answer = { head: Head; body: Uint8Array; reusable: boolean; idleMs: number };

/** Reads one whole answer from `c` (interim 1xx answers skipped). */
async function readAnswer(c: Connection): Promise<Answer> {
  let buf = c.buf;
  let n = 0;
  let start = 0;
  const more = async (): Promise<boolean> => {
    if (n === buf.length) {
      if (buf.length >= MAX_ANSWER_BYTES) throw new Error("answer too large");
      const grown = new Uint8Array(Math.min(MAX_ANSWER_BYTES, buf.length * 2));
      grown.set(buf);
      buf = grown;
    }
    const read = await c.conn.read(buf.subarray(n));
    if (read === null) return false;
    n += read;
    return true;
  };
  for (;;) {
    let end = headEnd(buf, start, n);
    while (end < 0) {
      if (!(await more())) {
        throw new Error(
          n === start
            ? "connection closed before the answer"
            : "connection closed before the whole answer",
        );
      }
      end = headEnd(buf, start, n);
    }
    const head = parseHead(decoder.decode(buf.subarray(start, end)));
    if (head.status >= 100 && head.status < 200 && head.status !== 101) {
      start = end;
      continue;
    }
    const h = head.headers;
    const closing = hasToken(h.get("connection"), "close") ||
      (head.minor === 0 && !hasToken(h.get("connection"), "keep-alive"));
    const hint = /(?:^|[,\s])timeout=([0-9]+)/i.exec(h.get("keep-alive") ?? "");
    const idleMs = hint ? Math.min(IDLE_MS, (Number(hint[1]) - 1) * 1000) : IDLE_MS;
    const done = (body: Uint8Array, at: number, framed: boolean): Answer => {
      // Bytes beyond the answer would belong to nothing: such a connection is not reused.
      if (buf !== c.buf && buf.length <= 65536) c.buf = buf;
      return { head, body, reusable: framed && !closing && at === n && idleMs > 0, idleMs };
    };
    if (head.status === 204 || head.status === 304) return done(new Uint8Array(0), end, true);
    if (h.has("transfer-encoding")) {
      const codings = h.get("transfer-encoding")!.split(",");
      if (codings[codings.length - 1]!.trim().toLowerCase() !== "chunked") {
        throw new Error("unsupported transfer coding");
      }
      for (;;) {
        const body = chunked(buf, end, n);
        if (body) return done(body.body, body.end, true);
        if (!(await more())) throw new Error("connection closed before the whole answer");
      }
    }
    const length = h.get("content-length");
    if (length !== undefined) {
      const values = new Set(length.split(",").map((v) => v.trim()));
      const size = values.size === 1 && /^[0-9]{1,9}$/.test([...values][0]!)
        ? Number([...values][0])
        : NaN;
      if (!Number.isFinite(size)) throw new Error("malformed Content-Length");
      if (size > MAX_ANSWER_BYTES) throw new Error("answer too large");
      while (n - end < size) {
        if (!(await more())) throw new Error("connection closed before the whole answer");
      }
      return done(buf.slice(end, end + size), end + size, true);
    }
    // No framing: the body ends with the connection.
    while (await more());
    return done(buf.slice(end, n), n, false);
  }
}

// ---- the POST -------------------------------------------------------------------------------

export interface KeepAlivePostOptions {
  /** Extra certificate authorities (PEM) for https (tests: a self-signed local server). */
  caCerts?: string[];
}

/** A JSON POST with its own kept-alive pool options; `keepAlivePost` is the default one. */
export function createKeepAlivePost(options: KeepAlivePostOptions = {}): JsonPost {
  const pool = nextPool++;
  return (input, body, timeoutMs) => {
    let url: URL;
    try {
      url = new URL(input);
    } catch (err) {
      return Promise.reject(err);
    }
    const tls = url.protocol === "https:";
    if (!tls && url.protocol !== "http:") {
      return Promise.reject(new TypeError(`Not an http(s) URL: ${url.protocol}`));
    }
    const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const port = url.port ? Number(url.port) : tls ? 443 : 80;
    const origin = `${pool} ${url.protocol}//${url.host}`;
    const payload = encoder.encode(body);
    const head = encoder.encode(
      `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\n\r\n`,
    );
    const request = new Uint8Array(head.length + payload.length);
    request.set(head);
    request.set(payload, head.length);

    return new Promise<Posted>((resolve, reject) => {
      let settled = false;
      let current: Connection | null = null;
      const deadline: Deadline = {
        at: performance.now() + timeoutMs,
        expire() {
          fail(timeoutError(timeoutMs));
        },
      };
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        unwatch(deadline);
        if (current) close(current);
        reject(err);
      };
      watch(deadline);
      (async () => {
        let c = takeIdle(origin);
        if (!c) {
          const conn = tls
            ? await Deno.connectTls({ hostname, port, caCerts: options.caCerts })
            : await Deno.connect({ hostname, port });
          c = { conn, buf: new Uint8Array(16384), idleUntil: 0 };
          if (settled) return close(c);
          // Guarded: a runtime without it sends the same bytes, one write a request either way.
          if (!tls) (conn as Deno.TcpConn).setNoDelay?.(true);
        }
        current = c;
        for (let written = 0; written < request.length;) {
          written += await c.conn.write(written === 0 ? request : request.subarray(written));
        }
        const answer = await readAnswer(c);
        if (settled) return;
        settled = true;
        unwatch(deadline);
        current = null;
        if (answer.reusable) putIdle(origin, c, answer.idleMs);
        else close(c);
        const { head, body } = answer;
        let text: string | undefined;
        resolve({
          status: head.status,
          header: (name) => head.headers.get(name.toLowerCase()) ?? null,
          // Decoded when read: the Discord channel reads no 2xx body (decision 0110).
          get text() {
            return (text ??= decoder.decode(body));
          },
        });
      })().catch(fail);
    });
  };
}

/** The Discord channel's POST: one pool of kept-alive connections for the isolate's life. */
export const keepAlivePost: JsonPost = createKeepAlivePost();

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
