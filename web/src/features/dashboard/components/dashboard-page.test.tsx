import type { MoverEntry } from "@domain/realtime";
import { moverEntry } from "@/testing/movers";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Toaster } from "@/components/ui/sonner";
import { i18n } from "@/i18n/i18n";
import type { Profile } from "@/lib/profile-query";
import { createTestQueryClient } from "@/testing/render";
import { supabaseMock, TEST_USER_ID } from "@/testing/supabase-mock";
import { setViewportWidth } from "@/testing/viewport";
import { MIN_PERCENT_STORAGE_KEY, resetDashboardFilters } from "../stores/filters-store";
import { WINDOW_HINT_STORAGE_KEY } from "../utils/window-hint";
import { DashboardPage } from "./dashboard-page";

let nextId = 1;
function mover(overrides: Partial<MoverEntry> = {}): MoverEntry {
  return moverEntry(nextId++, overrides);
}

function renderDashboard({
  profile = {},
  movers = [mover()],
  route = "/dashboard",
  feed,
}: {
  profile?: Partial<Profile>;
  movers?: MoverEntry[];
  route?: string;
  /** The feed's answer when it is not `movers` at once (e.g. a promise the test settles). */
  feed?: () => Promise<{ data: MoverEntry[]; error: null }>;
} = {}) {
  supabaseMock.signInWithProfile("ada@example.com", {
    plan: "pro",
    subscription_active: true,
    selected_window_minutes: 15,
    user_threshold: 0,
    ...profile,
  });
  supabaseMock.setRpc("movers_feed", feed ?? { data: movers, error: null });
  const queryClient = createTestQueryClient();
  const router = createMemoryRouter(
    [
      { path: "/dashboard", element: <DashboardPage /> },
      { path: "/dashboard/settings", element: <p>Settings page</p> },
      { path: "/auth/login", element: <p>Login page</p> },
    ],
    { initialEntries: [route] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { router, queryClient };
}

const table = () => screen.getByRole("table");
const symbols = () =>
  within(table())
    .getAllByRole("rowheader")
    .map((cell) => cell.textContent);
const summary = () => screen.getByTestId("live-summary").textContent;
const windowSelect = () => screen.getByRole("combobox", { name: "Time Window" });

async function ready() {
  await screen.findByRole("heading", { name: "Top Gainers" });
  // The frame is drawn while the profile is read; the plan's selector replaces its placeholder.
  await waitFor(() => expect(screen.queryByTestId("window-pending")).not.toBeInTheDocument());
}
async function tableReady() {
  await screen.findByRole("table");
  // The rows render in a transition (decision 0095): its effects (the clock's subscription) run a
  // moment after the commit, and the stream is joined once the browser is idle after the rows.
  await streamJoined();
}
/** The movers stream is joined after the first rows (decision 0095). */
async function streamJoined() {
  await waitFor(() =>
    expect(supabaseMock.channels.some((c) => c.topic.startsWith("market:movers:"))).toBe(true),
  );
  await act(async () => {});
}

beforeEach(() => {
  resetDashboardFilters();
});
afterEach(() => {
  vi.useRealTimers();
  resetDashboardFilters();
});

describe("DashboardPage: plan and window", () => {
  it("shows the plan badge and basic's fixed window", async () => {
    renderDashboard({ profile: { plan: "basic", selected_window_minutes: 30 } });
    await ready();
    expect(screen.getByText("Plan: Basic")).toBeInTheDocument();
    expect(screen.getByText("Fixed: 30 min")).toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: "Time Window" })).not.toBeInTheDocument();
    expect(supabaseMock.client.rpc).toHaveBeenCalledWith("movers_feed", { window_minutes: 30 });
  });

  it("offers pro 15 to 30 minutes and reads the feed of the stored window", async () => {
    renderDashboard({ profile: { plan: "pro", selected_window_minutes: 20 } });
    await ready();
    expect(
      within(windowSelect())
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["15 minutes", "20 minutes", "25 minutes", "30 minutes"]);
    expect(windowSelect()).toHaveValue("20");
    expect(supabaseMock.client.rpc).toHaveBeenCalledWith("movers_feed", { window_minutes: 20 });
    await streamJoined();
    expect(supabaseMock.lastChannel().topic).toBe("market:movers:20");
  });

  it("offers enterprise the 10-second window", async () => {
    renderDashboard({ profile: { plan: "enterprise", selected_window_minutes: 0 } });
    await ready();
    const options = within(windowSelect())
      .getAllByRole("option")
      .map((o) => o.textContent);
    expect(options[0]).toBe("10 seconds");
    expect(options).toHaveLength(7);
    expect(windowSelect()).toHaveValue("0");
  });

  it("disables the selector while the subscription is inactive", async () => {
    renderDashboard({ profile: { plan: "pro", subscription_active: false } });
    await ready();
    expect(windowSelect()).toBeDisabled();
  });

  it("saves a new window and confirms it", async () => {
    renderDashboard();
    await ready();
    fireEvent.change(windowSelect(), { target: { value: "25" } });
    expect(await screen.findByText("Time window updated")).toBeInTheDocument();
    expect(screen.getByText("Filter set to 25 minutes.")).toBeInTheDocument();
    expect(supabaseMock.updates).toEqual([
      {
        table: "profiles",
        values: { selected_window_minutes: 25 },
        filters: [["id", TEST_USER_ID]],
      },
    ]);
  });

  it("reports a refused save and reloads the profile", async () => {
    renderDashboard();
    await ready();
    supabaseMock.setTableUpdate("profiles", {
      data: null,
      error: { message: "window not offered", code: "23514", hint: "15, 20, 25, 30" },
      status: 400,
    });
    const profileReads = () =>
      vi.mocked(supabaseMock.client.from).mock.calls.filter(([t]) => t === "profiles").length;
    const before = profileReads();
    fireEvent.change(windowSelect(), { target: { value: "30" } });
    expect(await screen.findByText("Could not save time window.")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    // The update, then the refetch of the invalidated profile.
    await waitFor(() => expect(profileReads()).toBeGreaterThanOrEqual(before + 2));
  });

  it("sends an expired session to the login page", async () => {
    const { router } = renderDashboard();
    await ready();
    supabaseMock.setTableUpdate("profiles", {
      data: null,
      error: { message: "JWT expired", code: "PGRST301" },
      status: 401,
    });
    fireEvent.change(windowSelect(), { target: { value: "30" } });
    expect(await screen.findByText("Session expired")).toBeInTheDocument();
    expect(screen.getByText("Please login again to save settings")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth/login"), {
      timeout: 3000,
    });
  });
});

