import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import {
  postgresAvailable,
  startTempPostgres,
  type TempPostgres,
} from "../tests/support/postgres.ts";
import { openDatabase, type Db } from "./database.ts";
import { callerSettings, dollarQuoted, rpcSettings, setConfigStatement } from "./lite-context.ts";

describe("dollarQuoted", () => {
  it("picks a tag that the value does not contain", () => {
    expect(dollarQuoted("plain")).toBe("$s$plain$s$");
    expect(dollarQuoted("a $s$ b")).toBe("$s1$a $s$ b$s1$");
    // A value ending in `$s` would close `$s$…$s$` one character early.
    expect(dollarQuoted("ends in $s")).toBe("$s1$ends in $s$s1$");
    expect(dollarQuoted("$s $s1 $s2")).toBe("$s3$$s $s1 $s2$s3$");
  });

  it("refuses a NUL character, which no Postgres text can hold", () => {
    expect(() => dollarQuoted("a\0b")).toThrow("NUL");
  });
});

describe("setConfigStatement", () => {
  it("sets every setting transaction-locally, in order, in one select", () => {
    expect(
      setConfigStatement([
        ["role", "anon"],
        ["request.path", "/rpc/f"],
      ]),
    ).toBe(
      "select set_config($s$role$s$, $s$anon$s$, true), set_config($s$request.path$s$, $s$/rpc/f$s$, true)",
    );
  });
});

// A header value that would end a quoted literal or a naive dollar quote, or escape a backslash.
const TRICKY = `it's "quoted" \\ $s$ $$ ; select 1; -- é`;

const backends: Array<[string, () => Promise<{ db: Db; stop(): Promise<void> }>]> = [
  [
    "PGlite",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "lite-context-"));
      const db = await openDatabase({ dataDir: dir });
      return {
        db,
        stop: async () => {
          await db.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];
if (postgresAvailable()) {
  backends.push([
    "PostgreSQL 15",
    async () => {
      const pg: TempPostgres = await startTempPostgres({ preload: [] });
      const db = await openDatabase({ dataDir: "", databaseUrl: pg.url });
      return {
        db,
        stop: async () => {
          await db.close();
          await pg.stop();
        },
      };
    },
  ]);
} else if (process.env.CI) {
  throw new Error("PostgreSQL 15 binaries are missing (apt-get install postgresql-15)");
}

describe.each(backends)("a request's context on %s", (_name, open) => {
  let opened: { db: Db; stop(): Promise<void> } | undefined;
  afterAll(async () => {
    await opened?.stop();
  }, 60_000);

  // The test opens a database of its own (PGlite's first start, or a PostgreSQL cluster): over
  // vitest's 5 s when CI runs the other suites beside this one (5.1 s once).
  it("reaches the RPC with lite's settings, each value as sent", async () => {
    opened = await open();
    const { db } = opened;
    // lite sets a caller's context only once some table has row-level security.
    await db.query("create table public.guarded (id int)");
    await db.query("alter table public.guarded enable row level security");
    const jwt = {
      sub: "00000000-0000-4000-8000-000000000001",
      role: "authenticated",
      note: TRICKY,
    };
    const seen = await db.connection.withContext(
      { auth: { role: "authenticated", uid: jwt.sub, jwt }, storage: { operation: "object.get" } },
      async (tx) =>
        (
          await sql<Record<string, string>>`select current_user as who,
            current_setting('role') as role,
            current_setting('request.jwt.claim.sub') as sub,
            current_setting('request.jwt.claim.role') as claim_role,
            current_setting('storage.operation') as operation,
            current_setting('request.jwt.claims') as claims,
            current_setting('response.status') as status,
            current_setting('response.headers') as headers,
            current_setting('request.method') as method,
            current_setting('request.path') as path,
            current_setting('request.headers') as request_headers`.execute(tx)
        ).rows[0],
      {
        forceRollback: true,
        rpc: {
          method: "POST",
          path: "/rpc/echo$s",
          readOnly: false,
          requestHeaders: { "x-tricky": TRICKY },
        },
      },
    );
    expect(seen).toEqual({
      who: "authenticated",
      role: "authenticated",
      sub: jwt.sub,
      claim_role: "authenticated",
      operation: "object.get",
      claims: JSON.stringify(jwt),
      status: "",
      headers: "",
      method: "POST",
      path: "/rpc/echo$s",
      request_headers: JSON.stringify({ "x-tricky": TRICKY }),
    });
    // Transaction-local: nothing is left on the pooled connection.
    const after = await db.query<{ claims: string | null }>(
      "select current_setting('request.jwt.claims', true) as claims",
    );
    expect(after[0]?.claims ?? "").toBe("");
  }, 60_000);
});

describe("callerSettings and rpcSettings", () => {
  it("default to anon, empty values and no claims, as lite does", () => {
    expect(callerSettings({})).toEqual([
      ["role", "anon"],
      ["request.jwt.claim.sub", ""],
      ["request.jwt.claim.role", "anon"],
      ["storage.operation", ""],
    ]);
    expect(rpcSettings({ method: "GET", path: "/rpc/x" }).at(-1)).toEqual([
      "request.headers",
      "{}",
    ]);
  });
});
