import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { TablePager } from "./table-pager";

describe("TablePager", () => {
  it("says where the reader is and turns pages 0-based", () => {
    const onPage = vi.fn();
    render(<TablePager page={1} pages={3} total={45} onPage={onPage} testId="total" />);
    expect(screen.getByTestId("total")).toHaveTextContent("Page 2 of 3 · Total: 45");
    fireEvent.click(screen.getByRole("button", { name: "Previous" }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(onPage.mock.calls).toEqual([[0], [2]]);
  });

  it("shows a page past the end as the last one, with only Previous to press", () => {
    const onPage = vi.fn();
    render(<TablePager page={9} pages={3} total={45} onPage={onPage} testId="total" />);
    expect(screen.getByTestId("total")).toHaveTextContent("Page 3 of 3 · Total: 45");
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
    fireEvent.click(screen.getByRole("button", { name: "Previous" }));
    // As the users tab always did: one page back from the address's page.
    expect(onPage).toHaveBeenCalledWith(8);
  });

  it("puts its children (the users' export menu) before Previous and Next", () => {
    render(
      <TablePager page={0} pages={1} total={3} onPage={() => {}}>
        <button type="button">Export</button>
      </TablePager>,
    );
    const names = screen.getAllByRole("button").map((button) => button.textContent);
    expect(names).toEqual(["Export", "Previous", "Next"]);
    expect(screen.getByRole("button", { name: "Previous" })).toBeDisabled();
  });
});
