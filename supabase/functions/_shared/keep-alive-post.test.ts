import {
  deepStrictEqual as assertDeepEquals,
  strictEqual as assertEquals,
} from "node:assert/strict";
import http from "node:http";
import {
  closeIdleConnections,
  createKeepAlivePost,
  keepAlivePost,
  MAX_ANSWER_BYTES,
  postViaFetch,
} from "./keep-alive-post.ts";

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
  return {
    url,
    seen,
    connections,
    close: async () => {
      closeIdleConnections();
      await server.shutdown();
    },
  };
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
    closeIdleConnections();
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

/**
 * A TCP server that answers each request on a connection with scripted bytes, written piece by
 * piece (each piece its own write, a few milliseconds apart, so the client reads them apart).
 * `close` after the pieces closes the connection.
 */
function rawServer(
  answer: (request: string, index: number) => { pieces: (string | Uint8Array)[]; close?: boolean },
) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const requests: string[] = [];
  let connections = 0;
  const open = new Set<Deno.Conn>();
  const handle = async (conn: Deno.Conn) => {
    open.add(conn);
    const buf = new Uint8Array(65536);
    let text = "";
    try {
      for (;;) {
        const n = await conn.read(buf);
        if (n === null) return;
        // One character a byte (latin-1), so that lengths are counted in bytes.
        text += String.fromCharCode(...buf.subarray(0, n));
        const headEnd = text.indexOf("\r\n\r\n");
        if (headEnd < 0) continue;
        const length = Number(/content-length: *([0-9]+)/i.exec(text.slice(0, headEnd))?.[1] ?? 0);
        if (text.length < headEnd + 4 + length) continue;
        const request = text.slice(0, headEnd + 4 + length);
        text = text.slice(request.length);
        requests.push(new TextDecoder().decode(Uint8Array.from(request, (c) => c.charCodeAt(0))));
        const { pieces, close } = answer(request, requests.length - 1);
        for (const piece of pieces) {
          await conn.write(typeof piece === "string" ? new TextEncoder().encode(piece) : piece);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        if (close) return;
      }
    } catch {
      // The client went away.
    } finally {
      open.delete(conn);
      try {
        conn.close();
      } catch {
        // Closed already.
      }
    }
  };
  const accepting = (async () => {
    for await (const conn of listener) {
      connections++;
      handle(conn);
    }
  })().catch(() => {});
  const { port } = listener.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    async close() {
      closeIdleConnections();
      listener.close();
      for (const conn of open) conn.close();
      await accepting;
    },
  };
}

