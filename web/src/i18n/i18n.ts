import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import {
  DEFAULT_LANGUAGE,
  initialLanguage,
  isLanguage,
  storeLanguage,
  SUPPORTED_LANGUAGES,
  type Language,
} from "./languages";
import { CORE_NAMESPACES, defaultNS, namespaces } from "./resources";

type Bundle = { default: Record<string, Record<string, unknown>> };

// Two chunks per language: a visitor downloads only the language they read, not all four, and
// the landing page waits only for the small core (bundles/<lng>-core.ts); the other namespaces
// (bundles/<lng>.ts) arrive when a page asks for one (react-i18next suspends it meanwhile) or
// once the first page has rendered. `i18n.changeLanguage(lng)` loads what is in use first.
const coreBundles: Record<Language, () => Promise<Bundle>> = {
  de: () => import("./bundles/de-core"),
  en: () => import("./bundles/en-core"),
  fr: () => import("./bundles/fr-core"),
  es: () => import("./bundles/es-core"),
};
const otherBundles: Record<Language, () => Promise<Bundle>> = {
  de: () => import("./bundles/de"),
  en: () => import("./bundles/en"),
  fr: () => import("./bundles/fr"),
  es: () => import("./bundles/es"),
};

const core = new Set<string>(CORE_NAMESPACES);

/**
 * A namespace's texts in a language chunk, whose keys are the files' paths: `locales/<lng>/<ns>.json`,
 * and for `messages` the edge functions' `_shared/i18n/<lng>/messages.json`.
 */
function namespaceIn(bundle: Bundle, language: Language, namespace: string) {
  const suffix = `/${language}/${namespace}.json`;
  const file = Object.keys(bundle.default).find((path) => path.endsWith(suffix));
  return file === undefined ? undefined : bundle.default[file];
}

/** The namespaces that are not in the core, in the order of `namespaces`. */
export const LATER_NAMESPACES = namespaces.filter((ns) => !core.has(ns));

const languageBundles: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, callback) {
    if (!isLanguage(language)) return callback(null, {});
    const bundles = core.has(namespace) ? coreBundles : otherBundles;
    bundles[language]().then(
      (bundle) => callback(null, namespaceIn(bundle, language, namespace) ?? {}),
      (err: Error) => callback(err, null),
    );
  },
};

// This listener keeps <html lang> in sync with the language in use.
i18n.on("languageChanged", (lng) => {
  if (!isLanguage(lng)) return;
  if (typeof document !== "undefined") document.documentElement.lang = lng;
});

/**
 * The user picks a language (the language menu): it is saved under the `language` key and kept
 * on later visits, whatever the browser's language. A first visit without a saved choice follows
 * the browser's language (`initialLanguage`) and saves nothing, so it keeps following it.
 */
export function chooseLanguage(lng: Language): Promise<unknown> {
  storeLanguage(lng);
  return i18n.changeLanguage(lng);
}

/** Resolves when the reader's language is loaded: main.tsx renders after it. */
export const i18nReady = i18n
  .use(languageBundles)
  .use(initReactI18next)
  .init({
    lng: initialLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: SUPPORTED_LANGUAGES,
    // Every language has every key (locales.test.ts): no need to load English beside another one.
    load: "currentOnly",
    ns: [...CORE_NAMESPACES],
    defaultNS,
    interpolation: { escapeValue: false },
    returnNull: false,
  });

/** Fetches the other namespaces of the reader's language; main.tsx calls it after the first render. */
export function loadLaterNamespaces(): Promise<void> {
  return i18n.loadNamespaces(LATER_NAMESPACES);
}

export { i18n };
