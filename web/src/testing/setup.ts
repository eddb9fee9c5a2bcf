import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { toast } from "sonner";
import { afterAll, afterEach, vi } from "vitest";
import { lazyLoadsSettled } from "@/app/routes/lazy-page";
import { i18n } from "@/i18n/i18n";
import { resources } from "@/i18n/resources";
import { supabaseMock } from "./supabase-mock";
import { DEFAULT_VIEWPORT_WIDTH, fakeMatchMedia, setViewportWidth } from "./viewport";

// findBy/waitFor wait for an outcome, not for a deadline: a route's first lazy import takes over a
// second on a loaded 2-core CI machine, past Testing Library's default of 1 s.
configure({ asyncUtilTimeout: 10_000 });

// No test talks to a real Supabase: every import of the client gets the in-memory mock.
vi.mock("@/lib/supabase", async () => {
  const { supabaseMock } = await import("./supabase-mock");
  return { supabase: supabaseMock.client };
});

// The canvas price chart (lightweight-charts) cannot draw in jsdom; the e2e suite checks it in
// Chromium. Unit tests see a stand-in that lists the candles and lines it was handed.
vi.mock("@/components/charts/price-chart", async () => {
  const { PriceChartStandIn } = await import("./price-chart-stand-in");
  return { PriceChart: PriceChartStandIn };
});

// Production loads one language chunk on demand; tests hold all four from the start.
for (const [lng, bundles] of Object.entries(resources)) {
  for (const [ns, bundle] of Object.entries(bundles)) i18n.addResourceBundle(lng, ns, bundle);
}

// jsdom lacks a few browser APIs Radix and sonner use; its matchMedia answers width queries
// against window.innerWidth (testing/viewport.ts).
window.matchMedia ??= fakeMatchMedia;
window.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
window.scrollTo = () => {};
Element.prototype.scrollIntoView ??= () => {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};

afterEach(async () => {
  cleanup();
  // sonner keeps its toasts in module state and replays active ones to a new Toaster.
  toast.dismiss();
  supabaseMock.reset();
  await i18n.changeLanguage("en");
  localStorage.clear();
  if (window.innerWidth !== DEFAULT_VIEWPORT_WIDTH) setViewportWidth(DEFAULT_VIEWPORT_WIDTH);
  document.documentElement.className = "";
});

// A route this file started loading finishes before the next file runs (they share one module
// registry): an import that ends after the environment is gone fails the next file instead.
afterAll(() => lazyLoadsSettled());
