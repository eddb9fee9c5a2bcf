import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { createTestQueryClient } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import {
  pageOf,
  parseAlertsView,
  parseVisitorsView,
  viewAlerts,
  viewVisitors,
} from "../utils/client-table";
import { AlertsTab } from "./alerts-tab";
import { LiveVisitorsTab } from "./live-visitors-tab";

const CHANNELS = ["email", "discord", "telegram"];

function alert(index: number) {
  return {
    id: `alert-${index}`,
    symbol: index % 2 === 0 ? `UP${index}/USDT` : `DOWN${index}/USDT`,
    symbols: [index % 2 === 0 ? `UP${index}/USDT` : `DOWN${index}/USDT`],
    symbol_count: 1,
    exchange: "Binance",
    channel: CHANNELS[index % 3],
    pct: index % 2 === 0 ? index : -index,
    price: 1,
    recipient: `trader${index}@example.com`,
    created_at: new Date(Date.UTC(2026, 10, 25, 10, index)).toISOString(),
    direction: index % 2 === 0 ? "up" : "down",
    hash: `h${index}`,
    ts: new Date(Date.UTC(2026, 10, 25, 10, index)).toISOString(),
    user_id: null,
    window_minutes: 30,
  };
}
const ALERTS = Array.from({ length: 50 }, (_, index) => alert(index + 1));

function visitor(index: number) {
  return {
    id: `visitor-${index}`,
    email: `visitor${String(index).padStart(2, "0")}@example.com`,
    plan: (["none", "basic", "pro", "enterprise"] as const)[index % 4],
    last_activity_at: new Date(Date.UTC(2026, 10, 25, 10, 0, index)).toISOString(),
  };
}
const VISITORS = Array.from({ length: 45 }, (_, index) => visitor(index + 1));

function renderAt(route: string, element: React.ReactNode) {
  supabaseMock.setRpc("admin_latest_alerts", { data: ALERTS, error: null });
  supabaseMock.setRpc("admin_alert_delivery_stats", { data: [], error: null });
  supabaseMock.setRpc("admin_live_visitors", { data: VISITORS, error: null });
  const router = createMemoryRouter([{ path: "/admin", element }], { initialEntries: [route] });
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe("the client-side admin views", () => {
  it("read the address and fall back on invalid values", () => {
    expect(
      parseAlertsView(
        new URLSearchParams(
          "alertQ=btc&alertChannel=discord&alertDir=down&alertSort=pct&alertOrder=asc&alertPage=2",
        ),
      ),
    ).toEqual({
      search: "btc",
      channel: "discord",
      direction: "down",
      sortBy: "pct",
      sortDesc: false,
      page: 1,
    });
    expect(
      parseAlertsView(new URLSearchParams("alertChannel=fax&alertSort=hash&alertPage=-1")),
    ).toMatchObject({ channel: "all", sortBy: "created_at", sortDesc: true, page: 0 });
    expect(
      parseVisitorsView(new URLSearchParams("visitorPlan=gold&visitorSort=ip&visitorPage=x")),
    ).toEqual({ search: "", plan: "all", sortBy: "last_activity_at", sortDesc: true, page: 0 });
  });

  it("filter, sort and page the rows they are given", () => {
    const view = parseAlertsView(new URLSearchParams("alertDir=down&alertSort=pct"));
    const shown = viewAlerts(ALERTS, view);
    expect(shown).toHaveLength(25);
    // Down moves sorted by change, largest first: -1, -3, …
    expect(shown.slice(0, 2).map((row) => row.pct)).toEqual([-1, -3]);
    expect(pageOf(shown, 1, 20).rows.map((row) => row.pct)).toEqual([-41, -43, -45, -47, -49]);
    // A page past the end shows the last page.
    expect(pageOf(shown, 9, 20).page).toBe(1);
    const visitors = viewVisitors(
      VISITORS,
      parseVisitorsView(new URLSearchParams("visitorPlan=pro&visitorSort=email&visitorOrder=asc")),
    );
    expect(visitors.map((row) => row.email).slice(0, 2)).toEqual([
      "visitor02@example.com",
      "visitor06@example.com",
    ]);
  });
});

describe("AlertsTab: the latest alerts' view in the address", () => {
  it("opens a reloaded address with its search, filters, sort and page", async () => {
    renderAt(
      "/admin?tab=alerts&alertQ=down&alertChannel=email&alertSort=pct&alertOrder=asc&alertPage=1",
      <AlertsTab />,
    );
    const rows = await screen.findAllByTestId("admin-alert-row");
    expect(screen.getByRole("searchbox")).toHaveValue("down");
    expect(screen.getByRole("combobox", { name: "Filter by channel" })).toHaveTextContent("E-mail");
    // DOWN… symbols sent by e-mail (odd and divisible by 3): 3, 9, …, 45; ascending change
    // puts the largest fall first.
    expect(within(rows[0]!).getByText("DOWN45/USDT")).toBeInTheDocument();
    expect(rows).toHaveLength(8);
    expect(screen.getByRole("columnheader", { name: /Change/ })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
  });

  it("writes a filter, a sort and a page turn into the address", async () => {
    const router = renderAt("/admin?tab=alerts", <AlertsTab />);
    expect(await screen.findAllByTestId("admin-alert-row")).toHaveLength(20);
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(router.state.location.search).toBe("?tab=alerts&alertPage=2"));
    fireEvent.click(screen.getByRole("button", { name: /Symbol/ }));
    // A sort starts again at page 1 (the default, left out).
    await waitFor(() =>
      expect(router.state.location.search).toBe("?tab=alerts&alertSort=symbol&alertOrder=asc"),
    );
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "UP4" } });
    await waitFor(() =>
      expect(router.state.location.search).toBe(
        "?tab=alerts&alertSort=symbol&alertOrder=asc&alertQ=UP4",
      ),
    );
    // UP4, UP40, UP42, UP44, UP46, UP48
    expect(await screen.findAllByTestId("admin-alert-row")).toHaveLength(6);
  });

  it("says so when no alert matches", async () => {
    renderAt("/admin?alertQ=nothing-like-this", <AlertsTab />);
    expect(await screen.findByText("No alert matches these filters")).toBeInTheDocument();
  });
});

describe("LiveVisitorsTab: the view in the address", () => {
  it("opens a reloaded address with its search, plan, sort and page", async () => {
    renderAt(
      "/admin?tab=visitors&visitorQ=visitor&visitorPlan=basic&visitorSort=email&visitorOrder=desc&visitorPage=1",
      <LiveVisitorsTab />,
    );
    const rows = await screen.findAllByTestId("visitor-row");
    expect(screen.getByRole("searchbox")).toHaveValue("visitor");
    // Basic: indexes 1, 5, …, 45 (12 visitors); by email, descending.
    expect(rows).toHaveLength(12);
    expect(within(rows[0]!).getByText("visitor45@example.com")).toBeInTheDocument();
    expect(screen.getByTestId("admin-visitors-total")).toHaveTextContent("Page 1 of 1");
  });

  it("keeps the page turned in the address", async () => {
    const router = renderAt("/admin?tab=visitors&visitorPage=3", <LiveVisitorsTab />);
    // 45 visitors, 20 a page: page 3 holds 5.
    expect(await screen.findAllByTestId("visitor-row")).toHaveLength(5);
    fireEvent.click(screen.getByRole("button", { name: "Previous" }));
    await waitFor(() => expect(router.state.location.search).toBe("?tab=visitors&visitorPage=2"));
    expect(await screen.findAllByTestId("visitor-row")).toHaveLength(20);
  });
});
