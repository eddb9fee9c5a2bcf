// No secret reaches the browser: the SPA bundle that `npm start` built for this run is searched
// for every secret of .env.local and for the shapes of secret keys.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

const DIST = path.join(process.cwd(), "web/dist");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

function env(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(path.join(process.cwd(), ".env.local"), "utf8").split("\n")) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!.trim();
  }
  return out;
}

test("the built SPA contains the publishable key and no secret", () => {
  const bundle = files(DIST)
    .filter((f) => /\.(js|html|css|json|map|txt|webmanifest)$/.test(f))
    .map((f) => ({ file: path.relative(DIST, f), text: readFileSync(f, "utf8") }));
  expect(bundle.length).toBeGreaterThan(0);
  const vars = env();

  // The search works: the one key meant for browsers is there.
  expect(bundle.some((b) => b.text.includes(vars.SUPABASE_PUBLISHABLE_KEY!))).toBe(true);

  const secrets = Object.entries(vars).filter(
    ([name, value]) =>
      !name.startsWith("VITE_") &&
      /SECRET|SERVICE_ROLE|WEBHOOK|PASSWORD|PRIVATE/.test(name) &&
      value.length >= 8,
  );
  expect(secrets.map(([name]) => name)).toEqual(
    expect.arrayContaining(["SUPABASE_JWT_SECRET", "SUPABASE_SECRET_KEY"]),
  );
  for (const { file, text } of bundle) {
    for (const [name, value] of secrets) {
      expect(text.includes(value), `${name} found in ${file}`).toBe(false);
    }
    for (const shape of [
      /sb_secret_[A-Za-z0-9_-]{8,}/,
      /sk_(test|live)_[A-Za-z0-9]{8,}/,
      /whsec_[A-Za-z0-9]{8,}/,
    ]) {
      expect(shape.test(text), `${shape} found in ${file}`).toBe(false);
    }
  }
});
