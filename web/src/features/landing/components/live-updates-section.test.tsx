// The landing page is served pre-rendered (src/prerender.tsx) with its Live Updates strip
// loading, and the app hydrates it in a transition that yields to the browser. On a busy phone
// the teaser can answer before the strip is hydrated: the strip must still hydrate as served
// (React reports a mismatch as a recoverable error and renders the page anew), then show rows.
import { notifyManager, QueryClientProvider } from "@tanstack/react-query";
import { act, screen } from "@testing-library/react";
import { flushSync } from "react-dom";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { createQueryClient } from "@/lib/query-client";
import { landingQueries, parseMoverTeasers } from "../api/queries";
import { LiveUpdatesSection } from "./live-updates-section";

const rows = parseMoverTeasers([
  {
    id: 1,
    symbol: "PEPE/USDT",
    exchange: "Binance",
    pct: 12.5,
    price: 1,
    ts: "2026-11-26T12:00:00Z",
  },
])!;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = "";
});

describe("LiveUpdatesSection over a pre-rendered page", () => {
  it("hydrates as served when the teaser answered first, then shows its rows", async () => {
    const tree = (client: ReturnType<typeof createQueryClient>) => (
      <QueryClientProvider client={client}>
        <LiveUpdatesSection />
      </QueryClientProvider>
    );
    const container = document.createElement("div");
    container.innerHTML = renderToString(tree(createQueryClient()));
    document.body.append(container);
    expect(container).toHaveTextContent("Loading live movers…");

    const client = createQueryClient();
    client.setQueryData(landingQueries.moversTeaser().queryKey, rows);
    const recovered: unknown[] = [];
    await act(async () => {
      root = hydrateRoot(container, tree(client), {
        onRecoverableError: (error) => recovered.push(error),
      });
    });

    expect(recovered).toEqual([]);
    expect(await screen.findByRole("heading", { name: "PEPE/USDT" })).toBeInTheDocument();
  });

  it("renders new rows at transition priority: an urgent update keeps the cards, then they follow", async () => {
    const client = createQueryClient();
    client.setQueryData(landingQueries.moversTeaser().queryKey, rows);
    const container = document.createElement("div");
    document.body.append(container);
    await act(async () => {
      root = createRoot(container);
      root.render(
        <QueryClientProvider client={client}>
          <LiveUpdatesSection />
        </QueryClientProvider>,
      );
    });
    expect(await screen.findByRole("heading", { name: "PEPE/USDT" })).toBeInTheDocument();

    const next = parseMoverTeasers([{ ...rows[0], id: 2, symbol: "WIF/USDT" }])!;
    // A scan's teaser arrives: the cache update renders synchronously (useSyncExternalStore),
    // and that urgent pass must not draw the cards (a long task on a phone): the old ones stay.
    // (Query's notifications are batched on a timer: here they run at once, inside flushSync.)
    notifyManager.setScheduler((notify) => notify());
    try {
      flushSync(() => client.setQueryData(landingQueries.moversTeaser().queryKey, next));
    } finally {
      notifyManager.setScheduler((notify) => setTimeout(notify, 0));
    }
    expect(screen.getByRole("heading", { name: "PEPE/USDT" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "WIF/USDT" })).toBeNull();

    // The deferred pass then draws the new rows.
    expect(await screen.findByRole("heading", { name: "WIF/USDT" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "PEPE/USDT" })).toBeNull();
  });
});
