import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  readStoredLanguage,
  storeLanguage,
  SUPPORTED_LANGUAGES,
} from "./languages";
import { defaultNS, namespaces, resources } from "./resources";

// Change the language with `i18n.changeLanguage(lng)`; this listener persists
// it under the `language` key and keeps <html lang> in sync.
i18n.on("languageChanged", (lng) => {
  if (!isLanguage(lng)) return;
  storeLanguage(lng);
  if (typeof document !== "undefined") document.documentElement.lang = lng;
});

void i18n.use(initReactI18next).init({
  resources,
  lng: readStoredLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: SUPPORTED_LANGUAGES,
  ns: namespaces,
  defaultNS,
  // Resources are bundled, so initialise synchronously: the first render is translated.
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export { i18n };