Deno.test("keepAlivePost writes one HTTP/1.1 request: method, path, Host, JSON type and length", async () => {
  const s = rawServer(() => ({ pieces: ["HTTP/1.1 204 No Content\r\n\r\n"] }));
  try {
    const body = '{"content":"Prix: 1 €"}';
    assertEquals(
      (await keepAlivePost(`${s.url}/api/webhooks/1/t?wait=true`, body, 5000)).status,
      204,
    );
    const [head, sent] = s.requests[0]!.split("\r\n\r\n");
    const lines = head!.split("\r\n");
    assertEquals(lines[0], "POST /api/webhooks/1/t?wait=true HTTP/1.1");
    const headers = new Map(
      lines.slice(1).map((
        l,
      ) => [l.split(":")[0]!.toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
    );
    assertEquals(headers.get("host"), s.url.slice("http://".length));
    assertEquals(headers.get("content-type"), "application/json");
    // The length in bytes, not characters (the euro sign is three bytes).
    assertEquals(headers.get("content-length"), String(new TextEncoder().encode(body).length));
    assertEquals(sent, body);
  } finally {
    await s.close();
  }
});

Deno.test("keepAlivePost reads a chunked answer (extensions, trailers, split reads) and keeps the connection", async () => {
  const s = rawServer(() => ({
    pieces: [
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
      "X-RateLimit-Remaining: 0\r\nX-RateLimit-Remaining: 1\r\n\r\n",
      "7;name=value\r\n",
      '{"id":"\r\n',
      '5\r\n42"}\n\r\n',
      "0\r\nX-Trailer: yes\r\n",
      "\r\n",
    ],
  }));
  try {
    const first = await keepAlivePost(`${s.url}/a`, "{}", 5000);
    assertEquals(first.status, 200);
    assertEquals(first.text, '{"id":"42"}\n');
    // Repeated headers read as one list, as fetch's Headers do.
    assertEquals(first.header("X-RateLimit-Remaining"), "0, 1");
    const second = await keepAlivePost(`${s.url}/b`, "{}", 5000);
    assertEquals(second.text, '{"id":"42"}\n');
    assertEquals(s.connections(), 1, "a whole chunked answer leaves the connection reusable");
  } finally {
    await s.close();
  }
});

Deno.test("keepAlivePost reads an answer that arrives a byte at a time", async () => {
  const answer = "HTTP/1.1 429 Too Many Requests\r\nContent-Length: 17\r\nRetry-After: 2\r\n\r\n" +
    '{"retry_after":2}';
  const s = rawServer(() => ({ pieces: [...answer] }));
  try {
    const res = await keepAlivePost(`${s.url}/slow-bytes`, "{}", 5000);
    assertEquals(res.status, 429);
    assertEquals(res.header("retry-after"), "2");
    assertEquals(res.text, '{"retry_after":2}');
  } finally {
    await s.close();
  }
});

Deno.test("keepAlivePost skips interim 1xx answers and reads the final one", async () => {
  const s = rawServer(() => ({
    pieces: [
      "HTTP/1.1 100 Continue\r\n\r\n",
      "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
    ],
  }));
  try {
    const res = await keepAlivePost(`${s.url}/a`, "{}", 5000);
    assertEquals(res.status, 200);
    assertEquals(res.text, "{}");
    assertEquals(res.header("link"), null);
  } finally {
    await s.close();
  }
});

Deno.test("keepAlivePost opens a new connection after an answer that closes its own", async () => {
  const answers = [
    // Framed by the connection's end.
    {
      pieces: [
        "HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/html\r\n\r\n<h1>oops</h1>",
      ],
      close: true,
    },
    // Says so.
    {
      pieces: ["HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}"],
      close: true,
    },
    // HTTP/1.0 without keep-alive.
    { pieces: ["HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}"], close: true },
    { pieces: ["HTTP/1.1 204 No Content\r\n\r\n"] },
  ];
  let next = 0;
  const s = rawServer(() => answers[next++]!);
  try {
    const oops = await keepAlivePost(`${s.url}/1`, "{}", 5000);
    assertDeepEquals([oops.status, oops.text], [500, "<h1>oops</h1>"]);
    assertEquals((await keepAlivePost(`${s.url}/2`, "{}", 5000)).text, "{}");
    assertEquals((await keepAlivePost(`${s.url}/3`, "{}", 5000)).text, "{}");
    assertEquals((await keepAlivePost(`${s.url}/4`, "{}", 5000)).status, 204);
    assertEquals(s.connections(), 4);
  } finally {
    await s.close();
  }
});

Deno.test("keepAlivePost: a connection closed before the answer is a failure, not a time-out", async () => {
  const s = rawServer(() => ({ pieces: [], close: true }));
  try {
    const err = await rejection(keepAlivePost(`${s.url}/a`, "{}", 5000));
    assertEquals(err.name === "TimeoutError", false);
    assertEquals(err.message, "connection closed before the answer");
  } finally {
    await s.close();
  }
});

Deno.test("keepAlivePost: a cut answer, a malformed one and one too large fail at once", async () => {
  const answers = [
    { pieces: ["HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}"], close: true },
    { pieces: ["SSH-2.0-OpenSSH\r\n\r\n"], close: true },
    { pieces: [`HTTP/1.1 200 OK\r\nContent-Length: ${MAX_ANSWER_BYTES + 1}\r\n\r\n`], close: true },
    { pieces: ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"], close: true },
  ];
  let next = 0;
  const s = rawServer(() => answers[next++]!);
  try {
    const messages: string[] = [];
    for (let i = 0; i < answers.length; i++) {
      messages.push((await rejection(keepAlivePost(`${s.url}/${i}`, "{}", 5000))).message);
    }
    assertDeepEquals(messages, [
      "connection closed before the whole answer",
      "not an HTTP/1.1 answer",
      "answer too large",
      "malformed chunked answer",
    ]);
  } finally {
    await s.close();
  }
});

const TLS = new URL("./testing/tls/", import.meta.url);

Deno.test("keepAlivePost posts over https, verifies the certificate, and keeps the connection", async () => {
  const read = (name: string) => Deno.readTextFileSync(new URL(name, TLS));
  const seen: string[] = [];
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: read("localhost.pem"),
    key: read("localhost.key"),
    onListen: () => {},
  }, async (req, info) => {
    seen.push(
      `${info.remoteAddr.port} ${req.method} ${new URL(req.url).pathname} ${await req.text()}`,
    );
    return Response.json({ id: "1" });
  });
  const base = `https://localhost:${server.addr.port}`;
  try {
    const post = createKeepAlivePost({ caCerts: [read("ca.pem")] });
    const first = await post(`${base}/api/webhooks/1/t`, '{"a":1}', 5000);
    const second = await post(`${base}/api/webhooks/1/t`, '{"a":2}', 5000);
    assertDeepEquals([first.status, JSON.parse(first.text)], [200, { id: "1" }]);
    assertEquals(second.status, 200);
    assertEquals(seen.length, 2);
    assertEquals(seen[0]!.split(" ").slice(1).join(" "), 'POST /api/webhooks/1/t {"a":1}');
    assertEquals(seen[0]!.split(" ")[0], seen[1]!.split(" ")[0], "one connection for both");
    // Without the test authority the same server is not trusted: a failure, never a time-out,
    // and the other pool's trusted connection is not lent to it.
    const err = await rejection(keepAlivePost(`${base}/api/webhooks/1/t`, "{}", 5000));
    assertEquals(err.name === "TimeoutError", false);
    assertEquals(/certificate|UnknownIssuer/i.test(err.message), true, err.message);
    assertEquals(seen.length, 2);
  } finally {
    closeIdleConnections();
    await server.shutdown();
  }
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
