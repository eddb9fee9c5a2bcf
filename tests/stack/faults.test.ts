// Bad input and faults of the local stack: clear one-line errors, nothing lost.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freshDatabase } from "../support/postgres.ts";
import { afterAll, describe, expect, inject, it } from "vitest";
import { defaultOptions, ROOT } from "../../devstack/config.ts";
import { StackError } from "../../devstack/errors.ts";
import { freePort, startStack } from "../../devstack/stack.ts";

const tmp = mkdtempSync(path.join(tmpdir(), "faults-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string>) {
  const res = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["devstack/cli.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: res.status, stderr: res.stderr.trim(), stdout: res.stdout };
}

const postgresUrl = inject("stack").postgresUrl;

/** On the Postgres suite, a fresh database of the temporary cluster; on PGlite, none. */
const databaseFor = (name: string) => freshDatabase(postgresUrl, `faults_${name}`);

async function options(name: string, extra: Partial<ReturnType<typeof defaultOptions>> = {}) {
  const dir = path.join(tmp, name);
  mkdirSync(dir, { recursive: true });
  return {
    ...defaultOptions({}),
    databaseUrl: await databaseFor(name),
    apiPort: await freePort(),
    dataDir: path.join(dir, "data"),
    envFile: path.join(dir, ".env.local"),
    functions: false,
    quiet: true,
    ...extra,
  };
}

describe("faults", () => {
  it("names the port and the variable when the API port is taken, and exits non-zero", async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((r) => blocker.listen(port, "127.0.0.1", () => r()));
    try {
      const res = cli(["start"], { API_PORT: String(port), DATA_DIR: path.join(tmp, "port") });
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(
        `error: Port ${port} is already in use; set API_PORT to another port.`,
      );
    } finally {
      blocker.close();
    }
  });

  it("explains an unreachable DATABASE_URL without a stack trace", async () => {
    const port = await freePort();
    const res = cli(["start"], {
      API_PORT: String(await freePort()),
      DATABASE_URL: `postgres://postgres:secret@127.0.0.1:${port}/postgres`,
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /^error: Cannot connect to DATABASE_URL postgres:\/\/postgres:\*\*\*@127\.0\.0\.1/,
    );
    expect(res.stderr).toMatch(/nothing is listening there/);
    expect(res.stderr).not.toMatch(/secret/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it.runIf(postgresUrl)(
    "explains a wrong DATABASE_URL password without a stack trace",
    async () => {
      const url = new URL(postgresUrl!);
      url.password = "wrong-password";
      const opts = await options("wrongpw");
      const err = await startStack({ ...opts, databaseUrl: url.toString() }).catch((e) => e);
      expect(err).toBeInstanceOf(StackError);
      expect(err.message).toMatch(/the password was refused/);
      expect(err.message).not.toMatch(/wrong-password/);
    },
  );

  it.skipIf(postgresUrl)(
    "refuses a half-written data folder, names db:reset and deletes nothing",
    async () => {
      const opts = await options("half");
      mkdirSync(path.join(opts.dataDir, "pglite"), { recursive: true });
      writeFileSync(path.join(opts.dataDir, "pglite", "PG_VERSION"), "17");
      const err = await startStack(opts).catch((e) => e);
      expect(err).toBeInstanceOf(StackError);
      expect(err.message).toMatch(/half-written.*npm run db:reset/);
      expect(readdirSync(path.join(opts.dataDir, "pglite"))).toEqual(["PG_VERSION"]);
    },
  );

  it.skipIf(postgresUrl)(
    "refuses a corrupt data folder, names db:reset and deletes nothing",
    async () => {
      const opts = await options("corrupt");
      mkdirSync(path.join(opts.dataDir, "pglite", "base"), { recursive: true });
      writeFileSync(path.join(opts.dataDir, "pglite", "PG_VERSION"), "not a version");
      writeFileSync(path.join(opts.dataDir, "READY"), "x");
      const err = await startStack(opts).catch((e) => e);
      expect(err).toBeInstanceOf(StackError);
      expect(err.message).toMatch(/corrupt.*npm run db:reset/);
      expect(existsSync(path.join(opts.dataDir, "pglite", "PG_VERSION"))).toBe(true);
    },
  );

  it("stops on a failing migration, names file and statement, and leaves the database as it was", async () => {
    const migrationsDir = path.join(tmp, "bad-migrations");
    cpSync(path.join(ROOT, "supabase/migrations"), migrationsDir, { recursive: true });
    writeFileSync(
      path.join(migrationsDir, "29990101000000_broken.sql"),
      "create table public.half_done (id int);\ninsert into public.no_such_table values (1);\n",
    );
    const opts = await options("failing", { migrationsDir });
    const err = await startStack(opts).catch((e) => e);
    expect(err).toBeInstanceOf(StackError);
    expect(err.message).toMatch(/29990101000000_broken\.sql/);
    expect(err.message).toMatch(/statement: insert into public\.no_such_table values \(1\)/);
    expect(err.message).toMatch(/no_such_table/);

    // Without the broken file the same folder starts, and the broken file left no trace.
    rmSync(path.join(migrationsDir, "29990101000000_broken.sql"));
    const stack = await startStack(opts);
    try {
      const tables = await stack.db.query("select to_regclass('public.half_done') as t");
      expect(tables[0]).toEqual({ t: null });
      const versions = await stack.db.query<{ version: string }>(
        "select version from supabase_migrations.schema_migrations order by version",
      );
      expect(versions.map((v) => v.version)).not.toContain("29990101000000");
    } finally {
      await stack.stop();
    }
    // Two stacks each migrate a fresh database: over a minute on a loaded machine's PGlite.
  }, 180_000);

  it("applies migrations and seed once: a second start changes nothing", async () => {
    const opts = await options("twice");
    const first = await startStack(opts);
    const count = async (s: typeof first) =>
      (await s.db.query<{ n: number }>("select count(*)::int as n from auth.users"))[0]!.n;
    const users = await count(first);
    expect(first.migrations.applied.length).toBeGreaterThan(0);
    expect(first.migrations.seeded).toBe(true);
    const recorded = await first.db.query<{ version: string; name: string; statements: string[] }>(
      "select version, name, statements from supabase_migrations.schema_migrations order by version",
    );
    expect(recorded[0]).toMatchObject({ version: "20261121000000", name: "foundation" });
    expect(recorded[0]!.statements.length).toBeGreaterThan(3);
    await first.stop();

    const second = await startStack(opts);
    try {
      expect(second.migrations).toEqual({ applied: [], seeded: false });
      expect(await count(second)).toBe(users);
    } finally {
      await second.stop();
    }
  }, 180_000);
});
