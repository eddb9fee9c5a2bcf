// A refusal given before the request's body is read (gateway.ts's 413 on a declared
// Content-Length, or a handler that answers without reading) must not break fetch's keep-alive
// pool: the refused upload gets its answer, and the pool's next request gets its own instead of
// EPIPE on a socket closed under it (issue 30). The server is built as stack.ts builds the
// gateway's: @hono/node-server's listener behind closeAfterEarlyAnswer.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAfterEarlyAnswer, declaredTooLarge } from "./body-limit.ts";
import { tooLarge } from "./gateway.ts";

const LIMIT = 1024 * 1024;
let server: http.Server;
let base: string;

beforeAll(async () => {
  const listener = getRequestListener(async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/upload") {
      if (declaredTooLarge(req, LIMIT)) return tooLarge(false, LIMIT);
      return Response.json({ bytes: (await req.arrayBuffer()).byteLength });
    }
    // A handler that refuses without reading the body (an upload without a session).
    if (pathname === "/refuse") return Response.json({ error: "unauthorized" }, { status: 401 });
    return Response.json({ ok: true });
  });
  server = http.createServer((req, res) => {
    if (process.env.EARLY_ANSWER_UNGUARDED !== "1") closeAfterEarlyAnswer(req, res);
    void listener(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const big = () => new Uint8Array(8 * LIMIT).fill(7);

describe("an answer given before the body is read", () => {
  it("413 on the declared length, then the pool's next request on the same origin: both answered", async () => {
    for (let round = 0; round < 5; round++) {
      const refused = await fetch(`${base}/upload`, { method: "POST", body: big() });
      expect(refused.status).toBe(413);
      expect(refused.headers.get("connection")).toBe("close");
      expect(await refused.json()).toEqual({
        error: "payload_too_large",
        message: "The request body is larger than 1 MiB.",
      });
      const next = await fetch(`${base}/ok`);
      expect(next.status).toBe(200);
      expect(await next.json()).toEqual({ ok: true });
    }
  });

  it("a handler's refusal without reading the body closes the connection the same way", async () => {
    for (let round = 0; round < 5; round++) {
      const refused = await fetch(`${base}/refuse`, { method: "POST", body: big() });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("connection")).toBe("close");
      expect(await refused.json()).toEqual({ error: "unauthorized" });
      const next = await fetch(`${base}/ok`, { method: "POST", body: "{}" });
      expect(next.status).toBe(200);
      expect(await next.json()).toEqual({ ok: true });
    }
  });

  it("an upload still being sent when it is refused gets its 413, not EPIPE (10 rounds)", async () => {
    // The client is still writing when the answer comes: closing the socket at once reset the
    // connection under it, and the reset could beat the answer to the client.
    const slowBody = () => {
      let n = 0;
      return new ReadableStream<Uint8Array>({
        async pull(c) {
          await new Promise((r) => setTimeout(r, 20));
          if (n++ >= 20) c.close();
          else c.enqueue(new Uint8Array(256 * 1024));
        },
      });
    };
    for (let round = 0; round < 10; round++) {
      const refused = await fetch(`${base}/upload`, {
        method: "POST",
        body: slowBody(),
        headers: { "content-length": String(20 * 256 * 1024) },
        duplex: "half",
      } as RequestInit);
      expect(refused.status).toBe(413);
      expect(refused.headers.get("connection")).toBe("close");
      const next = await fetch(`${base}/ok`);
      expect(next.status).toBe(200);
    }
  }, 30_000);

  it("an answer after the whole body was read keeps the connection alive", async () => {
    const first = await fetch(`${base}/upload`, { method: "POST", body: new Uint8Array(1000) });
    expect(await first.json()).toEqual({ bytes: 1000 });
    expect(first.headers.get("connection")).toBe("keep-alive");
  });
});
