import {
  deepStrictEqual as assertDeepEquals,
  strictEqual as assertEquals,
} from "node:assert/strict";
import http from "node:http";
import { keepAlivePost, postViaFetch } from "./keep-alive-post.ts";

type Seen = { method: string; path: string; type: string | null; body: string };

/** A local server answering like Discord's execute-webhook; counts its connections. */
function serve(answer: (seen: Seen) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const connections = new Set<string>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req, info) => {
      connections.add(`${info.remoteAddr.hostname}:${info.remoteAddr.port}`);
      const entry = {
        method: req.method,
        path: new URL(req.url).pathname + new URL(req.url).search,
        type: req.headers.get("content-type"),
        body: await req.text(),
      };
      seen.push(entry);
      return answer(entry);
    },
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  return { url, seen, connections, close: () => server.shutdown() };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected the POST to fail");
}

Deno.test("keepAlivePost sends the JSON body and reads the status, headers and body", async () => {
  const s = serve(() =>
    Response.json({ id: "42", content: "hi" }, {
      headers: { "X-RateLimit-Remaining": "4", "X-RateLimit-Reset-After": "1.5" },
    })
  );
  try {
    const res = await keepAlivePost(
      `${s.url}/api/webhooks/1/t?wait=true`,
      '{"content":"hi"}',
      5000,
    );
    assertEquals(res.status, 200);
    assertEquals(res.header("x-ratelimit-remaining"), "4");
    assertEquals(res.header("X-RateLimit-Reset-After"), "1.5");
    assertEquals(res.header("retry-after"), null);
    assertDeepEquals(JSON.parse(res.text), { id: "42", content: "hi" });
    assertDeepEquals(s.seen, [{
      method: "POST",
      path: "/api/webhooks/1/t?wait=true",
      type: "application/json",
      body: '{"content":"hi"}',
    }]);
  } finally {
    await s.close();
  }
});

Deno.test("keepAlivePost reads error answers like any other (a 429 with its body)", async () => {
  const s = serve(() =>
    Response.json({ message: "You are being rate limited.", retry_after: 0.5, global: false }, {
      status: 429,
      headers: { "Retry-After": "1" },
    })
  );
  try {
    const res = await keepAlivePost(`${s.url}/x`, "{}", 5000);
    assertEquals(res.status, 429);
    assertEquals(res.header("retry-after"), "1");
    assertEquals(JSON.parse(res.text).retry_after, 0.5);
  } finally {
    await s.close();
  }
});

Deno.test("keepAlivePost reuses its connections: 40 posts, at most 8 at a time, over at most 8", async () => {
  const s = serve(() => new Response(null, { status: 204 }));
  try {
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => keepAlivePost(`${s.url}/p${round}-${i}`, "{}", 5000)),
      );
      assertDeepEquals(answers.map((a) => a.status), Array(8).fill(204));
    }
    assertEquals(s.seen.length, 40);
    assertEquals(s.connections.size <= 8, true, `${s.connections.size} connections`);
  } finally {
    await s.close();
  }
});

Deno.test("keepAlivePost keeps more than 256 connections to a host idle: 3 rounds of 300 posts open 300", async () => {
  // Overlapping invocations each send with 256 senders (decision 0112): with Node's default of
  // 256 idle connections per host, every round beyond the first opened 44 new ones.
  const s = serve(() => new Response(null, { status: 204 }));
  try {
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) => keepAlivePost(`${s.url}/r${round}-${i}`, "{}", 5000)),
      );
      assertEquals(answers.filter((a) => a.status === 204).length, 300);
    }
    assertEquals(s.seen.length, 900);
    assertEquals(s.connections.size, 300);
  } finally {
    await s.close();
  }
});

