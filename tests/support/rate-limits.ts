// Auth's per-IP limits for the test stacks: the suites sign up and sign in hundreds of accounts
// from 127.0.0.1, so they raise the limits; tests/security proves the defaults on a stack of
// its own (see tests/security/rate-limits.test.ts).
import type { AuthRateLimits } from "../../devstack/rate-limit.ts";

export const TEST_AUTH_RATE_LIMITS: AuthRateLimits = {
  sign_in_sign_ups: 100_000,
  token_refresh: 100_000,
  token_verifications: 100_000,
};
