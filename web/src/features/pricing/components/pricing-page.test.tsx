import { FunctionsFetchError, FunctionsHttpError } from "@supabase/supabase-js";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { assignLocation } from "@/lib/browser-location";
import { renderRoute } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";

vi.mock("@/lib/browser-location", () => ({ assignLocation: vi.fn() }));

beforeEach(() => {
  vi.mocked(assignLocation).mockClear();
});

/** The card (list item) of a plan, found by its heading. */
async function card(name: "Basic" | "Pro" | "Enterprise") {
  const heading = await screen.findByRole("heading", { level: 2, name });
  return within(heading.closest("li")!);
}

const planButtons = () =>
  ["Basic", "Pro", "Enterprise"].map((name) =>
    screen.getByRole("heading", { level: 2, name }).closest("li")!.querySelector("button")!,
  );

async function openLoggedIn(profile = {}) {
  supabaseMock.signInWithProfile("trader@example.com", profile);
  const rendered = renderRoute("/pricing");
  expect(await screen.findByText("trader@example.com")).toBeInTheDocument();
  // Wait for the profile: until then the buttons are locked.
  await waitFor(() =>
    expect(
      screen.getAllByRole("button", { name: /^(Start Now|Upgrade|Downgrade|Keep \w+)$/ })[0],
    ).toBeEnabled(),
  );
  return rendered;
}

