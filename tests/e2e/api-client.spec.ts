// A client of the original product written only from specification section 7, in Chromium:
// plain fetch with credentials (the cookie session) and EventSource, on the API's own origin.
// It logs in by cookie, reads movers, posts in a group and receives the message on the chat
// stream, opens a ticket and receives the admin's reply on the support stream.
import { expect, type Page, test } from "@playwright/test";

const API = `http://127.0.0.1:${process.env.E2E_API_PORT ?? 54351}`;
const PASSWORD = "demo-password-1";

/** The section 7 calls, as the original client makes them: JSON, credentials included. */
async function api(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        credentials: "include",
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: res.status, json: json as Record<string, unknown> & unknown[] };
    },
    { method, path, body },
  );
}

/** Opens an EventSource in the page; its messages collect in window.__streams[name]. */
async function openStream(page: Page, name: string, url: string) {
  await page.evaluate(
    ({ name, url }) => {
      const w = window as unknown as {
        __streams: Record<string, unknown[]>;
        __es: Record<string, EventSource>;
      };
      w.__streams ??= {};
      w.__es ??= {};
      w.__streams[name] = [];
      const es = new EventSource(url, { withCredentials: true });
      es.onmessage = (e) => w.__streams[name]!.push(JSON.parse(e.data));
      es.onerror = () => es.close(); // as the specification's client: no reconnect on error
      w.__es[name] = es;
    },
    { name, url },
  );
}

async function received(page: Page, name: string, pred: string) {
  await expect
    .poll(
      () =>
        page.evaluate(
          ({ name, pred }) => {
            const w = window as unknown as { __streams: Record<string, Record<string, unknown>[]> };
            const test = new Function("m", `return ${pred}`) as (m: unknown) => boolean;
            return w.__streams[name]!.some(test);
          },
          { name, pred },
        ),
      { timeout: 20_000 },
    )
    .toBe(true);
}

async function login(page: Page, email: string) {
  await page.goto(`${API}/api/docs`);
  const res = await api(page, "POST", "/api/auth/login", { email, password: PASSWORD });
  expect(res.status).toBe(200);
  const me = await api(page, "GET", "/api/auth/me");
  expect(me.status).toBe(200);
  expect(me.json.email).toBe(email);
}

test("a section-7 client: cookie login, movers, group chat stream, ticket stream", async ({
  browser,
}) => {
  const userContext = await browser.newContext();
  const adminContext = await browser.newContext();
  const page = await userContext.newPage();
  const admin = await adminContext.newPage();
  await login(page, "pro@demo.local");
  await login(admin, "admin@demo.local");

  // The session is an httpOnly cookie: scripts cannot read it, the browser sends it.
  expect(await page.evaluate(() => document.cookie)).not.toContain("auth-token");
  const cookies = await userContext.cookies(API);
  expect(cookies.find((c) => c.name.startsWith("sb-"))).toMatchObject({
    httpOnly: true,
    sameSite: "Lax",
  });

  // Movers, and the user as the dashboard reads them.
  const user = await api(page, "GET", "/api/user/me");
  expect(user.json).toMatchObject({ plan: "pro", subscriptionActive: true });
  const movers = await api(page, "GET", "/api/gainers/recent");
  expect(movers.status).toBe(200);
  expect(Array.isArray(movers.json)).toBe(true);
  for (const g of movers.json as Record<string, unknown>[]) {
    expect(g).toEqual(
      expect.objectContaining({
        symbol: expect.any(String),
        pct: expect.any(Number),
        price: expect.any(Number),
      }),
    );
  }

  // Groups: create one, open its stream, post, receive.
  const created = await api(page, "POST", "/api/groups", {
    name: `E2E api ${Date.now()}`,
    description: "",
    isPublic: true,
  });
  expect(created.status).toBe(201);
  const groups = await api(page, "GET", "/api/groups");
  const groupId = (groups.json.userGroups as { id: string; name: string }[]).find(
    (g) => g.id === created.json.id,
  )!.id;
  await openStream(page, "chat", `/api/chat/stream?groupId=${groupId}`);
  await received(page, "chat", `m.type === "connected"`);
  const sent = await api(page, "POST", "/api/chat/messages", {
    groupId,
    content: "hello over the stream",
    attachmentType: "none",
    attachmentUrl: undefined,
  });
  expect(sent.status).toBe(201);
  expect(sent.json.sender).toMatchObject({ plan: "pro" });
  await received(
    page,
    "chat",
    `m.id === ${JSON.stringify(sent.json.id)} && m.content === "hello over the stream"`,
  );
  const list = await api(page, "GET", `/api/chat/messages?groupId=${groupId}`);
  expect((list.json as { id: string }[]).map((m) => m.id)).toContain(sent.json.id);

  // Support: open a ticket, listen, the admin replies, the reply arrives.
  const ticket = await api(page, "POST", "/api/support/tickets", {
    subject: "E2E stream ticket",
    content: "Please answer me on the stream.",
    priority: "medium",
  });
  expect(ticket.status).toBe(201);
  const ticketId = ticket.json.id as string;
  await openStream(page, "support", `/api/support/stream?ticketId=${ticketId}`);
  await received(page, "support", `m.type === "connected"`);
  const reply = await api(admin, "POST", `/api/support/tickets/${ticketId}/messages`, {
    content: "Here is your answer.",
  });
  expect(reply.status).toBe(201);
  await received(
    page,
    "support",
    `m.content === "Here is your answer." && m.isAdminReply === true`,
  );
  const thread = await api(page, "GET", `/api/support/tickets/${ticketId}/messages`);
  expect((thread.json as { isAdminReply: boolean }[]).some((m) => m.isAdminReply)).toBe(true);

  // Logout clears the cookie; the next call is a 401 whose error the screens show.
  await api(page, "POST", "/api/auth/logout");
  const after = await api(page, "GET", "/api/auth/me");
  expect(after.status).toBe(401);
  expect(typeof after.json.error).toBe("string");
  await userContext.close();
  await adminContext.close();
});
