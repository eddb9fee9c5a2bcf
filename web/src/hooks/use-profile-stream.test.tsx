import { QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { profileQueryKey } from "@/lib/profile-query";
import { createTestQueryClient } from "@/testing/render";
import { supabaseMock, TEST_USER_ID } from "@/testing/supabase-mock";
import { useProfileStream } from "./use-profile-stream";

describe("useProfileStream", () => {
  it("joins the user's own topic and refetches the profile on a change", async () => {
    const queryClient = createTestQueryClient();
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");
    const onChanged = vi.fn();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    renderHook(() => useProfileStream(TEST_USER_ID, onChanged), { wrapper });

    await waitFor(() => expect(supabaseMock.lastChannel(`user:${TEST_USER_ID}`)).toBeDefined());
    const channel = supabaseMock.lastChannel(`user:${TEST_USER_ID}`);
    expect(channel.params).toEqual({ config: { private: true } });
    act(() => channel.emit("SUBSCRIBED"));
    act(() => channel.broadcast("profile_changed", { banned: true, plan: "pro" }));

    expect(invalidate).toHaveBeenCalledWith({ queryKey: profileQueryKey });
    expect(onChanged).toHaveBeenCalledWith({ banned: true, plan: "pro" });
  });

  it("joins nothing when logged out", () => {
    const queryClient = createTestQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    renderHook(() => useProfileStream(null), { wrapper });
    expect(supabaseMock.channels).toHaveLength(0);
  });
});