describe("PricingPage", () => {
  it("shows three plans with monthly euro prices, windows and the Pro badge", async () => {
    renderRoute("/pricing");

    expect(
      await screen.findByRole("heading", { level: 1, name: "Choose your plan" }),
    ).toBeInTheDocument();
    const basic = await card("Basic");
    expect(basic.getByText("€29")).toBeInTheDocument();
    expect(basic.getByText("Fixed 30-minute window")).toBeInTheDocument();
    expect(basic.queryByText("Most Popular")).not.toBeInTheDocument();

    const pro = await card("Pro");
    expect(pro.getByText("€69")).toBeInTheDocument();
    expect(pro.getByText("15–30 minute windows")).toBeInTheDocument();
    expect(pro.getByText("Most Popular")).toBeInTheDocument();
    expect(pro.getByText("Priority support")).toBeInTheDocument();

    const enterprise = await card("Enterprise");
    expect(enterprise.getByText("€99")).toBeInTheDocument();
    expect(enterprise.getByText("10 seconds to 30 minutes")).toBeInTheDocument();
    expect(enterprise.getByText("Personalized alerts (Discord, Telegram)")).toBeInTheDocument();

    expect(screen.getAllByRole("button", { name: "Start Now" })).toHaveLength(3);
  });

  it("asks a visitor to log in and sends them to the login page", async () => {
    const { router } = renderRoute("/pricing");
    const pro = await card("Pro");
    await waitFor(() => expect(pro.getByRole("button", { name: "Start Now" })).toBeEnabled());

    fireEvent.click(pro.getByRole("button", { name: "Start Now" }));

    expect(await screen.findByText("Login Required")).toBeInTheDocument();
    expect(
      screen.getByText("Please log in or register to subscribe to a plan."),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth/login"));
    expect(new URLSearchParams(router.state.location.search).get("redirect")).toBe("/pricing");
    expect(supabaseMock.client.functions.invoke).not.toHaveBeenCalled();
  });

  it("reads 'Activating...' on the chosen plan and disables every plan button while pending", async () => {
    let finish: (value: { data: unknown; error: unknown }) => void = () => {};
    supabaseMock.setFunction("checkout", () => new Promise((resolve) => (finish = resolve)));
    await openLoggedIn();

    fireEvent.click((await card("Enterprise")).getByRole("button", { name: "Start Now" }));

    expect(await screen.findByRole("button", { name: "Activating..." })).toBeDisabled();
    expect(planButtons()).toHaveLength(3);
    for (const button of planButtons()) expect(button).toBeDisabled();
    expect(supabaseMock.client.functions.invoke).toHaveBeenCalledWith("checkout", {
      body: { plan: "enterprise" },
    });

    finish({ data: null, error: null });
    await waitFor(() => expect(planButtons().every((button) => !button.disabled)).toBe(true));
  });

  it("goes to the payment page when the checkout answers with a sessionUrl", async () => {
    supabaseMock.setFunction("checkout", {
      data: { sessionUrl: "https://pay.example/session/cs_123" },
      error: null,
    });
    await openLoggedIn();

    fireEvent.click((await card("Pro")).getByRole("button", { name: "Start Now" }));

    await waitFor(() =>
      expect(assignLocation).toHaveBeenCalledWith("https://pay.example/session/cs_123"),
    );
    // The browser is leaving: the buttons stay locked.
    for (const button of planButtons()) expect(button).toBeDisabled();
  });

  it("shows 'Checkout Error' when the answer has no sessionUrl", async () => {
    supabaseMock.setFunction("checkout", { data: {}, error: null });
    await openLoggedIn();

    fireEvent.click((await card("Basic")).getByRole("button", { name: "Start Now" }));

    expect(await screen.findByText("Checkout Error")).toBeInTheDocument();
    expect(
      screen.getByText("Could not create payment session. Please contact support."),
    ).toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it("shows 'Payment Error' with the server's message when the call fails", async () => {
    supabaseMock.setFunction("checkout", {
      data: null,
      error: new FunctionsHttpError(
        new Response(JSON.stringify({ message: "Your account is banned" }), { status: 403 }),
      ),
    });
    await openLoggedIn();

    fireEvent.click((await card("Pro")).getByRole("button", { name: "Start Now" }));

    expect(await screen.findByText("Payment Error")).toBeInTheDocument();
    expect(screen.getByText("Your account is banned")).toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it("falls back to 'Payment system unavailable' without a server message", async () => {
    supabaseMock.setFunction("checkout", {
      data: null,
      error: new FunctionsFetchError(new TypeError("Failed to fetch")),
    });
    await openLoggedIn();

    fireEvent.click((await card("Pro")).getByRole("button", { name: "Start Now" }));

    expect(await screen.findByText("Payment Error")).toBeInTheDocument();
    expect(
      screen.getByText("Payment system unavailable. Please try again later."),
    ).toBeInTheDocument();
  });

  it("tells a user who backed out of the payment page that nothing was charged", async () => {
    const { router } = renderRoute("/pricing?checkout=cancelled");

    expect(await screen.findByText("Checkout cancelled")).toBeInTheDocument();
    expect(screen.getByText("You have not been charged.")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("marks a subscriber's current plan and opens the billing portal", async () => {
    supabaseMock.setFunction("billing-portal", {
      data: { url: "https://pay.example/portal/bps_1" },
      error: null,
    });
    await openLoggedIn({ plan: "pro", subscription_active: true });

    const pro = await card("Pro");
    await waitFor(() => expect(pro.getByRole("button", { name: "Current plan" })).toBeDisabled());
    expect(screen.getByText("You are subscribed to the Pro plan.")).toBeInTheDocument();
    expect((await card("Basic")).queryByText("Current plan")).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "Manage subscription" }));

    await waitFor(() =>
      expect(assignLocation).toHaveBeenCalledWith("https://pay.example/portal/bps_1"),
    );
    expect(supabaseMock.client.functions.invoke).toHaveBeenCalledWith("billing-portal", undefined);
  });

  it("shows a billing portal failure as a toast", async () => {
    supabaseMock.setFunction("billing-portal", {
      data: null,
      error: new FunctionsHttpError(
        new Response(JSON.stringify({ error: "No billing account yet" }), { status: 409 }),
      ),
    });
    await openLoggedIn({ plan: "basic", subscription_active: true });

    fireEvent.click(await screen.findByRole("button", { name: "Manage subscription" }));

    expect(await screen.findByText("No billing account yet")).toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it("does not mark a plan whose subscription is inactive", async () => {
    await openLoggedIn({ plan: "pro", subscription_active: false });
    expect(screen.queryByText("Current plan")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Manage subscription" })).not.toBeInTheDocument();
  });

  it("offers a subscriber Upgrade and Downgrade on the other plans, never Start Now", async () => {
    await openLoggedIn({ plan: "pro", subscription_active: true });
    expect((await card("Basic")).getByRole("button", { name: "Downgrade" })).toBeEnabled();
    expect((await card("Enterprise")).getByRole("button", { name: "Upgrade" })).toBeEnabled();
    expect((await card("Pro")).getByRole("button", { name: "Current plan" })).toBeDisabled();
    expect(screen.queryByRole("button", { name: "Start Now" })).not.toBeInTheDocument();
    expect(
      screen.getByText("Takes effect at the end of your current billing period."),
    ).toBeInTheDocument();
  });

  it("an upgrade calls change-plan and lands on the dashboard", async () => {
    supabaseMock.setFunction("change-plan", {
      data: { plan: "enterprise", effective: "now" },
      error: null,
    });
    const { router } = await openLoggedIn({ plan: "pro", subscription_active: true });
    fireEvent.click((await card("Enterprise")).getByRole("button", { name: "Upgrade" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(supabaseMock.client.functions.invoke).toHaveBeenCalledWith("change-plan", {
      body: { plan: "enterprise" },
    });
    expect(supabaseMock.client.functions.invoke).not.toHaveBeenCalledWith(
      "checkout",
      expect.anything(),
    );
    expect(await screen.findByText("You are now on Enterprise")).toBeInTheDocument();
  });

  it("a downgrade says when it takes effect", async () => {
    supabaseMock.setFunction("change-plan", {
      data: { plan: "basic", effective: "period_end", at: "2026-12-21T09:30:00.000Z" },
      error: null,
    });
    await openLoggedIn({ plan: "pro", subscription_active: true, time_zone: "UTC" });
    fireEvent.click((await card("Basic")).getByRole("button", { name: "Downgrade" }));
    expect(await screen.findByText("Plan change scheduled")).toBeInTheDocument();
    expect(
      screen.getByText("You move to Basic on December 21, 2026. Until then nothing changes."),
    ).toBeInTheDocument();
  });

  it("shows a waiting downgrade: its date, and Keep on the current plan", async () => {
    supabaseMock.setTable("billing_subscriptions", {
      data: [{ pending_plan: "basic", pending_plan_at: "2026-12-21T09:30:00.000Z" }],
      error: null,
    });
    await openLoggedIn({ plan: "pro", subscription_active: true, time_zone: "UTC" });
    expect(
      await screen.findByText(
        "Your plan changes to Basic on December 21, 2026. Until then you keep Pro.",
      ),
    ).toBeInTheDocument();
    expect(
      (await card("Basic")).getByRole("button", { name: "Starts December 21, 2026" }),
    ).toBeDisabled();
    expect((await card("Pro")).getByRole("button", { name: "Keep Pro" })).toBeEnabled();
  });

  it("translates a refused change by its code, never as a Payment Error", async () => {
    supabaseMock.setFunction("change-plan", {
      data: null,
      error: new FunctionsHttpError(
        new Response(JSON.stringify({ error: "too_many_plan_changes", message: "server words" }), {
          status: 429,
        }),
      ),
    });
    await openLoggedIn({ plan: "basic", subscription_active: true });
    fireEvent.click((await card("Pro")).getByRole("button", { name: "Upgrade" }));
    expect(await screen.findByText("Plan not changed")).toBeInTheDocument();
    expect(
      screen.getByText("You have changed plans too often. Please wait an hour and try again."),
    ).toBeInTheDocument();
    expect(screen.queryByText("Payment Error")).not.toBeInTheDocument();
  });
});
