import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureSecrets, isRealStripeKey, parseEnvFile } from "../config.ts";

const VARS = [
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_API_URL",
  "STRIPE_PRICE_BASIC",
  "STRIPE_PRICE_PRO",
  "STRIPE_PRICE_ENTERPRISE",
];
const tmpFile = () => path.join(mkdtempSync(path.join(tmpdir(), "env-")), ".env.local");
const api = "http://127.0.0.1:54321";

describe("Stripe settings", () => {
  const saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    for (const k of VARS) {
      saved[k] = process.env[k];
      delete process.env[k];
    }
  });
  afterEach(() => {
    for (const k of VARS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it("without a key: the stand-in is on, with generated secrets persisted and reused", async () => {
    const file = tmpFile();
    const { stripe } = await ensureSecrets(api, file);
    expect(stripe.standIn).toBe(true);
    expect(stripe.secretKey).toMatch(/^sk_test_local_[0-9a-f]{48}$/);
    expect(stripe.webhookSecret).toMatch(/^whsec_[0-9a-f]{48}$/);
    expect(stripe.prices).toEqual({
      basic: "price_local_basic",
      pro: "price_local_pro",
      enterprise: "price_local_enterprise",
    });
    expect(stripe.env).toEqual({
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_PRICE_BASIC: "price_local_basic",
      STRIPE_PRICE_PRO: "price_local_pro",
      STRIPE_PRICE_ENTERPRISE: "price_local_enterprise",
      STRIPE_API_URL: api,
    });
    const env = parseEnvFile(readFileSync(file, "utf8"));
    expect(env.STRIPE_SECRET_KEY).toBe(stripe.secretKey);
    expect(env.STRIPE_WEBHOOK_SECRET).toBe(stripe.webhookSecret);
    expect(env.STRIPE_PRICE_PRO).toBe("price_local_pro");
    expect(env.STRIPE_API_URL).toBeUndefined();
    expect(Object.keys(env).filter((k) => k.startsWith("VITE_") && k.includes("STRIPE"))).toEqual(
      [],
    );
    expect((await ensureSecrets("http://127.0.0.1:6000", file)).stripe).toEqual({
      ...stripe,
      env: { ...stripe.env, STRIPE_API_URL: "http://127.0.0.1:6000" },
    });
  });

  it("with a real key: the stand-in is off and the developer's values pass through untouched", async () => {
    const file = tmpFile();
    writeFileSync(file, "STRIPE_SECRET_KEY=sk_test_51Abc\nSTRIPE_PRICE_PRO=price_1Real\n");
    process.env.STRIPE_WEBHOOK_SECRET = "whsec_fromcli";
    const { stripe } = await ensureSecrets(api, file);
    expect(stripe.standIn).toBe(false);
    expect(stripe.env).toEqual({
      STRIPE_SECRET_KEY: "sk_test_51Abc",
      STRIPE_WEBHOOK_SECRET: "whsec_fromcli",
      STRIPE_PRICE_PRO: "price_1Real",
    });
    const text = readFileSync(file, "utf8");
    expect(text).not.toMatch(/STRIPE_WEBHOOK_SECRET|price_local|sk_test_local/);
  });

  it("a real-looking key with STRIPE_API_URL set keeps the stand-in on with that key", async () => {
    process.env.STRIPE_SECRET_KEY = "sk_test_mine";
    process.env.STRIPE_API_URL = "http://elsewhere";
    const { stripe } = await ensureSecrets(api, tmpFile());
    expect(stripe.standIn).toBe(true);
    expect(stripe.secretKey).toBe("sk_test_mine");
    expect(stripe.env.STRIPE_API_URL).toBe(api);
  });

  it("tells real keys from generated ones", () => {
    expect(isRealStripeKey("sk_live_x")).toBe(true);
    expect(isRealStripeKey("rk_test_x")).toBe(true);
    expect(isRealStripeKey("sk_test_local_x")).toBe(false);
    expect(isRealStripeKey("pk_test_x")).toBe(false);
    expect(isRealStripeKey(undefined)).toBe(false);
  });
});
