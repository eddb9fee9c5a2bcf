import { describe, expect, it } from "vitest";
import { supabaseMock } from "@/testing/supabase-mock";
import { promoteSelf, PromotionError, toPromotionFailure } from "./promote-self";
import { toRequestError } from "@/lib/session-expired";

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PromotionError);
    return (error as PromotionError).failure;
  }
  throw new Error("expected a failure");
}

describe("promoteSelf", () => {
  it("returns the new plan on success", async () => {
    supabaseMock.setRpc("promote_self", { data: "enterprise", error: null, status: 200 });
    await expect(promoteSelf({ secret: "right" })).resolves.toBe("enterprise");
    expect(supabaseMock.client.rpc).toHaveBeenCalledWith("promote_self", { secret: "right" });
  });

  it("reads a null answer as a wrong secret", async () => {
    supabaseMock.setRpc("promote_self", { data: null, error: null, status: 200 });
    expect(await failure(promoteSelf({ secret: "wrong" }))).toEqual({ kind: "wrongSecret" });
  });

  it("reads PT429 as the rate limit", async () => {
    supabaseMock.setRpc("promote_self", {
      data: null,
      error: { message: "Too many attempts. Try again in 15 minutes.", code: "PT429" },
      status: 429,
    });
    expect(await failure(promoteSelf({ secret: "x" }))).toEqual({ kind: "rateLimited" });
  });

  it("tells a network failure from a server error", () => {
    expect(
      toPromotionFailure(toRequestError({ message: "TypeError: Failed to fetch" }, 0)),
    ).toEqual({
      kind: "network",
      message: "TypeError: Failed to fetch",
    });
    expect(
      toPromotionFailure(
        toRequestError({ message: "Admin self-promotion is disabled", code: "PT403" }, 403),
      ),
    ).toEqual({
      kind: "server",
      message: "Admin self-promotion is disabled",
    });
  });
});
