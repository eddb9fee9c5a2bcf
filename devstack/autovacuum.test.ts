import { PGlite } from "@electric-sql/pglite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { autovacuumIntervalMs, startAutovacuum, type AutovacuumRunner } from "./autovacuum.ts";
import type { Tx } from "./database.ts";

// A real PGlite: what is tested is that its tables are vacuumed and analysed at all.
let pg: PGlite;
let db: Tx;
let runner: AutovacuumRunner | undefined;

beforeEach(async () => {
  pg = new PGlite();
  db = {
    query: async <T>(sql: string, params?: unknown[]) => (await pg.query<T>(sql, params)).rows,
  };
  await pg.exec(`
    create table public.history (id bigserial primary key, v text not null);
    create table public.quiet (id bigserial primary key, v text not null);
    create table public.opted_out (id bigserial primary key, v text not null)
      with (autovacuum_enabled = off);
  `);
});
afterEach(async () => {
  await runner?.stop();
  runner = undefined;
  await pg.close();
});

async function stats(table: string) {
  const [row] = await db.query<{
    n_dead_tup: number;
    last_vacuum: Date | null;
    last_analyze: Date | null;
    reltuples: number;
  }>(
    `select s.n_dead_tup::int, s.last_vacuum, s.last_analyze, c.reltuples::float8 as reltuples
     from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = $1`,
    [table],
  );
  return row!;
}

/** Keeps `keep` rows, as retention does: `add` new ones, then the oldest beyond `keep` go. */
async function churn(table: string, add: number, keep: number) {
  await db.query(
    `insert into public.${table} (v) select repeat('x', 100) from generate_series(1, $1::int)`,
    [add],
  );
  await db.query(
    `delete from public.${table} where id <= (select max(id) - $1::int from public.${table})`,
    [keep],
  );
}

describe("local autovacuum runner (PGlite)", () => {
  it("vacuums and analyses a table past its thresholds, and leaves the others alone", async () => {
    await churn("history", 2_000, 1_000); // 1,000 dead rows: past 50 + 20 % of 0 tuples
    await db.query("insert into public.quiet (v) values ('a'), ('b')"); // 2 changes: under 50
    await churn("opted_out", 2_000, 1_000);
    runner = startAutovacuum({ db, intervalMs: 3_600_000, log: () => {} });

    const done = await runner.tick();

    expect(done.map(({ table, action }) => ({ table, action }))).toEqual([
      { table: "public.history", action: "vacuum" },
    ]);
    const history = await stats("history");
    expect(history.n_dead_tup).toBe(0);
    expect(history.last_vacuum).not.toBeNull();
    expect(history.last_analyze).not.toBeNull();
    expect(history.reltuples).toBe(1_000);
    expect((await stats("quiet")).last_vacuum).toBeNull();
    expect((await stats("quiet")).last_analyze).toBeNull();
    expect((await stats("opted_out")).last_vacuum).toBeNull();
    expect((await stats("opted_out")).n_dead_tup).toBe(1_000);
    // Nothing is due right after.
    expect(await runner.tick()).toEqual([]);
  });

  it("analyses a table whose rows changed in place, without vacuuming it", async () => {
    await db.query("insert into public.quiet (v) select 'a' from generate_series(1, 1000)");
    runner = startAutovacuum({ db, intervalMs: 3_600_000, log: () => {} });
    await runner.tick(); // the inserts: vacuumed (insert threshold 1,000 + 20 %) or analysed
    // 151 rows changed: past analyse's 50 + 10 % × 1,000 = 150, under vacuum's 50 + 20 % × 1,000.
    await db.query("update public.quiet set v = 'b' where id <= 150");
    expect(await runner.tick()).toEqual([]); // 150 is not past 150
    await db.query("update public.quiet set v = 'c' where id = 151");
    expect((await runner.tick()).map(({ table, action }) => ({ table, action }))).toEqual([
      { table: "public.quiet", action: "analyze" },
    ]);
  });

  it("keeps a table under retention at its size: the space of deleted rows is used again", async () => {
    runner = startAutovacuum({ db, intervalMs: 3_600_000, log: () => {} });
    const size = async () =>
      Number(
        (await db.query<{ b: string }>("select pg_relation_size('public.history') as b"))[0]!.b,
      );
    await churn("history", 5_000, 5_000);
    await runner.tick();
    for (let round = 0; round < 10; round++) {
      await churn("history", 5_000, 5_000);
      await runner.tick();
    }
    const vacuumed = await size();
    // The same rounds on a table nobody vacuums.
    for (let round = 0; round < 11; round++) await churn("opted_out", 5_000, 5_000);
    const unvacuumed = Number(
      (await db.query<{ b: string }>("select pg_relation_size('public.opted_out') as b"))[0]!.b,
    );
    expect(unvacuumed).toBeGreaterThan(5 * vacuumed);
    // 5,000 rows of about 140 bytes: two rounds' worth of pages at most.
    expect(vacuumed).toBeLessThanOrEqual(2 * 5_000 * 140 + 8192 * 4);
  });

  it("logs a failure in words and goes on at the next pass", async () => {
    const lines: string[] = [];
    let fail = true;
    const failing: Tx = {
      query: async <T>(sql: string, params?: unknown[]) => {
        if (fail) throw new Error("database is gone");
        return db.query<T>(sql, params);
      },
    };
    runner = startAutovacuum({ db: failing, intervalMs: 3_600_000, log: (l) => lines.push(l) });
    expect(await runner.tick()).toEqual([]);
    expect(lines).toEqual(["[autovacuum] failed: database is gone"]);
    fail = false;
    await churn("history", 2_000, 1_000);
    expect((await runner.tick()).map((d) => d.table)).toEqual(["public.history"]);
  });

  it("reads its interval from AUTOVACUUM_INTERVAL_SECONDS, one minute by default", () => {
    expect(autovacuumIntervalMs({})).toBe(60_000);
    expect(autovacuumIntervalMs({ AUTOVACUUM_INTERVAL_SECONDS: "5" })).toBe(5_000);
    expect(autovacuumIntervalMs({ AUTOVACUUM_INTERVAL_SECONDS: "0" })).toBe(60_000);
    expect(autovacuumIntervalMs({ AUTOVACUUM_INTERVAL_SECONDS: "soon" })).toBe(60_000);
  });
});
