import deCommon from "./locales/de/common.json";
import deLanding from "./locales/de/landing.json";
import deRealtime from "./locales/de/realtime.json";
import enCommon from "./locales/en/common.json";
import enLanding from "./locales/en/landing.json";
import enRealtime from "./locales/en/realtime.json";
import esCommon from "./locales/es/common.json";
import esLanding from "./locales/es/landing.json";
import esRealtime from "./locales/es/realtime.json";
import frCommon from "./locales/fr/common.json";
import frLanding from "./locales/fr/landing.json";
import frRealtime from "./locales/fr/realtime.json";
import type { Language } from "./languages";

export const defaultNS = "common";
export const namespaces = ["common", "landing", "realtime"] as const;

/** English is the reference: every other language must have exactly its keys. */
export type Resources = {
  common: typeof enCommon;
  landing: typeof enLanding;
  realtime: typeof enRealtime;
};

export const resources: Record<Language, Resources> = {
  en: { common: enCommon, landing: enLanding, realtime: enRealtime },
  de: { common: deCommon, landing: deLanding, realtime: deRealtime },
  fr: { common: frCommon, landing: frLanding, realtime: frRealtime },
  es: { common: esCommon, landing: esLanding, realtime: esRealtime },
};
