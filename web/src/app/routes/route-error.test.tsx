import { act, screen } from "@testing-library/react";
import { Link, Outlet } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import { renderRoute } from "@/testing/render";
import { RouteErrorBoundary } from "./route-error";

function Broken(): never {
  throw new Error("page failed");
}

const table = [
  {
    element: (
      <div>
        <Link to="/fine">Fine page</Link>
        <Outlet />
      </div>
    ),
    children: [
      {
        element: <RouteErrorBoundary />,
        children: [
          { path: "broken", element: <Broken /> },
          { path: "fine", element: <p>All good</p> },
        ],
      },
    ],
  },
];

describe("RouteErrorBoundary", () => {
  it("shows the error page in place of a page that throws, and the next page renders again", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const { router } = renderRoute("/broken", { table });

    expect(await screen.findByRole("alert")).toHaveTextContent("Something went wrong");
    expect(screen.getByRole("button", { name: "Reload page" })).toBeInTheDocument();
    // The layout around the page stays.
    expect(screen.getByRole("link", { name: "Fine page" })).toBeInTheDocument();
    expect(logged).toHaveBeenCalled();

    await act(() => router.navigate("/fine"));
    expect(await screen.findByText("All good")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    logged.mockRestore();
  });
});
