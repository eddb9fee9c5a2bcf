// Opens the stack's database: embedded PGlite (default) or any Postgres via DATABASE_URL.
// Both are wrapped in one small interface the migrator, realtime and tests share.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Connection } from "@supabase/lite";
import { createPgliteConnection, type PGlite } from "@supabase/lite/pglite";
import { createPostgresConnection } from "@supabase/lite/postgres";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import postgres from "postgres";
import { StackError } from "./errors.ts";
import { setContextInOneStatement } from "./lite-context.ts";
import { pgliteParsers, postgresJsTypes } from "./pg-types.ts";

export interface Tx {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Db extends Tx {
  kind: "pglite" | "postgres";
  /** Human-readable location without credentials. */
  location: string;
  /** The connection handed to @supabase/lite. */
  connection: Connection;
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** LISTENs on a notification channel; resolves to a function that stops listening. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const READY_MARKER = "READY";

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}

export async function openDatabase(opts: { dataDir: string; databaseUrl?: string }): Promise<Db> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir);
}

async function openPglite(dataDir: string): Promise<Db> {
  const dir = path.join(dataDir, "pglite");
  const hasFiles = existsSync(dir) && readdirSync(dir).length > 0;
  if (hasFiles && !existsSync(path.join(dataDir, READY_MARKER))) {
    throw new StackError(
      `The data folder ${dir} is half-written (a first start was interrupted). Run \`npm run db:reset\` to recreate it; nothing was deleted.`,
      "DATA_HALF_WRITTEN",
    );
  }
  let connection: Awaited<ReturnType<typeof createPgliteConnection>>;
  try {
    connection = await createPgliteConnection({
      url: dir,
      pgliteOptions: { extensions: { pgcrypto, pg_trgm }, parsers: pgliteParsers },
    });
    await connection.driver.query("select 1");
  } catch (err) {
    throw new StackError(
      `The data folder ${dir} could not be opened (${firstLine(err)}); it looks corrupt. Run \`npm run db:reset\` to recreate it; nothing was deleted.`,
      "DATA_CORRUPT",
    );
  }
  setContextInOneStatement(connection);
  const pg: PGlite = connection.driver;
  const wrap = (q: Pick<PGlite, "query">): Tx => ({
    async query<T>(sql: string, params?: unknown[]) {
      const res = params?.length ? await q.query<T>(sql, params) : await q.query<T>(sql);
      return res.rows;
    },
  });
  return {
    kind: "pglite",
    location: dir,
    connection,
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    listen: (channel, onPayload) =>
      pg.listen(`"${channel.replace(/"/g, '""')}"`, (payload) => onPayload(payload)),
    close: () => connection.close(),
  };
}

async function openPostgres(url: string): Promise<Db> {
  const sql = postgres(url, {
    max: 4,
    onnotice: () => {},
    connect_timeout: 5,
    connection: { TimeZone: "UTC" },
  });
  try {
    await sql`select 1`;
  } catch (err) {
    await sql.end({ timeout: 1 }).catch(() => {});
    throw new StackError(
      `Cannot connect to DATABASE_URL ${redact(url)}: ${describePgError(err)}. Check the host, port, user and password, or unset DATABASE_URL to use the embedded database.`,
      "DATABASE_UNREACHABLE",
    );
  }
  const connection = createPostgresConnection({
    url,
    postgresOptions: { onnotice: () => {}, types: postgresJsTypes as never },
  });
  setContextInOneStatement(connection);
  const wrap = (q: postgres.Sql | postgres.TransactionSql): Tx => ({
    async query<T>(text: string, params?: unknown[]) {
      const rows = await q.unsafe(text, (params ?? []) as postgres.ParameterOrJSON<never>[]);
      return rows as unknown as T[];
    },
  });
  return {
    kind: "postgres",
    location: redact(url),
    connection,
    ...wrap(sql),
    transaction: async (fn) => (await sql.begin((tx) => fn(wrap(tx)))) as never,
    listen: async (channel, onPayload) => {
      // postgres.js keeps one dedicated connection for LISTEN and re-listens after it drops.
      const { unlisten } = await sql.listen(channel, (payload) => onPayload(payload));
      return unlisten;
    },
    close: async () => {
      // lite's pool can wait forever for a request the gateway cut off at shutdown (a scan's
      // enqueue that ran after its answer): give it 5 s, then let the stack stop anyway.
      let timer: NodeJS.Timeout | undefined;
      const bounded = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), 5_000);
        timer.unref();
      });
      const closed = Promise.all([sql.end({ timeout: 2 }), connection.close()]);
      const result = await Promise.race([closed, bounded]);
      clearTimeout(timer);
      if (result === "timeout") {
        console.warn("[db] the connection pool did not close within 5 s; stopping without it");
      }
    },
  };
}

function firstLine(err: unknown): string {
  return String(err instanceof Error ? err.message : err).split("\n")[0] ?? "unknown error";
}

function describePgError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e.code === "28P01") return "the password was refused";
  if (e.code === "3D000") return "the database does not exist";
  if (e.code === "ECONNREFUSED") return "nothing is listening there";
  if (e.code === "ENOTFOUND") return "the host name could not be resolved";
  if (e.code === "CONNECT_TIMEOUT") return "the connection timed out";
  return firstLine(err);
}
