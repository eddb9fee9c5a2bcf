// A process that starts the Deno functions host and prints both pids, for tests that kill it.
import path from "node:path";
import { FUNCTIONS_DIR } from "../../devstack/deno.ts";
import { startFunctionsHost } from "../../devstack/functions/host.ts";

const host = await startFunctionsHost({
  functionsDir: FUNCTIONS_DIR,
  configToml: path.join(FUNCTIONS_DIR, "../config.toml"),
  env: {},
  log: () => {},
});
console.log(`HOST_CHILD_READY ${process.pid} ${host.port}`);
setInterval(() => {}, 60_000);
