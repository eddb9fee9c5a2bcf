import { useCallback, useEffect, useMemo } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { create } from "zustand";
import { type ParamValue, withParams } from "@/lib/url-state";

type Pending = { pathname: string; from: string; to: string };

/**
 * The address a page has asked for and the router has not committed yet. The router commits a
 * location change in a React transition, which a busy page (the live movers list) can hold back;
 * the page shows the asked-for state at once from here, and a second change builds on the first.
 */
const usePendingAddress = create<{ pending: Pending | null }>()(() => ({ pending: null }));

/**
 * The page's query parameters and a writer (decision 0045). Filters, searches, sorts and pages
 * replace the history entry (Back leaves the page, not each keystroke); `push: true` adds an
 * entry (the dashboard's window, where Back returns to the previous window). The hash stays.
 */
export function useUrlState(defaults: Record<string, ParamValue> = {}) {
  const navigate = useNavigate();
  const location = useLocation();
  const { pathname, search, hash } = location;
  // The entry the page is on: its key (unique per history entry) and its query.
  const entry = `${location.key}${search}`;
  const state: unknown = location.state;
  const pending = usePendingAddress((store) => store.pending);
  const current =
    pending && pending.pathname === pathname && pending.from === entry ? pending.to : search;
  const params = useMemo(() => new URLSearchParams(current), [current]);
  // Once the router moved (committed, Back, another page), the pending address is spent.
  useEffect(() => {
    const held = usePendingAddress.getState().pending;
    if (held && (held.pathname !== pathname || held.from !== entry)) {
      usePendingAddress.setState({ pending: null });
    }
  }, [pathname, entry]);
  // `defaults` is a fresh object literal on each render at most call sites; its values are
  // constants, so the writer is kept while their text stays the same.
  const defaultsKey = JSON.stringify(defaults);
  const set = useCallback(
    (changes: Record<string, ParamValue>, options: { push?: boolean } = {}) => {
      const held = usePendingAddress.getState().pending;
      const base = held && held.pathname === pathname && held.from === entry ? held.to : search;
      const fallback = JSON.parse(defaultsKey) as Record<string, ParamValue>;
      const next = withParams(new URLSearchParams(base), changes, fallback).toString();
      const to = next === "" ? "" : `?${next}`;
      if (to === base) return;
      usePendingAddress.setState({ pending: { pathname, from: entry, to } });
      void navigate(
        { search: to, hash },
        { replace: !options.push, state, preventScrollReset: true },
      );
    },
    [pathname, search, entry, hash, state, navigate, defaultsKey],
  );
  return [params, set] as const;
}
