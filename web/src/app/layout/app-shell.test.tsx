import { render, screen } from "@testing-library/react";
import { renderWithProviders } from "@/testing/render";
import { describe, expect, it } from "vitest";
import { AppShell } from "./app-shell";
import { Header } from "./header";

describe("AppShell", () => {
  it("draws the header's bar and brand with the header's own classes", () => {
    const { container } = render(<AppShell />);
    const shellBar = container.querySelector("header")!;
    const shellBrand = screen.getByText("MoverScan").parentElement!;
    const { container: app } = renderWithProviders(<Header />);
    const header = app.querySelector("header")!;
    expect(shellBar.className).toBe(header.className);
    expect(shellBar.firstElementChild!.className).toBe(header.firstElementChild!.className);
    // The brand: the same box; the header's is a link and adds its focus ring.
    const brand = header.querySelector("a[href='/']")!;
    for (const cls of shellBrand.className.split(" ")) expect(brand.classList).toContain(cls);
    // Empty (app.html): shown to every reader.
    expect(container.querySelector("main")!.hasAttribute("data-english-only")).toBe(false);
  });

  it("marks a page's frame as English, for index.html to hide from other readers", () => {
    const { container } = render(
      <AppShell>
        <h1>Dashboard</h1>
      </AppShell>,
    );
    const main = container.querySelector("main")!;
    expect(main).toHaveAttribute("data-english-only", "");
    expect(main).toContainElement(screen.getByRole("heading", { name: "Dashboard" }));
  });
});
