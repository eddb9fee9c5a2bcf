import path from "node:path";
import { describe, expect, it } from "vitest";
import { denoDir, denoEntrypoints, denoEnv, HOST_SCRIPT, ROOT } from "./deno.ts";

describe("Deno's environment", () => {
  it("uses the project-local cache unless DENO_DIR names another", () => {
    expect(denoDir({})).toBe(path.join(ROOT, ".deno"));
    expect(denoDir({ DENO_DIR: "/tmp/x" })).toBe("/tmp/x");
    expect(denoEnv({ from: { PATH: "/bin" } }).DENO_DIR).toBe(path.join(ROOT, ".deno"));
  });

  it("passes the machine's certificates and proxy through, and nothing else of ours", () => {
    const env = denoEnv({
      from: {
        PATH: "/bin",
        HOME: "/root",
        SSL_CERT_FILE: "/etc/ssl/certs/ca-certificates.crt",
        SSL_CERT_DIR: "/etc/ssl/certs",
        NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt",
        HTTPS_PROXY: "http://proxy.internal:3128",
        NO_PROXY: "internal.example",
        npm_config_registry: "https://registry.example/",
        STRIPE_SECRET_KEY: "sk_live_secret",
      },
    });
    expect(env).toMatchObject({
      PATH: "/bin",
      HOME: "/root",
      SSL_CERT_FILE: "/etc/ssl/certs/ca-certificates.crt",
      SSL_CERT_DIR: "/etc/ssl/certs",
      // Node's extra CA file is what Deno reads as DENO_CERT.
      DENO_CERT: "/etc/ssl/certs/ca-certificates.crt",
      HTTPS_PROXY: "http://proxy.internal:3128",
      NPM_CONFIG_REGISTRY: "https://registry.example/",
    });
    // The functions call the local stack: loopback never goes through the proxy.
    expect(env.NO_PROXY).toBe("internal.example,127.0.0.1,localhost,::1");
    expect(env.no_proxy).toBe(env.NO_PROXY);
    expect(env.STRIPE_SECRET_KEY).toBeUndefined();
  });

  it("keeps an explicit DENO_CERT, and leaves NO_PROXY alone without a proxy", () => {
    const env = denoEnv({
      from: { DENO_CERT: "/mine.pem", NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt" },
    });
    expect(env.DENO_CERT).toBe("/mine.pem");
    expect(env.NO_PROXY).toBeUndefined();
  });

  it("caches every module Deno runs: functions, their tests and the host, not the domain's vitest files", () => {
    const files = denoEntrypoints().map((f) => path.relative(ROOT, f));
    expect(files).toContain("supabase/functions/scan/index.ts");
    expect(files).toContain("supabase/functions/scan/app.test.ts");
    expect(files).toContain(path.relative(ROOT, HOST_SCRIPT));
    expect(files.filter((f) => /_shared\/domain\/.*\.test\.ts$/.test(f))).toEqual([]);
  });
});
