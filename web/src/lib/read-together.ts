import { notifyManager, type QueryClient, type QueryKey } from "@tanstack/react-query";

/** One query of a read together: its key and the function that reads it (`queryOptions`). */
export type TogetherPart = {
  queryKey: QueryKey;
  queryFn?: ((context: never) => unknown) | symbol;
};

/** Not read yet and not being read: no data, no error, no fetch in flight. */
function unread(client: QueryClient, queryKey: QueryKey): boolean {
  const state = client.getQueryState(queryKey);
  return (
    state === undefined ||
    (state.data === undefined &&
      state.fetchStatus === "idle" &&
      state.dataUpdateCount === 0 &&
      state.errorUpdateCount === 0)
  );
}

/** An answer waits at most this long for the others after the first has landed. */
export const TOGETHER_MAX_WAIT_MS = 500;

/**
 * Reads the queries that are not in the cache yet in parallel and puts their answers in it in one
 * go, once the last has landed (decision 0105): each answer landing on its own is a query-cache
 * notification, a synchronous render of every reader (`useSyncExternalStore`), so three answers
 * were three renders in an order that varied from load to load; together they are one.
 *
 * No answer waits more than `maxWaitMs` after the first one for the others: what has landed by
 * then is put in the cache together, a later answer on its own (a slow read does not hold the
 * others). Each query is marked as being read (its own fetch shares the combined one), so a
 * reader that mounts meanwhile waits for it instead of reading again. A query that fails keeps
 * its error (its fetch rejects as before). Queries already read or in flight are left alone.
 * Returns whether a read was started (two or more queries unread).
 */
export function readTogether(
  client: QueryClient,
  parts: readonly TogetherPart[],
  maxWaitMs = TOGETHER_MAX_WAIT_MS,
): boolean {
  const pending = parts.filter((part) => unread(client, part.queryKey));
  if (pending.length < 2) return false;
  const reads = pending.map((part) => {
    const fn = part.queryFn;
    if (typeof fn !== "function") return Promise.reject(new Error("readTogether: no queryFn"));
    // The same context a query's own fetch gives its function.
    const context = {
      client,
      queryKey: part.queryKey,
      signal: new AbortController().signal,
      meta: undefined,
    };
    return Promise.resolve().then(() => fn(context as never));
  });
  // What each read answered, as it lands (never left unhandled: every read is followed here).
  const answers: ({ data: unknown } | null | undefined)[] = pending.map(() => undefined);
  const settled = reads.map((read, i) =>
    read.then(
      (data) => void (answers[i] = { data }),
      () => void (answers[i] = null),
    ),
  );
  const deadline = Promise.race(settled).then(
    () => new Promise<void>((resolve) => setTimeout(resolve, maxWaitMs)),
  );
  // Runs before the queries' own continuations: one notification batch sets every answer in,
  // then each of those queries' fetches resolves with the same data (nothing changes for readers).
  let hasLanded = false;
  const landed = Promise.race([Promise.all(settled), deadline]).then(() => {
    hasLanded = true;
    notifyManager.batch(() => {
      answers.forEach((answer, i) => {
        if (answer) client.setQueryData(pending[i]!.queryKey, answer.data);
      });
    });
  });
  pending.forEach((part, i) => {
    // eslint-disable-next-line @tanstack/query/exhaustive-deps -- the query's own key; its function shares the combined read
    void client.prefetchQuery({
      queryKey: part.queryKey,
      // Landed with the others, or (after the wait) on its own.
      queryFn: () => settled[i]!.then(() => (hasLanded ? undefined : landed)).then(() => reads[i]),
    });
  });
  return true;
}
