import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import {
  createMemoryRouter,
  MemoryRouter,
  RouterProvider,
  type RouteObject,
} from "react-router-dom";
import { routes } from "@/app/router";
import { Toaster } from "@/components/ui/sonner";
import { createQueryClient } from "@/lib/query-client";

/** A fresh client per test with the app's defaults (retry: false), nothing shared. */
export function createTestQueryClient(): QueryClient {
  return createQueryClient();
}

function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      {children}
      {/* Toasts are part of what the user sees; assert them by text. */}
      <Toaster />
    </QueryClientProvider>
  );
}

/** Renders a component inside a query client and a memory router. */
export function renderWithProviders(ui: ReactElement, { route = "/" }: { route?: string } = {}) {
  const queryClient = createTestQueryClient();
  return {
    queryClient,
    ...render(
      <Providers client={queryClient}>
        <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
      </Providers>,
    ),
  };
}

/** Renders the real route table (layout included) at a path, or a test's own table. */
export function renderRoute(path: string, { table = routes }: { table?: RouteObject[] } = {}) {
  const queryClient = createTestQueryClient();
  const router = createMemoryRouter(table, { initialEntries: [path] });
  return {
    queryClient,
    router,
    ...render(
      <Providers client={queryClient}>
        <RouterProvider router={router} />
      </Providers>,
    ),
  };
}
