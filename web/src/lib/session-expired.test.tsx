import { act, render, renderHook, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { toast } from "sonner";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Toaster } from "@/components/ui/sonner";
import {
  handleSessionExpired,
  isSessionExpiredError,
  toRequestError,
  useSessionExpiredHandler,
} from "./session-expired";

const texts = { title: "Session expired", description: "Please login again to save settings" };

describe("isSessionExpiredError", () => {
  it("recognises a 401 from PostgREST and from an edge function", () => {
    expect(isSessionExpiredError(toRequestError({ message: "Unauthorized" }, 401))).toBe(true);
    const functionsError = Object.assign(new Error("Edge Function returned a non-2xx status"), {
      name: "FunctionsHttpError",
      context: new Response("{}", { status: 401 }),
    });
    expect(isSessionExpiredError(functionsError)).toBe(true);
  });

  it("recognises a missing session and the PostgREST JWT errors", () => {
    const missing = Object.assign(new Error("Auth session missing!"), {
      name: "AuthSessionMissingError",
      status: 400,
    });
    expect(isSessionExpiredError(missing)).toBe(true);
    expect(isSessionExpiredError({ code: "PGRST301", message: "JWSError" })).toBe(true);
    expect(isSessionExpiredError({ code: "PGRST303", message: "JWT expired" })).toBe(true);
    expect(isSessionExpiredError(new Error("JWT expired"))).toBe(true);
  });

  it("leaves other failures to the caller", () => {
    expect(isSessionExpiredError(toRequestError({ message: "x", code: "23514" }, 400))).toBe(false);
    expect(isSessionExpiredError({ context: new Response("", { status: 500 }) })).toBe(false);
    expect(isSessionExpiredError(new Error("Failed to fetch"))).toBe(false);
    expect(isSessionExpiredError(null)).toBe(false);
    expect(isSessionExpiredError("401")).toBe(false);
  });
});

describe("handleSessionExpired", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    toast.dismiss();
  });

  it("shows the toast and opens the login page after 2 s, coming back afterwards", async () => {
    render(<Toaster />);
    const navigate = vi.fn();
    let handled = false;
    act(() => {
      handled = handleSessionExpired(toRequestError({ message: "JWT expired" }, 401), {
        navigate,
        currentPath: "/dashboard/settings?tab=alerts",
        ...texts,
      });
    });
    expect(handled).toBe(true);

    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText("Session expired")).toBeInTheDocument();
    expect(screen.getByText("Please login again to save settings")).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(navigate).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(navigate).toHaveBeenCalledOnce();
    expect(navigate).toHaveBeenCalledWith(
      "/auth/login?redirect=/dashboard/settings%3Ftab%3Dalerts",
    );
  });

  it("does nothing for other errors", async () => {
    const navigate = vi.fn();
    const handled = handleSessionExpired(toRequestError({ message: "boom" }, 500), {
      navigate,
      currentPath: "/profile",
      ...texts,
    });
    expect(handled).toBe(false);
    await vi.advanceTimersByTimeAsync(5000);
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe("useSessionExpiredHandler", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    toast.dismiss();
  });

  it("redirects from the current route to the login page with the redirect parameter", async () => {
    let location = "";
    function LocationProbe() {
      const current = useLocation();
      location = `${current.pathname}${current.search}`;
      return null;
    }
    const wrapper = ({ children }: { children: ReactNode }) => (
      <MemoryRouter initialEntries={["/profile"]}>
        <Routes>
          <Route path="*" element={children} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    );
    const { result } = renderHook(() => useSessionExpiredHandler(texts), { wrapper });

    act(() => {
      expect(result.current({ status: 401 })).toBe(true);
    });
    expect(location).toBe("/profile");
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(location).toBe("/auth/login?redirect=/profile");
  });
});
