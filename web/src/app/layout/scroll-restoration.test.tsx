import { act, render } from "@testing-library/react";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ScrollRestoration } from "./scroll-restoration";

function Layout() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

afterEach(() => {
  vi.restoreAllMocks();
  Object.defineProperty(window, "scrollY", { value: 0, configurable: true });
});

describe("ScrollRestoration", () => {
  it("opens a new page at the top and returns to the reader's place on Back", async () => {
    const scrollTo = vi.spyOn(window, "scrollTo").mockImplementation(() => {});
    const router = createMemoryRouter(
      [
        {
          element: <Layout />,
          children: [
            { path: "/", element: <p>List</p> },
            { path: "/detail", element: <p>Detail</p> },
          ],
        },
      ],
      { initialEntries: ["/"] },
    );
    render(<RouterProvider router={router} />);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);

    // The reader scrolls down the list, then opens a detail page: it starts at the top.
    Object.defineProperty(window, "scrollY", { value: 840, configurable: true });
    await act(() => router.navigate("/detail"));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);

    // Back: the list where they left it.
    Object.defineProperty(window, "scrollY", { value: 120, configurable: true });
    await act(() => router.navigate(-1));
    expect(router.state.location.pathname).toBe("/");
    expect(scrollTo).toHaveBeenLastCalledWith(0, 840);
  });

  it("scrolls to the #anchor of a link", async () => {
    vi.spyOn(window, "scrollTo").mockImplementation(() => {});
    const router = createMemoryRouter(
      [
        {
          element: <Layout />,
          children: [{ path: "/", element: <h2 id="plans">Plans</h2> }],
        },
      ],
      { initialEntries: ["/"] },
    );
    const { getByText } = render(<RouterProvider router={router} />);
    const into = vi.spyOn(getByText("Plans"), "scrollIntoView");
    await act(() => router.navigate("/#plans"));
    expect(into).toHaveBeenCalled();
  });
});
