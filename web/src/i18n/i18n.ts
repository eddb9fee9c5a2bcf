import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  readStoredLanguage,
  storeLanguage,
  SUPPORTED_LANGUAGES,
  type Language,
} from "./languages";
import { defaultNS, namespaces } from "./resources";

type Bundle = { default: Record<string, Record<string, unknown>> };

// One chunk per language (bundles/<lng>.ts holds all its namespaces): a visitor downloads only
// the language they read, not all four. `i18n.changeLanguage(lng)` loads it before switching.
const bundles: Record<Language, () => Promise<Bundle>> = {
  de: () => import("./bundles/de"),
  en: () => import("./bundles/en"),
  fr: () => import("./bundles/fr"),
  es: () => import("./bundles/es"),
};

const languageBundles: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, callback) {
    if (!isLanguage(language)) return callback(null, {});
    bundles[language]().then(
      (bundle) => callback(null, bundle.default[`../locales/${language}/${namespace}.json`] ?? {}),
      (err: Error) => callback(err, null),
    );
  },
};

// Change the language with `i18n.changeLanguage(lng)`; this listener persists
// it under the `language` key and keeps <html lang> in sync.
i18n.on("languageChanged", (lng) => {
  if (!isLanguage(lng)) return;
  storeLanguage(lng);
  if (typeof document !== "undefined") document.documentElement.lang = lng;
});

/** Resolves when the reader's language is loaded: main.tsx renders after it. */
export const i18nReady = i18n
  .use(languageBundles)
  .use(initReactI18next)
  .init({
    lng: readStoredLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: SUPPORTED_LANGUAGES,
    // Every language has every key (locales.test.ts): no need to load English beside another one.
    load: "currentOnly",
    ns: namespaces,
    defaultNS,
    interpolation: { escapeValue: false },
    returnNull: false,
  });

export { i18n };
