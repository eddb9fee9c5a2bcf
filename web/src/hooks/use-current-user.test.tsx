import { QueryClientProvider } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { createTestQueryClient } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { useCurrentUser } from "./use-current-user";

function renderCurrentUser() {
  const client = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useCurrentUser(), { wrapper });
}

async function settled() {
  const { result } = renderCurrentUser();
  await waitFor(() => expect(result.current.isPending).toBe(false));
  return result.current;
}

describe("useCurrentUser", () => {
  it("is a visitor without a session and reads no profile", async () => {
    const viewer = await settled();
    expect(viewer).toMatchObject({
      user: null,
      profile: null,
      isSubscriber: false,
      isAdmin: false,
    });
    expect(supabaseMock.client.from).not.toHaveBeenCalled();
  });

  it("reads the own profile row of a logged-in user", async () => {
    supabaseMock.signInWithProfile("free@example.com", { username: "freddy" });
    const viewer = await settled();
    expect(viewer.user?.email).toBe("free@example.com");
    expect(viewer.profile?.username).toBe("freddy");
    expect(viewer.isSubscriber).toBe(false);
    expect(supabaseMock.client.from).toHaveBeenCalledWith("profiles");
  });

  it.each([
    [{ plan: "basic", subscription_active: true }, true],
    [{ plan: "enterprise", subscription_active: true }, true],
    [{ plan: "pro", subscription_active: false }, false],
    [{ plan: "none", subscription_active: true }, false],
    [{ plan: "pro", subscription_active: true, banned: true }, false],
  ] as const)("counts %o as subscriber: %s", async (profile, expected) => {
    supabaseMock.signInWithProfile("u@example.com", profile);
    expect((await settled()).isSubscriber).toBe(expected);
  });

  it("recognises an admin", async () => {
    supabaseMock.signInWithProfile("admin@example.com", { role: "admin" });
    expect((await settled()).isAdmin).toBe(true);
  });

  it("does not treat a banned admin as admin", async () => {
    supabaseMock.signInWithProfile("admin@example.com", { role: "admin", banned: true });
    expect((await settled()).isAdmin).toBe(false);
  });
});
