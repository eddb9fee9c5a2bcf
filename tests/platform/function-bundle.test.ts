// What the pinned CLI's `supabase functions deploy --use-api` (the deploy's command, decision 0041)
// uploads for the outbox worker: the message texts it imports as JSON are part of the bundle
// (decision 0059). The Management API is a local stand-in that records the deploy request.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../devstack/config.ts";

const REF = "abcdefghijklmnopqrst";
const LANGUAGES = ["de", "en", "es", "fr"];

interface Deploy {
  url: string;
  metadata: { entrypoint_path?: string; static_patterns?: string[] };
  files: Map<string, string>;
}

const deploys: Deploy[] = [];
let server: http.Server;
// The CLI's API address comes from a profile (`--profile <file>`; SUPABASE_API_URL is not read).
const profileDir = mkdtempSync(path.join(os.tmpdir(), "cli-profile-"));
const profile = path.join(profileDir, "stand-in.json");

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = req.url ?? "";
      if (req.method === "POST" && url.includes(`/v1/projects/${REF}/functions/deploy`)) {
        const form = await new Request(`http://stand-in${url}`, {
          method: "POST",
          headers: { "content-type": String(req.headers["content-type"]) },
          body: Buffer.concat(chunks),
        }).formData();
        const files = new Map<string, string>();
        for (const value of form.getAll("file")) {
          if (typeof value !== "string") files.set(value.name, await value.text());
        }
        deploys.push({ url, metadata: JSON.parse(String(form.get("metadata"))), files });
        const slug = new URL(url, "http://stand-in").searchParams.get("slug") ?? "";
        res.writeHead(201, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "00000000-0000-0000-0000-000000000001",
            slug,
            name: slug,
            status: "ACTIVE",
            version: 1,
            created_at: 0,
            updated_at: 0,
          }),
        );
        return;
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: `no stand-in for ${req.method} ${url}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeFileSync(
    profile,
    JSON.stringify({
      name: "stand-in",
      api_url: apiUrl,
      dashboard_url: apiUrl,
      project_host: "stand-in.example",
    }),
  );
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(profileDir, { recursive: true, force: true });
});

function deploy(slug: string): Promise<{ code: number | null; output: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("SUPABASE_")),
  );
  const child = spawn(
    path.join(ROOT, "node_modules/.bin/supabase"),
    ["functions", "deploy", slug, "--use-api", `--remote=${REF}`, "--yes", "--profile", profile],
    {
      cwd: ROOT,
      env: {
        ...clean,
        SUPABASE_ACCESS_TOKEN: "sbp_0123456789abcdef0123456789abcdef01234567",
      },
    },
  );
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output })));
}

describe("supabase functions deploy --use-api", () => {
  it("uploads the worker's message texts (the SPA's messages namespace) with its code", async () => {
    const { code, output } = await deploy("deliver-alerts");
    expect(code, output).toBe(0);
    expect(deploys).toHaveLength(1);
    const [sent] = deploys;
    expect(sent!.metadata.entrypoint_path).toBe("supabase/functions/deliver-alerts/index.ts");
    expect(sent!.files.has("supabase/functions/deliver-alerts/messages.ts")).toBe(true);
    expect(sent!.files.has("supabase/functions/_shared/i18n/messages.ts")).toBe(true);
    for (const lng of LANGUAGES) {
      const file = `supabase/functions/_shared/i18n/${lng}/messages.json`;
      // The very bytes the SPA's i18n loads.
      expect(sent!.files.get(file), file).toBe(readFileSync(path.join(ROOT, file), "utf8"));
    }
    // Nothing of the SPA beyond them: the worker's bundle stays its own.
    expect([...sent!.files.keys()].filter((f) => f.startsWith("web/"))).toEqual([]);
  });
});