Deno.test("keepAlivePost closes an idle connection a second before the server's Keep-Alive time-out", async () => {
  // A Node server announces `Keep-Alive: timeout=2` and closes an idle connection after 2 s.
  const ports = new Set<number>();
  const server = http.createServer((req, res) => {
    ports.add(req.socket.remotePort ?? 0);
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  server.keepAliveTimeout = 2000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  try {
    assertEquals((await keepAlivePost(`http://127.0.0.1:${port}/a`, "{}", 5000)).status, 204);
    assertEquals((await keepAlivePost(`http://127.0.0.1:${port}/b`, "{}", 5000)).status, 204);
    assertEquals(ports.size, 1, "a post right after another reuses its connection");
    // 1.5 s idle: past the pool's limit (2 s - 1 s), before the server's 2 s.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assertEquals((await keepAlivePost(`http://127.0.0.1:${port}/c`, "{}", 5000)).status, 204);
    assertEquals(ports.size, 2, "after the idle limit a post opens a new connection");
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

Deno.test("keepAlivePost gives up after its time-out with a TimeoutError (the post may have arrived)", async () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const s = serve(async () => {
    await held;
    return new Response("late");
  });
  try {
    const started = performance.now();
    const err = await rejection(keepAlivePost(`${s.url}/slow`, "{}", 200));
    assertEquals(err.name, "TimeoutError");
    assertEquals(performance.now() - started < 5000, true);
    assertEquals(s.seen.length, 1);
  } finally {
    release();
    await s.close();
  }
});

Deno.test("keepAlivePost: each post in flight gives up at its own time-out, not with the others", async () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const s = serve(async (seen) => {
    if (seen.path === "/slow") await held;
    return new Response("{}", { headers: { "content-type": "application/json" } });
  });
  try {
    const events: string[] = [];
    const short = keepAlivePost(`${s.url}/slow`, "{}", 150).catch((e: Error) => {
      events.push(`short ${e.name}`);
    });
    const long = keepAlivePost(`${s.url}/slow`, "{}", 60_000).then(
      (r) => events.push(`long answered ${r.status}`),
      (e: Error) => events.push(`long ${e.name}`),
    );
    // One that answers at once is not given up later by the shared clock of the time-outs.
    const quick = await keepAlivePost(`${s.url}/quick`, "{}", 150);
    assertEquals(quick.status, 200);
    await short;
    assertDeepEquals(events, ["short TimeoutError"]);
    // The long one was still waiting when the short one gave up; answered now, it is read.
    release();
    await long;
    assertDeepEquals(events, ["short TimeoutError", "long answered 200"]);
  } finally {
    release();
    await s.close();
  }
});

Deno.test("keepAlivePost fails at once, not as a time-out, when nothing listens", async () => {
  const s = serve(() => new Response(null));
  const url = s.url;
  await s.close();
  const err = await rejection(keepAlivePost(`${url}/gone`, "{}", 5000));
  assertEquals(err.name === "TimeoutError", false);
  assertEquals(
    /ECONNREFUSED|refused/i.test(String((err as { code?: string }).code ?? err.message)),
    true,
  );
});

Deno.test("keepAlivePost refuses a URL that is not http(s)", async () => {
  const err = await rejection(keepAlivePost("ftp://example.com/x", "{}", 1000));
  assertEquals(err instanceof TypeError, true);
});

Deno.test("postViaFetch gives the same shape through a fetch", async () => {
  const calls: RequestInit[] = [];
  const post = postViaFetch((_url, init) => {
    calls.push(init!);
    return Promise.resolve(
      new Response('{"ok":true}', { status: 201, headers: { "X-A": "1" } }),
    );
  });
  const res = await post("https://discord.com/api/webhooks/1/t", '{"a":1}', 1000);
  assertEquals(res.status, 201);
  assertEquals(res.header("x-a"), "1");
  assertEquals(res.text, '{"ok":true}');
  assertEquals(calls[0]!.method, "POST");
  assertEquals(calls[0]!.body, '{"a":1}');
  assertEquals(calls[0]!.signal instanceof AbortSignal, true);
});
