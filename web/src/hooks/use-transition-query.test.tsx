import { QueryClientProvider, useQuery, type QueryClient } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import { type ReactNode, Suspense, use, useLayoutEffect } from "react";
import { describe, expect, it } from "vitest";
import { createTestQueryClient } from "@/testing/render";
import { useTransitionQuery } from "./use-transition-query";

const KEY = ["transition-query-test"];
// A value the child cannot show yet: it suspends on a promise that never settles.
const NEVER = new Promise<never>(() => {});
// The query library tells its observers in a timer task (`notifyManager`): wait past it.
const notified = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

function Value({ value }: { value: number }) {
  if (value === 2) use(NEVER);
  return <p>value {value}</p>;
}

function Reader({ hook }: { hook: typeof useQuery }) {
  const query = hook({ queryKey: KEY, queryFn: () => Promise.resolve(1), staleTime: Infinity });
  if (query.isPending) return <p>pending</p>;
  return (
    <Suspense fallback={<p>suspended</p>}>
      <Value value={query.data as number} />
    </Suspense>
  );
}

function renderReader(hook: typeof useQuery, client: QueryClient = createTestQueryClient()) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { unmount } = render(<Reader hook={hook} />, { wrapper });
  return Object.assign(client, { unmount });
}

describe("useTransitionQuery", () => {
  it("reads the query like useQuery: pending, then the answer", async () => {
    renderReader(useTransitionQuery as typeof useQuery);
    expect(screen.getByText("pending")).toBeInTheDocument();
    expect(await screen.findByText("value 1")).toBeInTheDocument();
  });

  it("renders a change at transition priority: what is on screen stays while the change suspends", async () => {
    const client = renderReader(useTransitionQuery as typeof useQuery);
    await screen.findByText("value 1");
    act(() => {
      client.setQueryData(KEY, 2);
    });
    await notified();
    // A transition that suspends keeps the content already shown (React does not replace it by
    // a fallback); a synchronous render would show the fallback (the control below).
    expect(screen.getByText("value 1")).toBeInTheDocument();
    expect(screen.queryByText("suspended")).not.toBeInTheDocument();
    // And the next change that can be shown replaces it.
    act(() => {
      client.setQueryData(KEY, 3);
    });
    await notified();
    await waitFor(() => expect(screen.getByText("value 3")).toBeInTheDocument());
  });

  it("control: useQuery renders the same change synchronously, so the fallback shows", async () => {
    const client = renderReader(useQuery);
    await screen.findByText("value 1");
    act(() => {
      client.setQueryData(KEY, 2);
    });
    await notified();
    expect(screen.getByText("suspended")).toBeInTheDocument();
  });

  it("misses no change made between its render and its subscription", async () => {
    const client = createTestQueryClient();
    client.setQueryData(KEY, 1);
    // The cache changes after the reader's render read it and before its effect subscribes (a
    // layout effect runs between the two).
    function Writer() {
      useLayoutEffect(() => {
        client.setQueryData(KEY, 5);
      }, []);
      return null;
    }
    function Late() {
      const query = useTransitionQuery({ queryKey: KEY, queryFn: () => 1, staleTime: Infinity });
      return <p>late {String(query.data)}</p>;
    }
    render(
      <QueryClientProvider client={client}>
        <Late />
        <Writer />
      </QueryClientProvider>,
    );
    expect(await screen.findByText("late 5")).toBeInTheDocument();
  });

  it("stops following the cache once unmounted", async () => {
    const client = renderReader(useTransitionQuery as typeof useQuery);
    await screen.findByText("value 1");
    const query = client.getQueryCache().find({ queryKey: KEY })!;
    expect(query.getObserversCount()).toBe(1);
    client.unmount();
    expect(query.getObserversCount()).toBe(0);
  });
});