describe("DashboardPage: filters", () => {
  const list = () => [
    mover({ symbol: "UP/USDT", pct: 12 }),
    mover({ symbol: "DOWN/USDT", pct: -30 }),
    mover({ symbol: "SMALL/USDT", pct: 3 }),
  ];

  it("shows gains or losses only", async () => {
    renderDashboard({ movers: list() });
    await tableReady();
    expect(symbols()).toEqual(["UP/USDT", "DOWN/USDT", "SMALL/USDT"]);
    fireEvent.click(screen.getByRole("button", { name: "Gains +" }));
    expect(symbols()).toEqual(["UP/USDT", "SMALL/USDT"]);
    fireEvent.click(screen.getByRole("button", { name: "Losses -" }));
    expect(symbols()).toEqual(["DOWN/USDT"]);
    expect(summary()).toBe("3 entries · 1 shown · 1 sources · 0 networks");
    fireEvent.click(
      within(screen.getByRole("group", { name: "Direction" })).getByRole("button", { name: "All" }),
    );
    expect(symbols()).toHaveLength(3);
  });

  it("hides moves below the minimum percent and remembers it", async () => {
    renderDashboard({ movers: list() });
    await tableReady();
    const input = screen.getByRole("spinbutton", { name: "Minimum %" });
    expect(input).toHaveAttribute("step", "5");
    expect(input).toHaveAttribute("max", "1000");
    fireEvent.change(input, { target: { value: "10" } });
    expect(symbols()).toEqual(["UP/USDT", "DOWN/USDT"]);
    expect(localStorage.getItem(MIN_PERCENT_STORAGE_KEY)).toBe("10");

    fireEvent.change(input, { target: { value: "abc" } });
    expect(symbols()).toHaveLength(3);
    expect(localStorage.getItem(MIN_PERCENT_STORAGE_KEY)).toBe("0");
  });

  it("starts from the stored minimum percent", async () => {
    localStorage.setItem(MIN_PERCENT_STORAGE_KEY, "20");
    resetDashboardFilters();
    renderDashboard({ movers: list() });
    await tableReady();
    expect(screen.getByRole("spinbutton", { name: "Minimum %" })).toHaveValue(20);
    expect(symbols()).toEqual(["DOWN/USDT"]);
  });

  it("names the threshold when it hides everything, shows all in one click and applies it again", async () => {
    const { router } = renderDashboard({ movers: list(), profile: { user_threshold: 40 } });
    const empty = await screen.findByTestId("filtered-empty");
    expect(empty).toHaveTextContent("3 movers are below your alert threshold of 40 %.");
    fireEvent.click(within(empty).getByRole("button", { name: "Show all" }));
    expect(symbols()).toEqual(["UP/USDT", "DOWN/USDT", "SMALL/USDT"]);
    expect(
      screen.getByText("Showing every mover, also those below your alert threshold of 40 %."),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Apply my threshold" }));
    expect(await screen.findByTestId("filtered-empty")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("link", { name: "Change the threshold in Settings" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/settings"));
  });

  it("names the minimum when it alone hides everything and clears it in one click", async () => {
    renderDashboard({ movers: list(), profile: { user_threshold: 5 } });
    await tableReady();
    fireEvent.change(screen.getByRole("spinbutton", { name: "Minimum %" }), {
      target: { value: "50" },
    });
    const empty = screen.getByTestId("filtered-empty");
    expect(empty).toHaveTextContent("2 movers are below your minimum of 50 %.");
    fireEvent.click(within(empty).getByRole("button", { name: "Clear the minimum" }));
    expect(symbols()).toEqual(["UP/USDT", "DOWN/USDT"]);
    expect(localStorage.getItem(MIN_PERCENT_STORAGE_KEY)).toBe("0");
  });

  it("names both limits when only lifting both shows entries", async () => {
    renderDashboard({ movers: list(), profile: { user_threshold: 40 } });
    await screen.findByTestId("filtered-empty");
    fireEvent.change(screen.getByRole("spinbutton", { name: "Minimum %" }), {
      target: { value: "35" },
    });
    const empty = screen.getByTestId("filtered-empty");
    expect(empty).toHaveTextContent(
      "3 movers are below your alert threshold of 40 % or your minimum of 35 %.",
    );
    fireEvent.click(within(empty).getByRole("button", { name: "Show all" }));
    expect(symbols()).toHaveLength(3);
  });

  it("applies the user's own threshold", async () => {
    renderDashboard({ movers: list(), profile: { user_threshold: 5 } });
    await tableReady();
    expect(symbols()).toEqual(["UP/USDT", "DOWN/USDT"]);
    expect(summary()).toBe("3 entries · 2 shown · 1 sources · 0 networks");
  });

  it("shows buttons for two sources and a multi-select for more networks", async () => {
    renderDashboard({
      movers: [
        mover({ symbol: "BTC/USDT" }),
        mover({
          symbol: "PEPE/WETH",
          exchange: "Uniswap V3 (ethereum)",
          exchange_type: "dex",
          network: "ethereum",
        }),
        mover({
          symbol: "BRETT/WETH",
          exchange: "Aerodrome (base)",
          exchange_type: "dex",
          network: "base",
        }),
        mover({
          symbol: "BONK/SOL",
          exchange: "Raydium (solana)",
          exchange_type: "dex",
          network: "solana",
        }),
      ],
    });
    await tableReady();
    expect(summary()).toBe("4 entries · 4 shown · 4 sources · 3 networks");

    const source = screen.getByRole("group", { name: "Source" });
    fireEvent.click(within(source).getByRole("button", { name: "CEX" }));
    expect(symbols()).toEqual(["BTC/USDT"]);
    fireEvent.click(within(source).getByRole("button", { name: "All" }));
    expect(symbols()).toHaveLength(4);

    expect(screen.queryByRole("group", { name: "Network" })).not.toBeInTheDocument();
    const network = screen.getByRole("button", { name: "Network: All" });
    fireEvent.click(network);
    const panel = screen.getByRole("dialog", { name: "Network" });
    fireEvent.change(within(panel).getByRole("searchbox"), { target: { value: "so" } });
    expect(within(panel).getAllByRole("checkbox")).toHaveLength(1);
    fireEvent.click(within(panel).getByRole("checkbox", { name: "solana" }));
    fireEvent.change(within(panel).getByRole("searchbox"), { target: { value: "" } });
    fireEvent.click(within(panel).getByRole("checkbox", { name: "base" }));
    expect(screen.getByRole("button", { name: "Network: 2 selected" })).toBeInTheDocument();
    expect(symbols()).toEqual(["BRETT/WETH", "BONK/SOL"]);

    fireEvent.keyDown(panel, { key: "Escape" });
    expect(screen.queryByRole("dialog", { name: "Network" })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "DEX: All" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Aerodrome" }));
    expect(screen.getByRole("button", { name: "DEX: 1 selected" })).toBeInTheDocument();
    expect(symbols()).toEqual(["BRETT/WETH"]);
    // Many role queries over a full table: slow in jsdom on a busy machine.
  }, 20_000);
});

describe("DashboardPage: the user's exchanges (selected_exchanges)", () => {
  const venues = () => [
    mover({ symbol: "BTC/USDT", exchange: "Binance", source: "binance", pct: 12 }),
    mover({ symbol: "ETH/USD", exchange: "Coinbase", source: "coinbase", pct: 9 }),
    mover({
      symbol: "PEPE/WETH",
      exchange: "Uniswap V3 (Ethereum)",
      exchange_type: "dex",
      network: "ethereum",
      source: "dex",
      pct: -15,
    }),
    // The simulated market imitates the same venues.
    mover({ symbol: "SOL/USD", exchange: "Coinbase", source: "simulated", pct: 4 }),
  ];

  it("shows every venue by default, without a hint", async () => {
    renderDashboard({ movers: venues() });
    await tableReady();
    expect(symbols()).toEqual(["BTC/USDT", "ETH/USD", "PEPE/WETH", "SOL/USD"]);
    expect(summary()).toBe("4 entries · 4 shown · 3 sources · 1 networks");
    expect(screen.queryByText(/Only entries from your exchanges/)).not.toBeInTheDocument();
  });

  it("hides entries of the exchanges left out, in the counts too, and says so", async () => {
    renderDashboard({ movers: venues(), profile: { selected_exchanges: ["coinbase", "dex"] } });
    await tableReady();
    expect(symbols()).toEqual(["ETH/USD", "PEPE/WETH", "SOL/USD"]);
    expect(summary()).toBe("4 entries · 3 shown · 3 sources · 1 networks");
    expect(
      screen.getByText(
        /Only entries from your exchanges are shown: Coinbase and DEX \(on-chain pools\)\./,
      ),
    ).toBeInTheDocument();
  });

  it("applies together with the threshold and the other filters", async () => {
    renderDashboard({
      movers: venues(),
      profile: { selected_exchanges: ["coinbase"], user_threshold: 5 },
    });
    await tableReady();
    expect(symbols()).toEqual(["ETH/USD"]);
    expect(summary()).toBe("4 entries · 1 shown · 3 sources · 1 networks");
    fireEvent.click(screen.getByRole("button", { name: "Losses -" }));
    // Both Coinbase entries rise: the direction filter is to blame, not the exchanges.
    expect(screen.getByText("Your filters hide all 2 movers.")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Choose exchanges in Settings" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Reset filters" }));
    expect(symbols()).toEqual(["ETH/USD"]);
  });

  it("says when the selection hides every entry and leads to the settings", async () => {
    const { router } = renderDashboard({
      movers: venues().filter((entry) => entry.exchange_type === "cex"),
      profile: { selected_exchanges: ["dex"] },
    });
    expect(
      await screen.findByText("None of the current entries comes from your selected exchanges."),
    ).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    expect(summary()).toBe("3 entries · 0 shown · 2 sources · 0 networks");
    const link = screen.getByRole("link", { name: "Choose exchanges in Settings" });
    expect(link).toHaveAttribute("href", "/dashboard/settings");
    fireEvent.click(link);
    expect(await screen.findByText("Settings page")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard/settings");
  });

  it("says when no exchange is selected at all", async () => {
    renderDashboard({ movers: venues(), profile: { selected_exchanges: [] } });
    expect(
      await screen.findByText("No exchange is selected, so no entries are shown."),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Choose exchanges in Settings" })).toBeInTheDocument();
  });

  it("speaks German", async () => {
    await i18n.changeLanguage("de");
    renderDashboard({ movers: venues(), profile: { selected_exchanges: ["cex-major"] } });
    await screen.findByRole("table");
    expect(
      screen.getByText(/Es werden nur Einträge deiner Börsen angezeigt: Große CEX \(Binance\)\./),
    ).toBeInTheDocument();
  });
});

describe("DashboardPage: list", () => {
  it("shows percent, prices, exchange, and Buy as a link or N/A", async () => {
    renderDashboard({
      movers: [
        mover({ symbol: "PEPE/WETH", pct: 12.345, pool_url: "https://example.com/pool/1" }),
        mover({ symbol: "LOSS/USDT", pct: -3.2, pool_url: null, exchange: "Coinbase" }),
      ],
    });
    await tableReady();
    const rows = within(table()).getAllByRole("row");
    expect(within(rows[0]).getByText("% (15 min)")).toBeInTheDocument();
    expect(within(rows[1]).getByText("+12.35%")).toHaveClass("text-success");
    expect(within(rows[1]).getAllByText("$1.500")).toHaveLength(1);
    expect(within(rows[1]).getByText("$1.200")).toBeInTheDocument();
    const buy = within(rows[1]).getByRole("link", { name: /Buy PEPE\/WETH on Binance/ });
    expect(buy).toHaveAttribute("href", "https://example.com/pool/1");
    expect(buy).toHaveAttribute("target", "_blank");
    expect(buy).toHaveAttribute("rel", "noopener noreferrer");
    expect(within(rows[2]).getByText("-3.20%")).toHaveClass("text-destructive");
    expect(within(rows[2]).getByText("N/A")).toBeInTheDocument();
    expect(within(rows[2]).queryByRole("link")).not.toBeInTheDocument();
    expect(within(rows[2]).getByText("Coinbase")).toBeInTheDocument();
  });

  it("shows each quote's data age on the venue's clock, every second, and marks rows older than the window", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const now = Date.now();
    renderDashboard({
      movers: [
        // The venue's quote time decides, not the ingest's.
        mover({
          symbol: "A/USDT",
          ts: new Date(now).toISOString(),
          quoted_at: new Date(now - 4_000).toISOString(),
        }),
        mover({ symbol: "B/USDT", ts: new Date(now - 5 * 60_000).toISOString() }),
        mover({ symbol: "C/USDT", ts: new Date(now - 3 * 3_600_000).toISOString() }),
        mover({ symbol: "D/USDT", ts: new Date(now - 2 * 86_400_000).toISOString() }),
      ],
    });
    await tableReady();
    const rows = () => within(table()).getAllByRole("row").slice(1);
    const ages = () => rows().map((row) => row.querySelector("time")?.textContent);
    expect(within(table()).getByRole("columnheader", { name: "Data age" })).toBeInTheDocument();
    expect(ages()).toEqual(["4 s", "5 min", "3 h", "2 d"]);
    // The 15-minute window: quotes of 3 hours and 2 days are stale, in words.
    expect(rows().map((row) => row.getAttribute("data-stale"))).toEqual([
      null,
      null,
      "true",
      "true",
    ]);
    expect(within(rows()[2]!).getByText("stale")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1000));
    expect(ages()[0]).toMatch(/^[56] s$/);
    act(() => vi.advanceTimersByTime(3000));
    expect(ages()[0]).toMatch(/^[89] s$/);
  });

  it("puts live entries on top", async () => {
    renderDashboard({ movers: [mover({ symbol: "OLD/USDT" })] });
    await tableReady();

    act(() =>
      supabaseMock.lastChannel().broadcast("movers", {
        window: 15,
        scanned_at: new Date().toISOString(),
        entries: [mover({ symbol: "NEW/USDT" })],
      }),
    );
    await waitFor(() => expect(symbols()).toEqual(["NEW/USDT", "OLD/USDT"]));
  });

  it("shows the empty state while there is no data", async () => {
    renderDashboard({ movers: [] });
    expect(await screen.findByText("No data yet")).toBeInTheDocument();
    expect(screen.getByText("Waiting for live data…")).toBeInTheDocument();
    expect(screen.getByText("Scanner active")).toBeInTheDocument();
    expect(screen.queryByText("Simulated market data (offline mode)")).not.toBeInTheDocument();
  });

  it("marks simulated data", async () => {
    renderDashboard({ movers: [mover({ source: "simulated" })] });
    expect(await screen.findByText("Simulated market data (offline mode)")).toBeInTheDocument();
  });

  it("reloads on Refresh and says how many entries came", async () => {
    renderDashboard({ movers: [mover()] });
    await tableReady();
    supabaseMock.setRpc("movers_feed", { data: [mover(), mover(), mover()], error: null });
    fireEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByText("Data updated")).toBeInTheDocument();
    expect(screen.getByText("3 entries reloaded")).toBeInTheDocument();
    // The list follows the feed at transition priority (decision 0095), a moment after the toast.
    await waitFor(() => expect(symbols()).toHaveLength(3));
  });

  it("reports a failed refresh", async () => {
    renderDashboard({ movers: [mover()] });
    await tableReady();
    supabaseMock.setRpc("movers_feed", { data: null, error: { message: "boom" } });
    fireEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByText("Failed to update data")).toBeInTheDocument();
    expect(symbols()).toHaveLength(1);
  });

  it("opens the analysis from the symbol and from the Analysis button", async () => {
    renderDashboard({ movers: [mover({ symbol: "PEPE/WETH" })] });
    await tableReady();
    fireEvent.click(within(table()).getByRole("button", { name: "PEPE/WETH" }));
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByText("Price chart")).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    fireEvent.click(within(table()).getByRole("button", { name: "Open analysis for PEPE/WETH" }));
    expect(await screen.findByRole("dialog")).toBeInTheDocument();
  });
});

