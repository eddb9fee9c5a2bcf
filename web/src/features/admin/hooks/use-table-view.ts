import { useMemo } from "react";
import { useUrlState } from "@/hooks/use-url-state";
import { useUrlTextDraft } from "@/hooks/use-url-text-draft";
import type { ParamValue } from "@/lib/url-state";

/** The address keys of one table's search, sort column, order and page (decision 0045). */
export interface TableViewKeys {
  search: string;
  sort: string;
  order: string;
  page: string;
}

/** What every admin table's view has: a search, a sort and a 0-based page. */
export interface SortableView<C extends string> {
  search: string;
  sortBy: C;
  sortDesc: boolean;
  page: number;
}

/**
 * An admin table's view in the address, for the users (server-paged), latest alerts and live
 * visitors (paged in the browser) tabs: the parsed view; `setView`, which starts again at page 1
 * (every change but a page turn does); the search field's draft, written to the address once
 * typing pauses; the sort headers' props (a second click on the sorted column turns the order
 * round, another column starts in its own direction); and `onPage` for the pager (0-based). All
 * replace the history entry.
 */
export function useTableView<C extends string, V extends SortableView<C>>({
  defaults,
  keys,
  parse,
  descendingFirst,
}: {
  defaults: Record<string, ParamValue>;
  keys: TableViewKeys;
  parse: (params: URLSearchParams) => V;
  /** Whether a column sorts descending when it is first chosen. */
  descendingFirst: (column: C) => boolean;
}) {
  const [params, setUrl] = useUrlState(defaults);
  const view = useMemo(() => parse(params), [parse, params]);
  const setView = (changes: Record<string, ParamValue>) => setUrl({ [keys.page]: 1, ...changes });
  const [searchDraft, setSearchDraft] = useUrlTextDraft(view.search, (value) =>
    setView({ [keys.search]: value }),
  );
  const onSort = (column: C) => {
    const desc = column === view.sortBy ? !view.sortDesc : descendingFirst(column);
    setView({ [keys.sort]: column, [keys.order]: desc ? "desc" : "asc" });
  };
  const onPage = (page: number) => setUrl({ [keys.page]: page + 1 });
  return {
    view,
    setView,
    searchDraft,
    setSearchDraft,
    sortProps: { sortBy: view.sortBy, sortDesc: view.sortDesc, onSort },
    onPage,
  };
}
