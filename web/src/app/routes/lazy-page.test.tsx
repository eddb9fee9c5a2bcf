import { act, render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { describe, expect, it, vi } from "vitest";
import { lazyLoadsSettled, lazyWithPreload } from "./lazy-page";

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe("lazyWithPreload", () => {
  it("suspends on first use when not preloaded, then renders", async () => {
    const load = vi.fn(() => Promise.resolve({ Greeting }));
    const Lazy = lazyWithPreload(load, "Greeting");
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Lazy name="Ada" />
      </Suspense>,
    );
    expect(screen.getByText("Loading")).toBeInTheDocument();
    expect(await screen.findByText("Hello Ada")).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("renders in the first pass once preloaded, loading the module once", async () => {
    const load = vi.fn(() => Promise.resolve({ Greeting }));
    const Lazy = lazyWithPreload(load, "Greeting");
    await act(() => Lazy.preload());
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Lazy name="Grace" />
      </Suspense>,
    );
    // No fallback at any point: the component is there synchronously.
    expect(screen.queryByText("Loading")).not.toBeInTheDocument();
    expect(screen.getByText("Hello Grace")).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("lets a caller wait for the loads still under way, failed ones included", async () => {
    let finish: (m: { Greeting: typeof Greeting }) => void = () => {};
    const Slow = lazyWithPreload(
      () => new Promise<{ Greeting: typeof Greeting }>((resolve) => (finish = resolve)),
      "Greeting",
    );
    const Broken = lazyWithPreload(
      () => Promise.reject<{ Greeting: typeof Greeting }>(new Error("chunk missing")),
      "Greeting",
    );
    const slow = Slow.preload();
    Broken.preload().catch(() => {});
    let settled = false;
    const waiting = lazyLoadsSettled().then(() => (settled = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toBe(false);
    finish({ Greeting });
    await slow;
    await waiting;
    expect(settled).toBe(true);
  });
});
