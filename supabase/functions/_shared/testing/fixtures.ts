// Recorded Stripe payloads (tests/fixtures/stripe/*.json) and the ids they share.
// Test support only: never imported by a function.

export const FIXTURE_USER_ID = "6f1c0b9e-5d0a-4c3e-9a43-6f2d0b1e7a11";
export const FIXTURE_EMAIL = "pro.buyer@example.test";
export const FIXTURE_CUSTOMER_ID = "cus_TqN4bQy3LkX8aR";
export const FIXTURE_SUBSCRIPTION_ID = "sub_1SxQ7mK2eZvKYlo2C0FfXg1P";
export const FIXTURE_PRICES = {
  basic: "price_1SxQ2aK2eZvKYlo2b9Zc4Tq1",
  pro: "price_1SxQ2bK2eZvKYlo2Hn3Vd8Ws",
  enterprise: "price_1SxQ2cK2eZvKYlo2Ue6Jk0Rm",
} as const;

export type Json = Record<string, unknown>;

const DIR = new URL("../../../../tests/fixtures/stripe/", import.meta.url);

/** A fresh copy of a fixture (tests may change it). */
export async function loadFixture(name: string): Promise<Json> {
  return JSON.parse(await Deno.readTextFile(new URL(`${name}.json`, DIR))) as Json;
}

/** The billing environment the tests run with (`STRIPE_API_URL` points at the fake). */
export function billingTestEnv(stripeApiUrl: string): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: "sk_test_51FakeLocalKeyForTests",
    STRIPE_WEBHOOK_SECRET: "whsec_test_fixture_secret_0123456789",
    STRIPE_PRICE_BASIC: FIXTURE_PRICES.basic,
    STRIPE_PRICE_PRO: FIXTURE_PRICES.pro,
    STRIPE_PRICE_ENTERPRISE: FIXTURE_PRICES.enterprise,
    SITE_URL: "http://127.0.0.1:5173/",
    STRIPE_API_URL: stripeApiUrl,
  };
}
