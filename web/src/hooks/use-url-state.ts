import { useCallback } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { type ParamValue, withParams } from "@/lib/url-state";

/**
 * The page's query parameters and a writer (decision 0045). Filters, searches, sorts and pages
 * replace the history entry (Back leaves the page, not each keystroke); `push: true` adds an
 * entry (the dashboard's window, where Back returns to the previous window). The hash stays.
 */
export function useUrlState(defaults: Record<string, ParamValue> = {}) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { search, hash } = location;
  const state: unknown = location.state;
  // `defaults` is a fresh object literal on each render at most call sites; its values are
  // constants, so the writer is kept while their text stays the same.
  const defaultsKey = JSON.stringify(defaults);
  const set = useCallback(
    (changes: Record<string, ParamValue>, options: { push?: boolean } = {}) => {
      const fallback = JSON.parse(defaultsKey) as Record<string, ParamValue>;
      const next = withParams(new URLSearchParams(search), changes, fallback).toString();
      if (`?${next}` === search || (next === "" && search === "")) return;
      void navigate(
        { search: next === "" ? "" : `?${next}`, hash },
        // flushSync: the list answers the click in the same frame, as it did when filters were
        // component state (a transition would let a live update paint the old filter first).
        { replace: !options.push, state, preventScrollReset: true, flushSync: true },
      );
    },
    [search, hash, state, navigate, defaultsKey],
  );
  return [params, set] as const;
}
