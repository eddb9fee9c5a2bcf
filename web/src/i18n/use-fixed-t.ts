import type { FlatNamespace, TFunction } from "i18next";
import { useSyncExternalStore } from "react";
import { getI18n } from "react-i18next";

/**
 * A light `useTranslation` for components drawn many times over (the dashboard's cards and rows:
 * about ten translated parts per card). react-i18next's hook costs each component, on mount, a copy
 * of the i18next instance's properties, a `getFixedT`, several memos and two listeners on the
 * instance (decision 0095); here every caller shares one listener and one `t` per language and
 * namespace. Same contract where it is used: it re-renders on a language change and suspends
 * while the namespace is not loaded (the dashboard's namespace is loaded before its page renders).
 */
type Listener = () => void;
const listeners = new Set<Listener>();
let revision = 0;
let bound = false;

function subscribe(listener: Listener): () => void {
  if (!bound) {
    bound = true;
    getI18n().on("languageChanged", () => {
      revision += 1;
      for (const notify of listeners) notify();
    });
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

type Fixed = { key: string; t: TFunction<FlatNamespace>; locale: string };
const fixedByNamespace = new Map<string, Fixed>();

function snapshot(ns: FlatNamespace): Fixed {
  const i18n = getI18n();
  const language = i18n.language;
  const key = `${language}|${revision}`;
  const cached = fixedByNamespace.get(ns);
  if (cached?.key === key) return cached;
  const fixed: Fixed = {
    key,
    t: i18n.getFixedT(language, ns),
    locale: i18n.resolvedLanguage ?? "en",
  };
  fixedByNamespace.set(ns, fixed);
  return fixed;
}

/** `t` of one namespace and the reader's locale (`resolvedLanguage`, "en" before it is known). */
export function useFixedT<Ns extends FlatNamespace>(ns: Ns): { t: TFunction<Ns>; locale: string } {
  const read = () => snapshot(ns);
  // The same snapshot on the server (the build's pre-rendering) and while hydrating.
  const fixed = useSyncExternalStore(subscribe, read, read);
  const i18n = getI18n();
  if (!i18n.hasLoadedNamespace(ns)) {
    // As react-i18next's hook with `useSuspense` (the app's default): wait for the texts.
    throw new Promise<void>((resolve) => void i18n.loadNamespaces(ns, () => resolve()));
  }
  return { t: fixed.t as unknown as TFunction<Ns>, locale: fixed.locale };
}
