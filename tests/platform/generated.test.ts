// The committed database types (supabase/functions/_shared/database.types.ts) and schema folder
// (supabase/schemas/) must match the migrations: `npm run gen:types` and `npm run gen:schemas`
// regenerate them from a PostgreSQL 15 the CLI migrated.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../devstack/config.ts";

function run(script: string, ...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), [script, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

// A migration added without regenerating: a table with a policy, a function and a trigger.
let drifted: string;
beforeAll(() => {
  drifted = mkdtempSync(path.join(tmpdir(), "drift-"));
  cpSync(path.join(ROOT, "supabase/migrations"), drifted, { recursive: true });
  writeFileSync(
    path.join(drifted, "29991231000000_drift.sql"),
    `create table public.drift_probes (id bigint primary key, owner uuid not null default auth.uid());
alter table public.drift_probes enable row level security;
create policy "drift: owners read" on public.drift_probes for select to authenticated
  using (owner = (select auth.uid()));
`,
  );
});
afterAll(() => rmSync(drifted, { recursive: true, force: true }));

describe("generated database types", () => {
  it("supabase/functions/_shared/database.types.ts matches the migrations", async () => {
    const { code, output } = await run("scripts/gen-types.ts", "--check");
    expect(code, output).toBe(0);
    expect(output).toContain("matches the migrations");
  });

  it("--check fails once a migration changes without regenerating", async () => {
    const { code, output } = await run("scripts/gen-types.ts", "--check", "--migrations", drifted);
    expect(code, output).toBe(1);
    expect(output).toContain("differs from the migrations: run `npm run gen:types`");
  });
});

describe("supabase/schemas", () => {
  it("matches the migrations", async () => {
    const { code, output } = await run("scripts/gen-schemas.ts", "--check");
    expect(code, output).toBe(0);
    expect(output).toContain("supabase/schemas matches the migrations.");
  });

  it("--check names the stale file once a migration changes without regenerating", async () => {
    const { code, output } = await run(
      "scripts/gen-schemas.ts",
      "--check",
      "--migrations",
      drifted,
    );
    expect(code, output).toBe(1);
    expect(output).toContain("supabase/schemas is stale (00-foundation.sql)");
  });
});