describe("DashboardPage: the movers stream (decision 0095)", () => {
  it("is joined after the first rows are in, not while the feed is read", async () => {
    let answer: (value: { data: MoverEntry[]; error: null }) => void = () => {};
    renderDashboard({
      feed: () => new Promise<{ data: MoverEntry[]; error: null }>((resolve) => (answer = resolve)),
    });
    await ready();
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getByTestId("movers-pending")).toBeInTheDocument();
    expect(supabaseMock.channels.some((c) => c.topic.startsWith("market:movers:"))).toBe(false);
    await act(async () => answer({ data: [mover()], error: null }));
    await tableReady();
    expect(supabaseMock.lastChannel().topic).toBe("market:movers:15");
  });
});

describe("DashboardPage: an alert's link", () => {
  it("opens the analysis of the linked symbol's strongest move, once", async () => {
    const { router } = renderDashboard({
      movers: [
        mover({ symbol: "PEPE/WETH", exchange: "Uniswap", pct: 12 }),
        mover({ symbol: "PEPE/WETH", exchange: "Binance", pct: -40 }),
        mover({ symbol: "SOL/USDT" }),
      ],
      route: "/dashboard?symbol=PEPE%2FWETH",
    });
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByRole("heading", { name: /PEPE\/WETH/ })).toBeInTheDocument();
    expect(dialog.textContent).toContain("Binance");
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("says so when the linked symbol is not among the movers", async () => {
    const { router } = renderDashboard({ route: "/dashboard?symbol=DOGE%2FUSDT" });
    expect(await screen.findByText(/DOGE\/USDT/)).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });
});

describe("DashboardPage: first paint", () => {
  const feedWindows = () =>
    supabaseMock.client.rpc.mock.calls
      .filter(([fn]) => fn === "movers_feed")
      .map(([, args]) => (args as { window_minutes: number }).window_minutes);

  it("fetches the feed of the window last shown on this device before the profile is read", async () => {
    localStorage.setItem(WINDOW_HINT_STORAGE_KEY, "25");
    renderDashboard({ profile: { plan: "pro", selected_window_minutes: 15 } });
    await ready();
    await waitFor(() => expect(windowSelect()).toHaveValue("15"));
    // The hint's feed went out with the session, before the profile said 15; then 15's.
    expect(feedWindows()[0]).toBe(25);
    await waitFor(() => expect(feedWindows()).toContain(15));
    // The window on screen is the next visit's hint.
    await waitFor(() => expect(localStorage.getItem(WINDOW_HINT_STORAGE_KEY)).toBe("15"));
  });

  it("without a hint, fetches the address's window, then the plan's when it does not offer it", async () => {
    renderDashboard({
      profile: { plan: "basic", selected_window_minutes: 30 },
      route: "/dashboard?window=20",
    });
    await ready();
    expect(feedWindows()[0]).toBe(20);
    await waitFor(() => expect(feedWindows()).toContain(30));
  });
});

describe("DashboardPage: checkout", () => {
  it("welcomes a new subscriber once and drops the parameter", async () => {
    const { router } = renderDashboard({ route: "/dashboard?checkout=success&tab=x" });
    expect(await screen.findByText("Subscription active")).toBeInTheDocument();
    expect(screen.getByText("Welcome aboard! Your plan is active.")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe("?tab=x"));
    expect(screen.getAllByText("Subscription active")).toHaveLength(1);
  });
});

describe("DashboardPage: phones and sparklines", () => {
  it("folds the filters into a sheet that counts the active ones", async () => {
    renderDashboard({ movers: [mover({ pct: 12 }), mover({ pct: -4 })] });
    await tableReady();
    expect(screen.getByRole("button", { name: "Filters" })).toBeInTheDocument();
    const card = screen.getAllByRole("group", { name: "Direction" })[0]!;
    fireEvent.click(within(card).getByRole("button", { name: "Gains +" }));
    const trigger = screen.getByRole("button", { name: "Filters (1 active)" });
    fireEvent.click(trigger);
    const sheet = await screen.findByRole("dialog", { name: "Filters" });
    // The sheet holds the same filters, already set.
    expect(within(sheet).getByRole("button", { name: "Gains +" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    fireEvent.click(within(sheet).getByRole("button", { name: "Losses -" }));
    fireEvent.click(within(sheet).getByRole("button", { name: "Show movers" }));
    expect(symbols()).toHaveLength(1);
  }, 20_000);

  it("renders the table or the cards, whichever the width shows, and swaps them at lg", async () => {
    setViewportWidth(390);
    renderDashboard({ movers: [mover({ symbol: "PEPE/WETH", pct: 12 })] });
    const list = await screen.findByRole("list", { name: /Strongest movers/ });
    expect(within(list).getByText("PEPE/WETH")).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    // Phones filter in the sheet: the in-place filters are not rendered below md.
    expect(screen.queryByRole("group", { name: "Direction" })).not.toBeInTheDocument();

    act(() => setViewportWidth(1280));
    expect(within(table()).getByRole("rowheader", { name: /PEPE\/WETH/ })).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: /Strongest movers/ })).not.toBeInTheDocument();
    expect(screen.getByRole("group", { name: "Direction" })).toBeInTheDocument();

    act(() => setViewportWidth(1023));
    expect(screen.getByRole("list", { name: /Strongest movers/ })).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("shows 20 cards, then 20 more on demand", async () => {
    setViewportWidth(390);
    renderDashboard({ movers: Array.from({ length: 45 }, (_, i) => mover({ pct: 50 - i })) });
    // Counted with a selector: role queries over 45 cards are slow in jsdom.
    const list = await screen.findByRole("list", { name: /Strongest movers/ });
    const cards = () => list.querySelectorAll(":scope > li");
    // Committed a few at a time while the browser is idle (decision 0095), the first ones at once.
    expect(cards().length).toBeGreaterThan(0);
    await waitFor(() => expect(cards()).toHaveLength(20));
    expect(screen.getByText("Showing 20 of 45")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Show 20 more" }));
    expect(cards()).toHaveLength(40);
    fireEvent.click(screen.getByRole("button", { name: "Show 5 more" }));
    expect(cards()).toHaveLength(45);
    expect(screen.queryByText(/^Show \d+ more$/)).not.toBeInTheDocument();
  }, 30_000);

  it("draws every row's sparkline from one request", async () => {
    const movers = [mover({ pct: 12 }), mover({ pct: -4 })];
    const calls: unknown[] = [];
    supabaseMock.setRpc("movers_sparklines", (args) => {
      calls.push(args);
      return {
        data: movers.map((m) => ({
          instrument_id: m.instrument_id,
          times: ["2026-11-25T12:00:00Z", "2026-11-25T12:01:00Z"],
          prices: [1, 1.1],
        })),
        error: null,
      };
    });
    renderDashboard({ movers });
    await tableReady();
    await waitFor(() =>
      expect(
        within(table()).getByRole("img", { name: "Last 30 minutes: +12.00%" }),
      ).toHaveAttribute("data-points", "3"),
    );
    expect(within(table()).getByRole("img", { name: "Last 30 minutes: -4.00%" })).toHaveClass(
      "text-destructive",
    );
    expect(calls).toEqual([{ window_minutes: 15 }]);
  }, 20_000);
});

describe("DashboardPage: state in the address", () => {
  const list = () => [
    mover({ symbol: "UP/USDT", pct: 12 }),
    mover({ symbol: "DOWN/USDT", pct: -30 }),
    mover({ symbol: "SMALL/USDT", pct: 3 }),
  ];
  it("restores the filters and window a shared address names", async () => {
    renderDashboard({ movers: list(), route: "/dashboard?dir=gains&min=10&window=25" });
    await tableReady();
    expect(symbols()).toEqual(["UP/USDT"]);
    expect(screen.getByRole("spinbutton", { name: "Minimum %" })).toHaveValue(10);
    expect(screen.getByRole("button", { name: "Gains +" })).toHaveAttribute("aria-pressed", "true");
    expect(windowSelect()).toHaveValue("25");
    expect(supabaseMock.client.rpc).toHaveBeenCalledWith("movers_feed", { window_minutes: 25 });
    // Showing the address's window saves nothing: the stored window stays the profile's.
    expect(supabaseMock.updates).toHaveLength(0);
  });

  it("reads invalid values as the defaults, without an error", async () => {
    renderDashboard({ movers: list(), route: "/dashboard?dir=up&min=abc&window=7" });
    await tableReady();
    expect(symbols()).toHaveLength(3);
    expect(windowSelect()).toHaveValue("15");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("writes filters into the address, replacing the entry, and leaves defaults out", async () => {
    const { router } = renderDashboard({ movers: list() });
    await tableReady();
    const before = router.state.historyAction;
    fireEvent.click(screen.getByRole("button", { name: "Losses -" }));
    fireEvent.change(screen.getByRole("spinbutton", { name: "Minimum %" }), {
      target: { value: "5" },
    });
    await waitFor(() => expect(router.state.location.search).toBe("?dir=losses&min=5"));
    expect(router.state.historyAction).toBe("REPLACE");
    expect(before).toBe("POP");
    fireEvent.click(
      within(screen.getByRole("group", { name: "Direction" })).getByRole("button", { name: "All" }),
    );
    fireEvent.change(screen.getByRole("spinbutton", { name: "Minimum %" }), {
      target: { value: "0" },
    });
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("pushes a window change, saves it, and Back shows the previous window again", async () => {
    const { router } = renderDashboard({ movers: list() });
    await tableReady();
    fireEvent.change(windowSelect(), { target: { value: "25" } });
    await waitFor(() => expect(router.state.location.search).toBe("?window=25"));
    expect(router.state.historyAction).toBe("PUSH");
    await waitFor(() =>
      expect(supabaseMock.updates[0]?.values).toEqual({ selected_window_minutes: 25 }),
    );
    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe("?window=15");
    await waitFor(() => expect(windowSelect()).toHaveValue("15"));
  });
});

describe("DashboardPage: moves you can trust (issue 26)", () => {
  it("hides thin moves by default, says how many, and shows them on request", async () => {
    const { router } = renderDashboard({
      movers: [
        mover({ symbol: "THIN1/WBNB", thin: true }),
        mover({ symbol: "DEEP/USDT" }),
        mover({ symbol: "THIN2/WBNB", thin: true }),
      ],
    });
    await tableReady();
    expect(symbols()).toEqual(["DEEP/USDT"]);
    const note = screen.getByTestId("trust-hidden");
    expect(note).toHaveTextContent("2 thin moves hidden.");
    fireEvent.click(within(note).getByRole("button", { name: "Show them" }));
    await waitFor(() => expect(symbols()).toEqual(["THIN1/WBNB", "DEEP/USDT", "THIN2/WBNB"]));
    expect(router.state.location.search).toBe("?thin=1");
    expect(screen.getByRole("checkbox", { name: "Show thin moves" })).toBeChecked();
    expect(within(table()).getAllByTestId("thin-mark")).toHaveLength(2);
    expect(screen.queryByTestId("trust-hidden")).not.toBeInTheDocument();
  });

  it("keeps only confirmed moves when asked, and counts the others", async () => {
    const { router } = renderDashboard({
      movers: [
        mover({ symbol: "ALONE/USDT" }),
        mover({ symbol: "BOTH/USDT", confirmed_on: ["Coinbase"] }),
      ],
    });
    await tableReady();
    fireEvent.click(screen.getByRole("checkbox", { name: "Confirmed only" }));
    await waitFor(() => expect(symbols()).toEqual(["BOTH/USDT"]));
    expect(screen.getByTestId("trust-hidden")).toHaveTextContent("1 unconfirmed move hidden.");
    expect(router.state.location.search).toBe("?confirmed=1");
  });

  it("shows one row per asset, the most liquid venue first, its other venues behind an expander", async () => {
    const { router } = renderDashboard({
      movers: [
        mover({
          symbol: "SFP/WBNB",
          asset: "SFP",
          exchange: "PancakeSwap V3 (bsc)",
          exchange_type: "dex",
          pool_name: "SFP / WBNB 0.25%",
          liquidity_usd: 80_000,
          price: 1.1,
          pct: 42.59,
        }),
        mover({
          symbol: "SFP/WBNB",
          asset: "SFP",
          exchange: "PancakeSwap V2 (bsc)",
          exchange_type: "dex",
          pool_name: "SFP / WBNB",
          liquidity_usd: 900_000,
          price: 1,
          pct: 42.34,
        }),
        mover({ symbol: "BTC/USDT", asset: "BTC" }),
      ],
    });
    await tableReady();
    const rows = () => within(table()).getAllByRole("row").slice(1);
    expect(rows()).toHaveLength(2);
    expect(rows()[0]).toHaveTextContent("PancakeSwap V2 (bsc)");
    expect(rows()[0]).toHaveTextContent("Liq $900K");
    const toggle = within(rows()[0]!).getByRole("button", { name: "SFP on 1 more venue" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(toggle).toHaveTextContent("+1 venue");
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(rows()).toHaveLength(3);
    const venue = rows()[1]!;
    expect(toggle.getAttribute("aria-controls")).toBe(venue.id);
    // What differs: the venue, its pool and fee tier, liquidity, price and move.
    expect(venue).toHaveTextContent("PancakeSwap V3 (bsc)");
    expect(venue).toHaveTextContent("SFP / WBNB 0.25%");
    expect(venue).toHaveTextContent("Liq $80K");
    expect(venue).toHaveTextContent("price +10.00% vs. PancakeSwap V2 (bsc)");
    expect(venue).toHaveTextContent("+42.59%");
    fireEvent.click(screen.getByRole("checkbox", { name: "Group by asset" }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(router.state.location.search).toBe("?group=0");
    expect(within(table()).queryByRole("button", { name: /more venue/ })).not.toBeInTheDocument();
  });

  it("walks an open group's venues with j", async () => {
    renderDashboard({
      movers: [
        mover({ symbol: "LEAD/USDT", asset: "X", volume_24h_usd: 9e6 }),
        mover({ symbol: "OTHER/USDT", asset: "X", volume_24h_usd: 1e3 }),
        mover({ symbol: "NEXT/USDT", asset: "Y" }),
      ],
    });
    await tableReady();
    fireEvent.click(within(table()).getByRole("button", { name: "X on 1 more venue" }));
    const selected = () => table().querySelector('tr[aria-current="true"] th')?.textContent;
    fireEvent.keyDown(document.body, { key: "j" });
    await waitFor(() => expect(selected()).toBe("LEAD/USDT"));
    fireEvent.keyDown(document.body, { key: "j" });
    await waitFor(() => expect(selected()).toBe("OTHER/USDT"));
    fireEvent.keyDown(document.body, { key: "j" });
    await waitFor(() => expect(selected()).toBe("NEXT/USDT"));
  });

  it("shows the trust badge with every reason, the confirming venues and the flags in the row", async () => {
    renderDashboard({
      movers: [
        mover({
          symbol: "RUG/WETH",
          exchange_type: "dex",
          flags: ["pulled_pool", "wash_volume"],
          confirmed_on: ["Binance", "Coinbase"],
          trust_score: 35,
          liquidity_usd: 12_000,
          volume_24h_usd: 2_500_000,
        }),
      ],
    });
    await tableReady();
    const row = within(table()).getAllByRole("row")[1]!;
    const badge = within(row).getByRole("button", { name: "Trust score 35 of 100, low" });
    expect(badge).toHaveTextContent("35");
    const reasons = badge.getAttribute("aria-describedby")!;
    const card = document.getElementById(reasons)!;
    expect(card).toHaveTextContent("The pool's liquidity fell by half or more within the window.");
    expect(card).toHaveTextContent("possibly wash trading");
    expect(card).toHaveTextContent("Confirmed on 2 venues. Also moved on Binance and Coinbase.");
    expect(card).toHaveTextContent("Pool liquidity: $12K.");
    // The flags' short reasons stay in the row, spelled out for assistive technology.
    expect(within(row).getByTestId("flag-notes")).toHaveTextContent(
      "liquidity pulled · wash volume?",
    );
    const confirmed = within(row).getByRole("button", { name: "Confirmed on 2 venues" });
    expect(confirmed).toHaveAccessibleDescription("Also moved on Binance and Coinbase.");
    expect(row).toHaveTextContent("Vol $2.5M");
  });

  it("orders by trust on request, keeping the server's ranking by default", async () => {
    const { router } = renderDashboard({
      movers: [
        mover({ symbol: "LOW/USDT", trust_score: 20 }),
        mover({ symbol: "HIGH/USDT", trust_score: 90 }),
        mover({ symbol: "MID/USDT", trust_score: 50 }),
      ],
    });
    await tableReady();
    expect(symbols()).toEqual(["LOW/USDT", "HIGH/USDT", "MID/USDT"]);
    const order = screen.getAllByRole("group", { name: "Order" })[0]!;
    fireEvent.click(within(order).getByRole("button", { name: "Trust" }));
    await waitFor(() => expect(symbols()).toEqual(["HIGH/USDT", "MID/USDT", "LOW/USDT"]));
    expect(within(table()).getByRole("columnheader", { name: "Trust" })).toHaveAttribute(
      "aria-sort",
      "descending",
    );
    expect(router.state.location.search).toBe("?sort=trust");
  });
});

describe("DashboardPage: nothing on the phone's first screen moves while it loads (decision 0081)", () => {
  it("draws the rows in a new element, not in the placeholder moved down under the notes", async () => {
    setViewportWidth(400);
    renderDashboard({ movers: [mover({ source: "simulated" })] });
    const pending = screen.getByTestId("movers-pending");
    expect(await screen.findByRole("list", { name: /Strongest movers/ })).toBeInTheDocument();
    expect(screen.getByRole("note")).toHaveTextContent("Simulated market data");
    // A reused element would count as moved (a layout shift) by the notes above it.
    expect(pending.isConnected).toBe(false);
  });

  it("keeps the live indicator's line while the stream is idle", async () => {
    setViewportWidth(400);
    renderDashboard();
    const slot = screen.getByTestId("live-indicator-slot");
    expect(slot).toHaveClass("min-h-[22px]");
    expect(within(slot).queryByRole("status")).toBeNull();
    await ready();
    expect(screen.getByTestId("live-indicator-slot")).toBe(slot);
  });
});
