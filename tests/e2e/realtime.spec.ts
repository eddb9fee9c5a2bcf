// The official realtime-js in Chromium against `npm start`'s Realtime stand-in: supabase-js is
// bundled for the browser (esbuild, as an app bundler would) and driven inside the page.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { createClient } from "@supabase/supabase-js";
import { build } from "esbuild";
import { expect, test } from "@playwright/test";

const API = `http://127.0.0.1:${process.env.E2E_API_PORT ?? 54351}`;
const DEX_HUNTERS = "10000000-0000-4000-8000-000000000002"; // seeded; pro@demo.local is a member

function publishableKey(): string {
  const env = readFileSync(path.join(process.cwd(), ".env.local"), "utf8");
  const m = /^SUPABASE_PUBLISHABLE_KEY=(.+)$/m.exec(env);
  if (!m) throw new Error(".env.local has no SUPABASE_PUBLISHABLE_KEY (npm start writes it)");
  return m[1]!.trim();
}

let bundle = "";
test.beforeAll(async () => {
  const out = await build({
    stdin: {
      contents: `export { createClient } from "@supabase/supabase-js";`,
      resolveDir: process.cwd(),
      loader: "js",
    },
    bundle: true,
    format: "iife",
    globalName: "SB",
    platform: "browser",
    write: false,
  });
  bundle = out.outputFiles[0]!.text;
});

declare global {
  interface Window {
    SB: { createClient: typeof createClient };
    rt: {
      statuses: Record<string, string>;
      errors: Record<string, string>;
      events: { topic: string; event: string; payload: Record<string, unknown> }[];
    };
  }
}

test("realtime-js in Chromium: joins by policy, database broadcasts, binary client broadcasts", async ({
  page,
}) => {
  const pageErrors: string[] = [];
  page.on("pageerror", (err) => pageErrors.push(err.message));
  await page.goto("/");
  await page.addScriptTag({ content: bundle });

  const result = await page.evaluate(
    async ({ api, key, group }) => {
      const supabase = window.SB.createClient(api, key, { auth: { persistSession: false } });
      window.rt = { statuses: {}, errors: {}, events: [] };
      const signIn = await supabase.auth.signInWithPassword({
        email: "pro@demo.local",
        password: "demo-password-1",
      });
      if (signIn.error) throw signIn.error;
      await supabase.realtime.setAuth();

      const channels: Record<string, ReturnType<typeof supabase.channel>> = {};
      const joinTopic = (topic: string, config: Record<string, unknown> = { private: true }) =>
        new Promise<string>((resolve) => {
          const channel = (channels[topic] = supabase
            .channel(topic, { config })
            .on("broadcast", { event: "*" }, (m) =>
              window.rt.events.push({ topic, event: m.event, payload: m.payload }),
            ));
          channel.subscribe((status, err) => {
            if (window.rt.statuses[topic]) return; // only the first answer (CLOSED follows a removal)
            window.rt.statuses[topic] = status;
            if (err) window.rt.errors[topic] = err.message;
            if (status !== "SUBSCRIBED") void supabase.removeChannel(channel);
            resolve(status);
          });
        });

      const joins = {
        pro15: await joinTopic("market:movers:15"),
        pro0: await joinTopic("market:movers:0"),
        group: await joinTopic(`group:${group}`),
        room: await joinTopic("browser-room", {
          private: false,
          broadcast: { self: true, ack: true },
        }),
      };

      const ack = await channels["browser-room"]!.send({
        type: "broadcast",
        event: "ping",
        payload: { n: 42 },
      });

      const sent = await supabase
        .from("messages")
        .insert({ group_id: group, content: "Hello from Chromium" })
        .select("id")
        .single();
      if (sent.error) throw sent.error;
      await supabase
        .from("messages")
        .update({ content: "Edited in Chromium" })
        .eq("id", sent.data.id);
      await supabase.from("messages").delete().eq("id", sent.data.id);
      return { joins, ack, id: sent.data.id as string };
    },
    { api: API, key: publishableKey(), group: DEX_HUNTERS },
  );

  expect(result.joins).toEqual({
    pro15: "SUBSCRIBED",
    pro0: "CHANNEL_ERROR",
    group: "SUBSCRIBED",
    room: "SUBSCRIBED",
  });
  expect(result.ack).toBe("ok");
  await expect
    .poll(() =>
      page.evaluate(() =>
        window.rt.events.map((e) => `${e.topic}:${e.event}`).filter((e) => !e.startsWith("market")),
      ),
    )
    .toEqual([
      "browser-room:ping",
      `group:${DEX_HUNTERS}:INSERT`,
      `group:${DEX_HUNTERS}:UPDATE`,
      `group:${DEX_HUNTERS}:DELETE`,
    ]);
  // The market channel's scans (one broadcast per venue ingest) arrive in between; the
  // assertions below are about this test's own events, in their order.
  const events = await page.evaluate(() =>
    window.rt.events.filter((e) => !e.topic.startsWith("market")),
  );
  expect(events[0]!.payload).toEqual({ n: 42 });
  expect(events[1]!.payload).toMatchObject({
    record: { id: result.id, content: "Hello from Chromium" },
  });
  expect(events[2]!.payload).toMatchObject({ record: { content: "Edited in Chromium" } });
  expect(events[3]!.payload).toMatchObject({ old_record: { id: result.id } });
  expect(await page.evaluate(() => window.rt.errors["market:movers:0"])).toMatch(/^Unauthorized/);
  expect(pageErrors).toEqual([]);
});
