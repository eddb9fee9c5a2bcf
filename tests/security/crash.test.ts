// Item 1 of the hardening issue: one request took the whole stack down (`GET /%` on the SPA
// server threw, and API, database and Realtime died with the process). Every server of the stack
// answers a bad request with 400 and keeps serving. The stack runs in a child process here, as
// `npm start` runs it (SPA server and API in one process), so a crash is visible.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStackProcess, type StackProcess } from "../support/stack-process.ts";
import { rawRequest } from "./raw-http.ts";

let stack: StackProcess;
const tmp = mkdtempSync(path.join(tmpdir(), "security-crash-"));

beforeAll(async () => {
  stack = await startStackProcess(tmp, undefined, { web: true });
});
afterAll(async () => {
  await stack?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** The API still answers an ordinary call. */
async function apiAnswers() {
  const res = await fetch(`${stack.url}/rest/v1/instruments?select=symbol&limit=1`, {
    headers: { apikey: stack.publishableKey },
  });
  return res.status;
}

const upgrade = (target: string) =>
  `GET ${target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

describe("one bad request cannot stop the stack", () => {
  it("the SPA server answers a malformed percent-escape (GET /%) with 400 and the API lives on", async () => {
    for (const target of ["/%", "/%E0%A4%A", "/assets/%zz.js", "/a%00b"]) {
      const res = await fetch(`${stack.webUrl}${target}`);
      expect(res.status, target).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe("bad_request");
    }
    const raw = await rawRequest(stack.webUrl!, "GET http://[bad/ HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(raw.status).toBe(400);
    expect(stack.alive()).toBe(true);
    expect(await apiAnswers()).toBe(200);
  });

  it("the API gateway answers malformed paths with 400 on every route", async () => {
    for (const target of [
      "/%",
      "/rest/v1/%zz",
      "/auth/v1/%",
      "/storage/v1/object/public/avatars/%",
      "/functions/v1/%",
      "/api/%",
      "/realtime/v1/%",
      "/stripe/checkout/%zz",
      "/v1/customers/%zz",
    ]) {
      const res = await fetch(`${stack.url}${target}`, {
        headers: { apikey: stack.publishableKey },
      });
      expect(res.status, target).toBe(400);
    }
    expect((await rawRequest(stack.url, "NOT-HTTP\r\n\r\n")).status).toBe(400);
    expect(
      (await rawRequest(stack.url, "GET http://[bad/ HTTP/1.1\r\nHost: x\r\n\r\n")).status,
    ).toBe(400);
    expect(stack.alive()).toBe(true);
    expect(await apiAnswers()).toBe(200);
  });

  it("Realtime's upgrade handler answers bad upgrade requests with 400", async () => {
    for (const target of [
      "http://[bad/realtime/v1/websocket",
      "/realtime/v1/websocket%",
      "/realtime/v1/websocket?vsn=%zz&apikey=%zz",
    ]) {
      const raw = await rawRequest(stack.url, upgrade(target));
      expect(raw.status, target).toBe(400);
    }
    expect(stack.alive()).toBe(true);
    expect(await apiAnswers()).toBe(200);
  });
});
