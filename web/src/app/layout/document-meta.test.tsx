import { act, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import { renderRoute, renderWithProviders } from "@/testing/render";
import { DocumentMeta, pageKey } from "./document-meta";

const description = () =>
  document.head.querySelector('meta[name="description"]')?.getAttribute("content");

describe("pageKey", () => {
  it.each([
    ["/", "landing"],
    ["/pricing", "pricing"],
    ["/dashboard", "dashboard"],
    ["/dashboard/settings", "settings"],
    ["/support/ticket/42", "ticket"],
    ["/admin", "admin"],
    ["/admin-setup", "adminSetup"],
    ["/no/such/page", "notFound"],
  ])("%s is the %s page", (path, key) => {
    expect(pageKey(path)).toBe(key);
  });
});

describe("DocumentMeta", () => {
  it("titles and describes the page in the reader's language", async () => {
    renderWithProviders(<DocumentMeta />, { route: "/pricing" });
    await waitFor(() => expect(document.title).toBe("Pricing · MoverScan"));
    expect(description()).toMatch(/^Compare the Basic, Pro and Enterprise plans/);

    await act(() => i18n.changeLanguage("de"));
    await waitFor(() => expect(document.title).toBe("Preise · MoverScan"));
    expect(description()).toMatch(/^Vergleichen Sie die Pläne/);
    expect(document.documentElement.lang).toBe("de");
  });

  it("gives the landing page its own title and the browser the theme's colour", async () => {
    renderWithProviders(<DocumentMeta />, { route: "/" });
    await waitFor(() => expect(document.title).toBe("MoverScan — live crypto movers"));
    expect(document.head.querySelector('meta[name="theme-color"]')?.getAttribute("content")).toBe(
      "#0a0a0a",
    );
  });

  it("is part of every page: an unknown path is titled as not found", async () => {
    renderRoute("/no/such/page");
    expect(await screen.findByText("404 Page Not Found")).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe("Page not found · MoverScan"));
  });
});
