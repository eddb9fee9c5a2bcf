// Architecture rule 11: every table says how long it lives, in one document (docs/retention.md,
// decision 0039). A table of `public` or `private` without a row there fails this test.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const postgresUrl = inject("stack").postgresUrl;

/** The `schema.table` names in the first column of docs/retention.md's table. */
function documentedTables(): string[] {
  const doc = readFileSync(path.join(ROOT, "docs/retention.md"), "utf8");
  return [...doc.matchAll(/^\|\s*`((?:public|private)\.[a-z_0-9]+)`\s*\|/gm)]
    .map((m) => m[1]!)
    .sort();
}

/** The tables the migrations leave in `public` and `private` (created and not dropped). */
function migratedTables(): string[] {
  const dir = path.join(ROOT, "supabase/migrations");
  const tables = new Set<string>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    const sql = readFileSync(path.join(dir, file), "utf8").replace(/--.*$/gm, "");
    for (const m of sql.matchAll(
      /\b(create|drop) table (?:if (?:not )?exists )?((?:public|private)\.[a-z_0-9]+)/gi,
    )) {
      if (m[1]!.toLowerCase() === "create") tables.add(m[2]!);
      else tables.delete(m[2]!);
    }
  }
  return [...tables].sort();
}

describe("retention rules", () => {
  it("docs/retention.md has a row for every table the migrations create, and for no other", () => {
    const documented = documentedTables();
    expect(new Set(documented).size).toBe(documented.length);
    expect(documented).toEqual(migratedTables());
  });

  it.runIf(postgresUrl)("and the database holds exactly those tables", async () => {
    const { default: postgres } = await import("postgres");
    const sql = postgres(postgresUrl!, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql<{ name: string }[]>`
        select n.nspname || '.' || c.relname as name from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'private') and c.relkind in ('r', 'p')
`;
      expect(rows.map((r) => r.name).sort()).toEqual(documentedTables());
    } finally {
      await sql.end();
    }
  });
});
