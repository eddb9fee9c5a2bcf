// The landing page is served pre-rendered (src/prerender.tsx) with its Live Updates strip
// loading, and the app hydrates it in a transition that yields to the browser. On a busy phone
// the teaser can answer before the strip is hydrated: the strip must still hydrate as served
// (React reports a mismatch as a recoverable error and renders the page anew), then show rows.
import { QueryClientProvider } from "@tanstack/react-query";
import { act, screen } from "@testing-library/react";
import { hydrateRoot, type Root } from "react-dom/client";
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
});
