// The hosted streaming worker's entry (decisions 0034, 0054, 0061): a long-running Deno process
// beside the project, one per deployment, reading the Binance and Coinbase streams and feeding the
// project's ingest_scan through the service-role client. Run it with `npm run worker:streams`, or
// on a host with Deno only:
//   deno run --allow-net --allow-env --config supabase/functions/deno.json \
//     supabase/functions/_shared/market/stream-worker-main.ts --venues binance,coinbase
// Settings and what each costs: README, "Deployment", "The stream worker".
import { createClient } from "@supabase/supabase-js";
import type { SocketFactory } from "./stream-reader.ts";
import {
  parseStreamWorkerArgs,
  type RpcClient,
  startStreamWorker,
  STREAM_WORKER_USAGE,
  type StreamWorkerConfig,
} from "./stream-worker.ts";

let config: StreamWorkerConfig | null;
try {
  config = parseStreamWorkerArgs(Deno.args, (name) => Deno.env.get(name));
} catch (err) {
  console.error((err as Error).message);
  Deno.exit(2);
}
if (!config) {
  console.log(STREAM_WORKER_USAGE);
  Deno.exit(0);
}
const { supabaseUrl, serviceKey } = config;
const client = createClient(supabaseUrl, serviceKey, {
  auth: { persistSession: false, autoRefreshToken: false },
});
const worker = startStreamWorker({
  client: client as unknown as RpcClient,
  WebSocket: WebSocket as unknown as SocketFactory,
  urls: config.urls,
  coinbaseApiUrl: config.coinbaseApiUrl,
  wakeDelivery: async () => {
    const res = await fetch(`${supabaseUrl}/functions/v1/deliver-alerts`, {
      method: "POST",
      headers: { Authorization: `Bearer ${serviceKey}`, "Content-Type": "application/json" },
      body: "{}",
    });
    await res.body?.cancel();
  },
  log: (line) => console.log(line),
});
console.log(
  `[stream] worker started for ${Object.keys(config.urls).join(", ")} → ${supabaseUrl}`,
);
const stop = async () => {
  console.log("[stream] stopping");
  await worker.stop();
  Deno.exit(0);
};
Deno.addSignalListener("SIGINT", stop);
Deno.addSignalListener("SIGTERM", stop);
