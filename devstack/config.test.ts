import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureSecrets, parseEnvFile } from "./config.ts";

const tmpFile = () => path.join(mkdtempSync(path.join(tmpdir(), "env-")), ".env.local");

describe("stack secrets", () => {
  it("generates secrets on first run into a private file, and reuses them afterwards", async () => {
    const file = tmpFile();
    const first = await ensureSecrets("http://127.0.0.1:1", file);
    expect(first.publishableKey).toMatch(/^sb_publishable_/);
    expect(first.secretKey).toMatch(/^sb_secret_/);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await ensureSecrets("http://127.0.0.1:1", file);
    expect(again).toEqual(first);
    const env = parseEnvFile(readFileSync(file, "utf8"));
    expect(env.VITE_SUPABASE_PUBLISHABLE_KEY).toBe(first.publishableKey);
    expect(Object.keys(env).filter((k) => k.startsWith("VITE_"))).toEqual([
      "VITE_SUPABASE_URL",
      "VITE_SUPABASE_PUBLISHABLE_KEY",
    ]);
  });

  it("keeps values a developer wrote and adds only what is missing", async () => {
    const file = tmpFile();
    writeFileSync(
      file,
      "# mine\nSUPABASE_JWT_SECRET='my-own-secret-that-is-long-enough-1234'\nOTHER=1\n",
    );
    const s = await ensureSecrets("http://127.0.0.1:1", file);
    expect(s.jwtSecret).toBe("my-own-secret-that-is-long-enough-1234");
    const text = readFileSync(file, "utf8");
    expect(text).toMatch(/^# mine/);
    expect(text).toMatch(/OTHER=1/);
  });
});

describe("parseEnvFile", () => {
  it("reads KEY=value lines, strips quotes and skips comments", () => {
    expect(parseEnvFile("# c\nA=1\nB = \"two\"\n\nbad line\nC='x=y'\n")).toEqual({
      A: "1",
      B: "two",
      C: "x=y",
    });
  });
});
