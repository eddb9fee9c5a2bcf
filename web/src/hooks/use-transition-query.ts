import {
  type DefaultError,
  notifyManager,
  QueryObserver,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
  useQueryClient,
} from "@tanstack/react-query";
import { startTransition, useEffect, useState } from "react";

/**
 * `useQuery` whose arrivals render at transition priority (decision 0109).
 *
 * `useQuery` follows its cache through `useSyncExternalStore`, and React renders every change of
 * such a store synchronously: an answer that arrives while the page is being drawn re-renders
 * its component and every child that is not memoised in one task, however long. This hook reads
 * the same observer, but a change schedules its re-render in `startTransition`, so React renders
 * it in slices that yield to the browser, and a render the user asked for (a click, a key) goes
 * first. What a render shows is the observer's result at that moment, as `useQuery`'s is; the
 * only difference is when the component is told. For what arrives after the first paint and
 * needs no immediate answer (the session and profile behind the header, the dashboard's feed,
 * sparklines, Sources line and signals). No suspense and no error boundaries: none of those queries use them.
 */
export function useTransitionQuery<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
>(options: UseQueryOptions<TQueryFnData, TError, TData, TQueryKey>): UseQueryResult<TData, TError> {
  const client = useQueryClient();
  const defaulted = client.defaultQueryOptions(options);
  // As useQuery: the result says "fetching" at once when mounting starts a fetch.
  defaulted._optimisticResults = "optimistic";
  const [observer] = useState(
    () =>
      new QueryObserver<TQueryFnData, TError, TData, TQueryFnData, TQueryKey>(client, defaulted),
  );
  const result = observer.getOptimisticResult(defaulted);
  // The observer's result as this component last saw it, as useSyncExternalStore keeps its
  // snapshot: setting the same object again renders nothing.
  const [, setSeen] = useState(() => observer.getCurrentResult());

  useEffect(() => {
    observer.setOptions(defaulted);
  }, [defaulted, observer]);

  useEffect(() => {
    const follow = () => startTransition(() => setSeen(observer.getCurrentResult()));
    // Subscribing compares the observer's result again (or starts the fetch it owes).
    const unsubscribe = observer.subscribe(notifyManager.batchCalls(follow));
    // A change between the render and this subscription is not missed: a result the observer
    // took meanwhile without a listener (setOptions above updates it) is a new object, so this
    // renders; the same object renders nothing.
    follow();
    return unsubscribe;
  }, [observer]);

  // As useQuery: only the properties the component reads decide whether a change re-renders it.
  return observer.trackResult(result) as UseQueryResult<TData, TError>;
}
