// What one /api/sse connect costs the database (issue 30). On a loaded PGlite, each connect's
// own requests (the session check, the caller's profile, movers_feed) held the one connection
// ahead of the Realtime join's check, and the hub gave up after 30 s. Here a stack of its own
// (functions included) counts every Auth and PostgREST request that carries the caller's token,
// and the Realtime stand-in counts its join checks:
// - a connect makes ONE request: `movers_stream_open` (the session, the caller's entitlement and
//   the window's first page together), no /auth/v1/user and no profile read;
// - the window's shared channel is joined (and so checked) once per api process: a second
//   connect to the same window runs no join check;
// - the stream's rules hold: a refused window is still 403 window_not_allowed, a signed-out
//   token 401, and each refusal also costs one request;
// - an open stream re-checks its caller (here every 2 s, API_STREAM_REAUTH_MS) with one request,
//   `session_caller`, and a sign-out ends the stream at the next re-check.
// PGlite and PostgreSQL 15 (STACK_DB).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { type OpenStream, openStream } from "../support/api.ts";
import { freshDatabase } from "../support/postgres.ts";
import { startStackProcess, type StackProcess } from "../support/stack-process.ts";

const REAUTH_MS = 2_000;
const tmp = mkdtempSync(path.join(tmpdir(), "api-sse-trips-"));
let stack: StackProcess;
const streams: OpenStream[] = [];

beforeAll(async () => {
  const databaseUrl = await freshDatabase(inject("stack").postgresUrl, "api_sse_round_trips");
  mkdirSync(path.join(tmp, "data"), { recursive: true });
  stack = await startStackProcess(tmp, databaseUrl, {
    functions: true,
    env: { API_STREAM_REAUTH_MS: String(REAUTH_MS) },
  });
}, 240_000);
afterAll(async () => {
  for (const s of streams) s.close();
  await stack?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

async function signIn(email: string): Promise<{ token: string }> {
  const res = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: stack.publishableKey, "content-type": "application/json" },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return { token: ((await res.json()) as { access_token: string }).access_token };
}

async function connect(token: string, query = ""): Promise<OpenStream> {
  const stream = await openStream(`/sse${query}`, { url: stack.url, auth: { bearer: token } });
  streams.push(stream);
  return stream;
}

const checks = async () => (await stack.realtimeStats()).authorizations.checks;

const RECHECK = "POST /rest/v1/rpc/session_caller";
/** The requests made with `token` since the last call, without the open streams' re-checks. */
async function connectRequests(token: string): Promise<Record<string, number>> {
  const { [RECHECK]: _rechecks, ...rest } = await stack.requestsWith(token);
  return rest;
}

/** The requests one connect made with `token`, once its answer (or connected event) is in. */
const ONE_CONNECT = { "POST /rest/v1/rpc/movers_stream_open": 1 };

it("a connect makes one database request, and the window's channel is checked once per process", async () => {
  const { token } = await signIn("pro@demo.local");
  await stack.requestsWith(token); // the sign-in's own requests are not the stream's

  const checksBefore = await checks();
  const first = await connect(token, "?window=30");
  expect(first.res.status).toBe(200);
  await first.next((e) => e.event === "connected", 60_000);
  expect(await connectRequests(token)).toEqual(ONE_CONNECT);
  // The first stream of the window joins its shared channel: one check at most (none when a
  // stream of this process had already joined it).
  const checksAfterFirst = await checks();
  expect(checksAfterFirst - checksBefore).toBeLessThanOrEqual(1);

  const second = await connect(token, "?window=30");
  expect(second.res.status).toBe(200);
  const connected = await second.next((e) => e.event === "connected", 60_000);
  expect(connected.data).toEqual({ window: 30 });
  expect(await connectRequests(token)).toEqual(ONE_CONNECT);
  expect(await checks()).toBe(checksAfterFirst);
}, 120_000);

it("a refused window and a signed-out token are refused as before, each with one request", async () => {
  const basic = await signIn("basic@demo.local");
  await stack.requestsWith(basic.token);
  const refused = await fetch(`${stack.url}/api/sse?window=5`, {
    headers: { authorization: `Bearer ${basic.token}` },
  });
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { code: string }).code).toBe("window_not_allowed");
  expect(await connectRequests(basic.token)).toEqual(ONE_CONNECT);

  const pro = await signIn("pro@demo.local");
  const out = await fetch(`${stack.url}/auth/v1/logout`, {
    method: "POST",
    headers: { apikey: stack.publishableKey, authorization: `Bearer ${pro.token}` },
  });
  expect(out.status).toBe(204);
  await stack.requestsWith(pro.token);
  const gone = await fetch(`${stack.url}/api/sse`, {
    headers: { authorization: `Bearer ${pro.token}` },
  });
  expect(gone.status).toBe(401);
  expect(((await gone.json()) as { code: string }).code).toBe("unauthorized");
  expect(await connectRequests(pro.token)).toEqual(ONE_CONNECT);
}, 120_000);

it("an open stream re-checks its caller with one request each time, and a sign-out ends it", async () => {
  const { token } = await signIn("enterprise@demo.local");
  const stream = await connect(token, "?window=30");
  expect(stream.res.status).toBe(200);
  await stream.next((e) => e.event === "connected", 60_000);
  await stack.requestsWith(token); // the connect's own request
  const seen: Record<string, number> = {};
  await expect
    .poll(
      async () => {
        for (const [key, n] of Object.entries(await stack.requestsWith(token))) {
          seen[key] = (seen[key] ?? 0) + n;
        }
        return seen[RECHECK] ?? 0;
      },
      { timeout: 60_000, interval: 500 },
    )
    .toBeGreaterThanOrEqual(2);
  // Nothing but the one-request re-checks: no Auth /user, no profile read.
  expect(Object.keys(seen)).toEqual([RECHECK]);

  const out = await fetch(`${stack.url}/auth/v1/logout`, {
    method: "POST",
    headers: { apikey: stack.publishableKey, authorization: `Bearer ${token}` },
  });
  expect(out.status).toBe(204);
  const ended = await stream.next((e) => e.event === "error", 60_000);
  expect(ended.data).toMatchObject({ error: expect.any(String) });
}, 120_000);
