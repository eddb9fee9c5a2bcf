import { QueryClient } from "@tanstack/react-query";

/**
 * Data-loading defaults from the product spec: no automatic retries, no
 * refetch on window focus, cached data never goes stale. Queries that must
 * poll or refresh opt in one by one.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
