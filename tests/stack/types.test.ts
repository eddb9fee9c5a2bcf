// The committed database types must match the migrations: `npm run gen:types` regenerates them.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../devstack/config.ts";
import { signedInUser } from "../support/clients.ts";

function genTypes(...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      path.join(ROOT, "node_modules/.bin/tsx"),
      ["scripts/gen-types.ts", ...args],
      // The generator starts its own PGlite stack, whatever database the suite runs on.
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

describe("generated database types", () => {
  it("web/src/lib/database.types.ts matches the migrations", async () => {
    const { code, output } = await genTypes("--check");
    expect(code, output).toBe(0);
  });

  it("--check fails once a migration changes without regenerating", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "drift-"));
    try {
      cpSync(path.join(ROOT, "supabase/migrations"), dir, { recursive: true });
      writeFileSync(
        path.join(dir, "29991231000000_drift.sql"),
        "create table public.drift_probe (id bigint primary key);\n",
      );
      const { code, output } = await genTypes("--check", "--migrations", dir);
      expect(code, output).toBe(1);
      expect(output).toContain("database types are out of date: run npm run gen:types");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // @supabase/lite 0.10.0 alone sends "10.0" as a string and timestamps as Postgres text;
  // devstack/pg-types.ts makes both match PostgREST (docs/decisions/0002).
  it("the API sends numeric columns as JSON numbers, as the types say", async () => {
    const { client } = await signedInUser();
    const { data } = await client.from("profiles").select("user_threshold, created_at").single();
    expect(data?.user_threshold).toBe(10);
    expect(data?.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
  });
});
