// Runs the pgTAP suites of supabase/tests/database on a temporary PostgreSQL 15 prepared by
// the local stack (platform SQL, auth/storage schemas, migrations, seed). Prints pg_prove's
// TAP and exits non-zero when a test fails.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultOptions, ROOT } from "../../devstack/config.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import { postgresAvailable, startTempPostgres } from "../support/postgres.ts";

if (!postgresAvailable()) {
  console.error(
    "pgTAP: PostgreSQL 15 binaries are missing (apt-get install postgresql-15 postgresql-15-pgtap).",
  );
  process.exit(1);
}
const pg = await startTempPostgres();
const tmp = mkdtempSync(path.join(tmpdir(), "pgtap-"));
const only = process.argv.slice(2);
let code: number;
try {
  const stack = await startStack({
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    databaseUrl: pg.url,
    functions: false,
    quiet: true,
  });
  await stack.stop();
  const dir = path.join(ROOT, "supabase/tests/database");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    // `tsx tests/pgtap/run.ts 20- alert` runs only the files whose names contain one of the words,
    // after the shared helpers (0-test-helpers: who is acting) that every file uses.
    .filter((f) => only.length === 0 || f.startsWith("0-") || only.some((word) => f.includes(word)))
    .sort()
    .map((f) => path.join(dir, f));
  const res = spawnSync(
    "pg_prove",
    [
      "--verbose",
      "--host",
      "127.0.0.1",
      "--port",
      String(pg.port),
      "--username",
      "postgres",
      "--dbname",
      "postgres",
      ...files,
    ],
    {
      env: { ...process.env, PGPASSWORD: "postgres" },
      encoding: "utf8",
    },
  );
  process.stdout.write(res.stdout);
  process.stderr.write(res.stderr);
  code = res.status ?? 1;
} finally {
  await pg.stop();
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
