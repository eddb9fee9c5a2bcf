import deCommon from "./locales/de/common.json";
import deLanding from "./locales/de/landing.json";
import enCommon from "./locales/en/common.json";
import enLanding from "./locales/en/landing.json";
import esCommon from "./locales/es/common.json";
import esLanding from "./locales/es/landing.json";
import frCommon from "./locales/fr/common.json";
import frLanding from "./locales/fr/landing.json";
import type { Language } from "./languages";

export const defaultNS = "common";
export const namespaces = ["common", "landing"] as const;

/** English is the reference: every other language must have exactly its keys. */
export type Resources = {
  common: typeof enCommon;
  landing: typeof enLanding;
};

export const resources: Record<Language, Resources> = {
  en: { common: enCommon, landing: enLanding },
  de: { common: deCommon, landing: deLanding },
  fr: { common: frCommon, landing: frLanding },
  es: { common: esCommon, landing: esLanding },
};
