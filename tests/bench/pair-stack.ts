// One side of a paired bench (ingest-pair.ts, history-probes.ts): a fresh database on the
// bench's PostgreSQL cluster, migrated from a folder of links to `supabase/migrations` that can
// hold some out (ingest.ts's BENCH_HOLD_OUT uses the same links), and a stack on it with no
// functions and no cron (nothing competing with the measured statements for the two cores).
import { mkdirSync, readdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { ROOT, defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import { freshDatabase } from "../support/postgres.ts";

/** A migrations folder holding every migration except those starting with `skip`. */
export function linkMigrations(dir: string, skip: string | null): void {
  const src = path.join(ROOT, "supabase/migrations");
  for (const f of readdirSync(src)) {
    if (skip && f.startsWith(skip)) continue;
    symlinkSync(path.join(src, f), path.join(dir, f));
  }
}

/** Starts the side `name` (database `<database>`) under `tmp`, without the migrations `skip`. */
export async function startPairStack(opts: {
  clusterUrl: string;
  tmp: string;
  name: string;
  database: string;
  skip: string | null;
}): Promise<{ stack: Awaited<ReturnType<typeof startStack>>; url: string }> {
  const { clusterUrl, tmp, name, database, skip } = opts;
  const dir = path.join(tmp, `migrations-${name}`);
  mkdirSync(dir);
  linkMigrations(dir, skip);
  const url = await freshDatabase(clusterUrl, database);
  if (!url) throw new Error(`no PostgreSQL cluster for ${database}`);
  const stack = await startStack({
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, `data-${name}`),
    envFile: path.join(tmp, `.env-${name}`),
    databaseUrl: url,
    migrationsDir: dir,
    functions: false,
    // No candle rollup or retention job competing with the scans for the two cores.
    cron: false,
    quiet: true,
  });
  return { stack, url };
}
