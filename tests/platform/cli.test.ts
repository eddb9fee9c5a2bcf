// The pinned Supabase CLI against a temporary PostgreSQL 15: `db push` applies and records every
// migration as on a hosted project, `migration list` shows them, config.toml loads with no
// warning, and the local stack's migrator records migrations the same way.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultOptions, ROOT } from "../../devstack/config.ts";
import { listMigrations } from "../../devstack/migrate.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import {
  dbPush,
  migrationList,
  preparePlatform,
  supabaseCli,
} from "../../scripts/lib/migrated-postgres.ts";
import { freshDatabase, startTempPostgres, type TempPostgres } from "../support/postgres.ts";

const MIGRATIONS = listMigrations(path.join(ROOT, "supabase/migrations"));

/** The rows of `migration list`'s table: [local, remote] version per line. */
function listed(output: string): Array<[string, string]> {
  return [...output.matchAll(/^\s*`?(\d{14})?`?\s*\|\s*`?(\d{14})?`?\s*\|/gm)].map((m) => [
    m[1] ?? "",
    m[2] ?? "",
  ]);
}

async function history(url: string): Promise<string[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ version: string }[]>`
      select version from supabase_migrations.schema_migrations order by version`;
    return rows.map((r) => r.version);
  } finally {
    await sql.end();
  }
}

let pg: TempPostgres;
beforeAll(async () => {
  pg = await startTempPostgres();
});
afterAll(async () => {
  await pg?.stop();
});

describe("the pinned Supabase CLI", () => {
  it("is the version package.json pins", async () => {
    const { code, output } = await supabaseCli(["--version"]);
    expect(code, output).toBe(0);
    expect(output.trim()).toBe("3.1.0");
  });

  it("db push applies and records every migration; migration list shows each one applied", async () => {
    const url = (await freshDatabase(pg.url, "cli_push"))!;
    await preparePlatform(url);
    const push = await dbPush(url);
    expect(push.code, push.output).toBe(0);
    // config.toml loads with no warning (a deprecated or unknown key would be reported here).
    expect(push.output).not.toMatch(/WARN|deprecated|no longer supported/i);
    for (const m of MIGRATIONS) expect(push.output).toContain(`${m.version}_${m.name}.sql`);
    expect(await history(url)).toEqual(MIGRATIONS.map((m) => m.version));

    const list = await migrationList(url);
    expect(list.code, list.output).toBe(0);
    const rows = listed(list.output);
    expect(rows).toEqual(MIGRATIONS.map((m) => [m.version, m.version]));

    // Pushing again applies nothing.
    const again = await dbPush(url);
    expect(again.code, again.output).toBe(0);
    expect(again.output).not.toContain("Applying migration");
  });

  it("migration list against the local stack's PostgreSQL shows every migration applied, and a stack on a pushed database applies none", async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), "cli-stack-"));
    try {
      const start = async (databaseUrl: string, dir: string) => {
        mkdirSync(path.join(tmp, dir));
        return startStack({
          ...defaultOptions({}),
          apiPort: await freePort(),
          dataDir: path.join(tmp, dir, "data"),
          envFile: path.join(tmp, dir, ".env.local"),
          databaseUrl,
          functions: false,
          cron: false,
          quiet: true,
        });
      };
      const stackDb = (await freshDatabase(pg.url, "cli_stack"))!;
      const stack = await start(stackDb, "a");
      expect(stack.migrations.applied).toHaveLength(MIGRATIONS.length);
      await stack.stop();
      const list = await migrationList(stackDb);
      expect(list.code, list.output).toBe(0);
      expect(listed(list.output)).toEqual(MIGRATIONS.map((m) => [m.version, m.version]));

      // The seed as hosted GoTrue reads users: nil instance_id, token columns '' (never null).
      const sql = postgres(stackDb, { max: 1, onnotice: () => {} });
      try {
        const users = await sql<{ email: string; ok: boolean }[]>`
          select email, instance_id = '00000000-0000-0000-0000-000000000000'
            and confirmation_token = '' and recovery_token = '' and email_change_token_new = ''
            and email_change = '' and email_change_token_current = '' and phone_change = ''
            and phone_change_token = '' and reauthentication_token = '' as ok
          from auth.users where email like '%@demo.local' order by email`;
        expect(users.length).toBeGreaterThanOrEqual(6);
        expect(users.filter((u) => !u.ok)).toEqual([]);
      } finally {
        await sql.end();
      }

      const pushedDb = (await freshDatabase(pg.url, "cli_then_stack"))!;
      await preparePlatform(pushedDb);
      const push = await dbPush(pushedDb);
      expect(push.code, push.output).toBe(0);
      const after = await start(pushedDb, "b");
      expect(after.migrations.applied).toEqual([]);
      await after.stop();
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("db push stops at a failing migration and records nothing of it", async () => {
    const url = (await freshDatabase(pg.url, "cli_fail"))!;
    await preparePlatform(url);
    const dir = mkdtempSync(path.join(tmpdir(), "cli-fail-"));
    try {
      cpSync(path.join(ROOT, "supabase/migrations"), dir, { recursive: true });
      writeFileSync(
        path.join(dir, "29991231000000_broken.sql"),
        "select * from public.no_such_table;\n",
      );
      const push = await dbPush(url, dir);
      expect(push.code).not.toBe(0);
      expect(push.output).toContain("no_such_table");
      const versions = await history(url);
      expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
