// A client of the /api layer for the contract tests: calls through the gateway with a bearer
// token, a cookie jar (the session POST /api/auth/login sets), or nothing; checks answers
// against the layer's own zod schemas.
import { expect } from "vitest";
import type { z } from "zod";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { type DemoEmail, demoUser, stackInfo } from "./clients.ts";

export type Auth = { bearer: string } | { jar: CookieJar } | null;

/** Cookies a browser would keep for the stack's origin (name → value; Max-Age=0 deletes). */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  readonly lastSetCookies: string[] = [];

  take(res: Response): void {
    this.lastSetCookies.length = 0;
    for (const line of res.headers.getSetCookie()) {
      this.lastSetCookies.push(line);
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  auth?: Auth;
  headers?: Record<string, string>;
  /** Prefix: /api (default) or /functions/v1/api. */
  base?: string;
  /** The stack's origin (default: the suite's shared stack); for a test's own stack process. */
  url?: string;
}

export async function call(path: string, opts: CallOptions = {}): Promise<Response> {
  const url = opts.url ?? stackInfo().url;
  const headers: Record<string, string> = { ...opts.headers };
  const auth = opts.auth ?? null;
  if (auth && "bearer" in auth) headers.authorization = `Bearer ${auth.bearer}`;
  if (auth && "jar" in auth) {
    headers.cookie = auth.jar.header();
    // What a browser on the app's own origin sends with a write.
    headers.origin ??= url;
  }
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
  }
  const res = await fetch(`${url}${opts.base ?? "/api"}${path}`, {
    method: opts.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
  if (auth && "jar" in auth) auth.jar.take(res);
  return res;
}

/** The answer's JSON, after checking its status (and its shape when a schema is given). */
export async function expectJson<T extends z.ZodType>(
  res: Response,
  status: number,
  schema?: T,
): Promise<z.output<T>> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get("content-type") ?? "").toMatch(/application\/json/);
  const body = JSON.parse(text) as unknown;
  if (schema) {
    const parsed = schema.safeParse(body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues ?? [])).toBe(true);
  }
  return body as z.output<T>;
}

/** The error body the specification's screens read: `error` is the message to show. */
export async function expectError(res: Response, status: number, code: string) {
  const body = (await expectJson(res, status)) as { error: string; code: string; message: string };
  expect(body.code).toBe(code);
  expect(body.error).toBe(body.message);
  expect(body.error.length).toBeGreaterThan(0);
  return body;
}

const tokens = new Map<string, string>();
export async function bearerOf(email: DemoEmail): Promise<{ bearer: string }> {
  let token = tokens.get(email);
  if (!token) {
    const { client } = await demoUser(email);
    token = (await client.auth.getSession()).data.session!.access_token;
    tokens.set(email, token);
  }
  return { bearer: token };
}

/** Logs in through POST /api/auth/login; the jar holds the session cookie afterwards. */
export async function cookieLogin(email: string, password = DEMO_PASSWORD): Promise<CookieJar> {
  const jar = new CookieJar();
  const res = await call("/auth/login", { body: { email, password }, auth: { jar } });
  expect(res.status, await res.clone().text()).toBe(200);
  return jar;
}

/** A fresh account registered and logged in through the api (cookie) and its bearer token. */
export async function freshUser(prefix = "api") {
  const email = `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.test`;
  const password = "correct-horse-1";
  const reg = await call("/auth/register", { body: { email, password } });
  expect(reg.status, await reg.clone().text()).toBe(201);
  const jar = await cookieLogin(email, password);
  const me = (await (await call("/auth/me", { auth: { jar } })).json()) as { id: string };
  return { email, password, jar, id: me.id };
}

export interface SseEvent {
  id?: string;
  event: string;
  data: unknown;
  retry?: number;
}

/** An open event stream: `next(pred)` waits for the next matching event. */
export interface OpenStream {
  res: Response;
  events: SseEvent[];
  next(pred: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  lastId(): string | undefined;
  close(): void;
}

export async function openStream(path: string, opts: CallOptions = {}): Promise<OpenStream> {
  const ac = new AbortController();
  const url = opts.url ?? stackInfo().url;
  const headers: Record<string, string> = { accept: "text/event-stream", ...opts.headers };
  const auth = opts.auth ?? null;
  if (auth && "bearer" in auth) headers.authorization = `Bearer ${auth.bearer}`;
  if (auth && "jar" in auth) headers.cookie = auth.jar.header();
  const res = await fetch(`${url}${opts.base ?? "/api"}${path}`, { headers, signal: ac.signal });
  const events: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  let consumed = 0;
  if (res.ok && res.body) {
    void (async () => {
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buf += value;
          let cut: number;
          while ((cut = buf.indexOf("\n\n")) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const e: SseEvent = { event: "message", data: undefined };
            const data: string[] = [];
            for (const line of block.split("\n")) {
              if (line.startsWith(":")) continue;
              const i = line.indexOf(":");
              const field = i < 0 ? line : line.slice(0, i);
              const val = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
              if (field === "data") data.push(val);
              else if (field === "event") e.event = val;
              else if (field === "id") e.id = val;
              else if (field === "retry") e.retry = Number(val);
            }
            if (data.length === 0 && e.retry === undefined) continue;
            if (data.length > 0) e.data = JSON.parse(data.join("\n"));
            events.push(e);
            for (const w of waiters.splice(0)) w();
          }
        }
      } catch {
        // Aborted.
      }
      events.push({ event: "__end__", data: null });
      for (const w of waiters.splice(0)) w();
    })();
  }
  return {
    res,
    events,
    async next(pred, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        for (; consumed < events.length; consumed++) {
          const e = events[consumed]!;
          if (pred(e)) {
            consumed++;
            return e;
          }
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching event; seen ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    lastId() {
      for (let i = events.length - 1; i >= 0; i--)
        if (events[i]!.id !== undefined) return events[i]!.id;
      return undefined;
    },
    close() {
      ac.abort();
    },
  };
}
