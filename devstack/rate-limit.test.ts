import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { authRateBucket, RateLimiter, readAuthRateLimits } from "./rate-limit.ts";

describe("Auth rate limits", () => {
  it("reads [auth.rate_limit] from config.toml; AUTH_RATE_LIMIT_* variables override it", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "rl-")), "config.toml");
    writeFileSync(file, "[auth.rate_limit]\nsign_in_sign_ups = 12\ntoken_refresh = 40\n");
    expect(readAuthRateLimits(file, {})).toEqual({
      sign_in_sign_ups: 12,
      token_refresh: 40,
      token_verifications: 30,
    });
    expect(
      readAuthRateLimits(file, { AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: "500" }).sign_in_sign_ups,
    ).toBe(500);
    expect(readAuthRateLimits(path.join(file, "missing"), {}).token_refresh).toBe(150);
  });

  it("counts sign-ups and password sign-ins together, refreshes apart", () => {
    const q = (s: string) => new URLSearchParams(s);
    expect(authRateBucket("POST", "/auth/v1/signup", q(""))).toBe("sign_in_sign_ups");
    expect(authRateBucket("POST", "/auth/v1/token", q("grant_type=password"))).toBe(
      "sign_in_sign_ups",
    );
    expect(authRateBucket("POST", "/auth/v1/token", q("grant_type=refresh_token"))).toBe(
      "token_refresh",
    );
    expect(authRateBucket("POST", "/auth/v1/verify", q(""))).toBe("token_verifications");
    expect(authRateBucket("GET", "/auth/v1/user", q(""))).toBeNull();
    expect(authRateBucket("POST", "/auth/v1/logout", q(""))).toBeNull();
  });

  it("allows `limit` requests per key at once and refills them over the window", () => {
    let now = 0;
    const limiter = new RateLimiter(3, 300_000, () => now);
    expect([1, 2, 3, 4].map(() => limiter.take("1.2.3.4"))).toEqual([true, true, true, false]);
    expect(limiter.take("5.6.7.8")).toBe(true);
    expect(limiter.retryAfter("1.2.3.4")).toBe(100);
    now += 100_000;
    expect(limiter.take("1.2.3.4")).toBe(true);
    expect(limiter.take("1.2.3.4")).toBe(false);
  });
});
