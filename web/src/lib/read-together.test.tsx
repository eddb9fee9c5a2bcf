import { QueryClientProvider, queryOptions, useQuery } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { createTestQueryClient } from "@/testing/render";
import { readTogether } from "./read-together";

/** A read whose answer the test gives when it wants. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Gives an answer and lets everything it causes happen (the cache notifies in a timer). */
async function land(answer: () => void) {
  await act(async () => {
    answer();
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
}

function setUp() {
  const client = createTestQueryClient();
  const answers = { a: deferred<string>(), b: deferred<string>(), c: deferred<string>() };
  const calls = { a: 0, b: 0, c: 0 };
  const options = (name: keyof typeof answers) =>
    // eslint-disable-next-line @tanstack/query/exhaustive-deps -- the test's answers stand in for the network
    queryOptions({
      queryKey: ["together", name] as const,
      queryFn: () => {
        calls[name] += 1;
        return answers[name].promise;
      },
    });
  // What each render of a reader of the three queries saw.
  const seen: string[] = [];
  function Reader() {
    const a = useQuery(options("a"));
    const b = useQuery(options("b"));
    const c = useQuery(options("c"));
    const shown = [a, b, c].map((q) => (q.isError ? "error" : (q.data ?? "-"))).join(" ");
    seen.push(shown);
    return <p data-testid="shown">{shown}</p>;
  }
  return { client, answers, calls, options, seen, Reader };
}

describe("readTogether", () => {
  it("puts answers that land at different moments in the cache in one render", async () => {
    const { client, answers, calls, options, seen, Reader } = setUp();
    expect(readTogether(client, [options("a"), options("b"), options("c")])).toBe(true);
    render(
      <QueryClientProvider client={client}>
        <Reader />
      </QueryClientProvider>,
    );
    // The readers mounted meanwhile share the reads in flight: each query is read once.
    await land(() => answers.b.resolve("B"));
    await land(() => answers.a.resolve("A"));
    expect(screen.getByTestId("shown").textContent).toBe("- - -");
    await land(() => answers.c.resolve("C"));
    await waitFor(() => expect(screen.getByTestId("shown").textContent).toBe("A B C"));
    // Never one answer without the others (without the combined read: "- B -", "A B -").
    expect(seen.filter((s) => s !== "- - -" && s !== "A B C")).toEqual([]);
    expect(calls).toEqual({ a: 1, b: 1, c: 1 });
  });

  it("keeps a failed read's error and lands the others together", async () => {
    const { client, answers, options, seen, Reader } = setUp();
    readTogether(client, [options("a"), options("b"), options("c")]);
    render(
      <QueryClientProvider client={client}>
        <Reader />
      </QueryClientProvider>,
    );
    await land(() => answers.a.resolve("A"));
    await land(() => answers.b.reject(new Error("down")));
    await land(() => answers.c.resolve("C"));
    await waitFor(() => expect(screen.getByTestId("shown").textContent).toBe("A error C"));
    expect(seen.filter((s) => s !== "- - -" && s !== "A error C")).toEqual([]);
  });

  it("does not hold the others longer than the wait after the first answer", async () => {
    const { client, answers, options, seen, Reader } = setUp();
    readTogether(client, [options("a"), options("b"), options("c")], 300);
    render(
      <QueryClientProvider client={client}>
        <Reader />
      </QueryClientProvider>,
    );
    await land(() => answers.a.resolve("A"));
    await land(() => answers.b.resolve("B"));
    expect(screen.getByTestId("shown").textContent).toBe("- - -");
    // c is slow: a and b land together once the wait is over, c on its own later.
    await waitFor(() => expect(screen.getByTestId("shown").textContent).toBe("A B -"));
    await land(() => answers.c.resolve("C"));
    await waitFor(() => expect(screen.getByTestId("shown").textContent).toBe("A B C"));
    expect(seen.filter((s) => !["- - -", "A B -", "A B C"].includes(s))).toEqual([]);
  });

  it("leaves queries already read or in flight to themselves", async () => {
    const { client, answers, calls, options } = setUp();
    client.setQueryData(options("a").queryKey, "cached");
    void client.prefetchQuery(options("b"));
    // One query left: nothing to combine, its reader reads it as usual.
    expect(readTogether(client, [options("a"), options("b"), options("c")])).toBe(false);
    expect(calls).toEqual({ a: 0, b: 1, c: 0 });
    // Two unread: read together, the cached one not again.
    const fresh = setUp();
    fresh.client.setQueryData(fresh.options("a").queryKey, "cached");
    expect(
      readTogether(fresh.client, [fresh.options("a"), fresh.options("b"), fresh.options("c")]),
    ).toBe(true);
    await vi.waitFor(() => expect(fresh.calls).toEqual({ a: 0, b: 1, c: 1 }));
    // Called again while in flight (every render of the page calls it): nothing new.
    expect(
      readTogether(fresh.client, [fresh.options("a"), fresh.options("b"), fresh.options("c")]),
    ).toBe(false);
    answers.b.resolve("B");
    fresh.answers.b.resolve("B");
    fresh.answers.c.resolve("C");
    await vi.waitFor(() => expect(fresh.client.getQueryData(["together", "c"])).toBe("C"));
    expect(fresh.client.getQueryData(["together", "b"])).toBe("B");
    expect(fresh.calls).toEqual({ a: 0, b: 1, c: 1 });
  });
});
