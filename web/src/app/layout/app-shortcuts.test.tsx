import { act, screen, waitFor } from "@testing-library/react";
import { Route, Routes, useLocation } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { renderWithProviders } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { AppShortcuts } from "./app-shortcuts";

function press(key: string) {
  act(() => {
    document.body.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
  });
}

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderShortcuts() {
  return renderWithProviders(
    <>
      <AppShortcuts />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </>,
    { route: "/profile" },
  );
}

/** Holds the `profiles` read until `release` is called (a slow network, a busy phone). */
function holdProfileRead() {
  const from = supabaseMock.client.from;
  const original = from.getMockImplementation()!;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  from.mockImplementation((table: string) => {
    const builder = original(table);
    if (table !== "profiles") return builder;
    const held = {
      select: (...args: unknown[]) => (builder.select(...(args as [])), held),
      eq: (column?: string, value?: unknown) => (builder.eq(column, value), held),
      maybeSingle: () => (builder.maybeSingle(), held),
      then: <T,>(resolve: (value: unknown) => T, reject?: (reason: unknown) => T) =>
        gate.then(() => builder.then(resolve, reject)),
    };
    return held as unknown as typeof builder;
  });
  return {
    release,
    restore: () => from.mockImplementation(original),
  };
}

describe("AppShortcuts", () => {
  let restore = () => {};
  afterEach(() => restore());

  it("g c pressed before a subscriber's profile is read goes to the charts once it is", async () => {
    supabaseMock.signInWithProfile("trader@example.com", {
      plan: "pro",
      subscription_active: true,
    });
    const hold = holdProfileRead();
    restore = hold.restore;
    renderShortcuts();
    await waitFor(() => expect(supabaseMock.client.from).toHaveBeenCalledWith("profiles"));

    press("g");
    press("c");
    // Not refused while the plan is unknown.
    expect(screen.getByTestId("live-announcer")).not.toHaveTextContent("not available");
    expect(screen.getByTestId("where")).toHaveTextContent("/profile");

    act(() => hold.release());
    await waitFor(() => expect(screen.getByTestId("where")).toHaveTextContent("/charts"));
    await waitFor(() =>
      expect(screen.getByTestId("live-announcer")).toHaveTextContent("Opening Charts"),
    );
  });

  it("a reader without a plan hears why not, once the profile says so", async () => {
    supabaseMock.signInWithProfile("free@example.com", { plan: "none" });
    const hold = holdProfileRead();
    restore = hold.restore;
    renderShortcuts();
    await waitFor(() => expect(supabaseMock.client.from).toHaveBeenCalledWith("profiles"));

    press("g");
    press("c");
    act(() => hold.release());
    await waitFor(() =>
      expect(screen.getByTestId("live-announcer")).toHaveTextContent(
        "Charts is not available with your account",
      ),
    );
    expect(screen.getByTestId("where")).toHaveTextContent("/profile");
  });

  it("a subscriber whose profile is read goes at once", async () => {
    supabaseMock.signInWithProfile("trader@example.com", {
      plan: "pro",
      subscription_active: true,
    });
    renderShortcuts();
    await waitFor(() => expect(supabaseMock.client.from).toHaveBeenCalledWith("profiles"));
    // The profile's arrival is rendered before the keys.
    await act(async () => {});
    press("g");
    press("s");
    await waitFor(() => expect(screen.getByTestId("where")).toHaveTextContent("/support"));
  });
});
