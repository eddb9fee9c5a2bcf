// The outbox worker as a process of its own (decision 0031): the same drain as the
// deliver-alerts function, repeated, for a host that runs workers outside the edge runtime (and
// for the stack test that kills one mid-batch). `--once` drains once and exits.
//
//   deno run --allow-env --allow-net supabase/functions/deliver-alerts/worker.ts [--once]
//
// Reads what the function reads (SUPABASE_URL, SUPABASE_SERVICE_ROLE_KEY, the channels'
// settings); prints each drain's report as one JSON line.
import { createDeliverApp } from "./app.ts";

const key = Deno.env.get("SUPABASE_SERVICE_ROLE_KEY") ?? Deno.env.get("SUPABASE_SECRET_KEY");
if (!key) {
  console.error("worker: set SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY");
  Deno.exit(1);
}
const app = createDeliverApp();
const once = Deno.args.includes("--once");
let stopping = false;
Deno.addSignalListener("SIGTERM", () => (stopping = true));
while (!stopping) {
  const res = await app.fetch(
    new Request("http://worker/deliver-alerts", {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
    }),
  );
  const report = await res.json() as { claimed?: number };
  console.log(JSON.stringify({ status: res.status, ...report }));
  if (once) break;
  if (!res.ok || !report.claimed) await new Promise((r) => setTimeout(r, 1000));
}
