import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FUNCTIONS_DIR } from "../../devstack/deno.ts";
import { StackError } from "../../devstack/errors.ts";
import { listFunctions, startFunctionsHost } from "../../devstack/functions/host.ts";
import { anonClient, signedInUser, stackInfo } from "../support/clients.ts";

describe("functions host", () => {
  it("serves /api/health and /functions/v1/api/health from the api function", async () => {
    const { url, publishableKey } = stackInfo();
    for (const path of ["/api/health", "/functions/v1/api/health"]) {
      const res = await fetch(`${url}${path}`, { headers: { apikey: publishableKey } });
      expect(res.status, path).toBe(200);
      expect((await res.json()).status).toBe("ok");
      expect(res.headers.get("access-control-allow-origin")).toBeTruthy();
    }
  });

  it("answers CORS preflights", async () => {
    const res = await fetch(`${stackInfo().url}/functions/v1/api/health`, {
      method: "OPTIONS",
      headers: { origin: "http://127.0.0.1:5173", "access-control-request-method": "POST" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toMatch(/authorization/);
  });

  it("answers an unknown function with a JSON 404", async () => {
    const res = await fetch(`${stackInfo().url}/functions/v1/does-not-exist`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });

  it("is reachable through supabase-js functions.invoke as a user", async () => {
    const { client } = await signedInUser();
    const { data, error } = await client.functions.invoke("api/health", { method: "GET" });
    expect(error).toBeNull();
    expect(data.status).toBe("ok");
    const anon = await anonClient().functions.invoke("api/health", { method: "GET" });
    expect(anon.error).toBeNull();
  });
});

// The host runs Deno with --cached-only: the stack under test loaded every function from the
// cache `npm install` filled, with no network for code (decision 0013).
describe("functions load offline", () => {
  it("every function answers from its own code, not the host's 500", async () => {
    const { url, secretKey } = stackInfo();
    const names = listFunctions(FUNCTIONS_DIR);
    expect(names).toEqual(
      expect.arrayContaining([
        "api",
        "avatar",
        "billing-portal",
        "checkout",
        "scan",
        "stripe-webhook",
      ]),
    );
    for (const name of names) {
      const res = await fetch(`${url}/functions/v1/${name}/__probe`, {
        headers: { authorization: `Bearer ${secretKey}`, apikey: secretKey },
      });
      const body = await res.json();
      expect(res.status, name).toBe(404);
      // The function's own router answered (the host's "not found" names no route).
      // (The api answers `{ error: <message>, code, message }`, decision 0024.)
      expect(body.code ?? body.error, name).toBe("not_found");
      expect(body.message, name).toMatch(/^No route /);
    }
  });

  it("a function that cannot load stops start-up with one line naming it, the package and the fix", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "empty-deno-"));
    const lines: string[] = [];
    try {
      const err = await startFunctionsHost({
        functionsDir: FUNCTIONS_DIR,
        configToml: path.join(FUNCTIONS_DIR, "../config.toml"),
        env: { DENO_DIR: empty },
        log: (l) => lines.push(l),
      }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StackError);
      const message = (err as StackError).message;
      expect(message).toMatch(
        /^Function "[a-z-]+" cannot load: npm package \S+@\d[^ ]* is not in the Deno cache .*; run `npm run deno:cache` \(or `npm install`\) with network access\.$/,
      );
      // One line, and at once: waiting for the host's 120 s start-up limit would time this test out.
      expect(message.split("\n")).toHaveLength(1);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
