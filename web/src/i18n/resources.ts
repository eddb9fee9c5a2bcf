import deAuth from "./locales/de/auth.json";
import deCharts from "./locales/de/charts.json";
import deCommon from "./locales/de/common.json";
import deDashboard from "./locales/de/dashboard.json";
import deLanding from "./locales/de/landing.json";
import deLegal from "./locales/de/legal.json";
import dePricing from "./locales/de/pricing.json";
import deProfile from "./locales/de/profile.json";
import deRealtime from "./locales/de/realtime.json";
import deSettings from "./locales/de/settings.json";
import deShell from "./locales/de/shell.json";
import deValidation from "./locales/de/validation.json";
import enAuth from "./locales/en/auth.json";
import enCharts from "./locales/en/charts.json";
import enCommon from "./locales/en/common.json";
import enDashboard from "./locales/en/dashboard.json";
import enLanding from "./locales/en/landing.json";
import enLegal from "./locales/en/legal.json";
import enPricing from "./locales/en/pricing.json";
import enProfile from "./locales/en/profile.json";
import enRealtime from "./locales/en/realtime.json";
import enSettings from "./locales/en/settings.json";
import enShell from "./locales/en/shell.json";
import enValidation from "./locales/en/validation.json";
import esAuth from "./locales/es/auth.json";
import esCharts from "./locales/es/charts.json";
import esCommon from "./locales/es/common.json";
import esDashboard from "./locales/es/dashboard.json";
import esLanding from "./locales/es/landing.json";
import esLegal from "./locales/es/legal.json";
import esPricing from "./locales/es/pricing.json";
import esProfile from "./locales/es/profile.json";
import esRealtime from "./locales/es/realtime.json";
import esSettings from "./locales/es/settings.json";
import esShell from "./locales/es/shell.json";
import esValidation from "./locales/es/validation.json";
import frAuth from "./locales/fr/auth.json";
import frCharts from "./locales/fr/charts.json";
import frCommon from "./locales/fr/common.json";
import frDashboard from "./locales/fr/dashboard.json";
import frLanding from "./locales/fr/landing.json";
import frLegal from "./locales/fr/legal.json";
import frPricing from "./locales/fr/pricing.json";
import frProfile from "./locales/fr/profile.json";
import frRealtime from "./locales/fr/realtime.json";
import frSettings from "./locales/fr/settings.json";
import frShell from "./locales/fr/shell.json";
import frValidation from "./locales/fr/validation.json";
import type { Language } from "./languages";

export const defaultNS = "common";
export const namespaces = [
  "common",
  "validation",
  "landing",
  "realtime",
  "auth",
  "pricing",
  "legal",
  "profile",
  "settings",
  "dashboard",
  "charts",
  "shell",
] as const;

/** English is the reference: every other language must have exactly its keys. */
export type Resources = {
  common: typeof enCommon;
  validation: typeof enValidation;
  landing: typeof enLanding;
  realtime: typeof enRealtime;
  auth: typeof enAuth;
  pricing: typeof enPricing;
  legal: typeof enLegal;
  profile: typeof enProfile;
  settings: typeof enSettings;
  dashboard: typeof enDashboard;
  charts: typeof enCharts;
  shell: typeof enShell;
};

export const resources: Record<Language, Resources> = {
  en: {
    common: enCommon,
    validation: enValidation,
    landing: enLanding,
    realtime: enRealtime,
    auth: enAuth,
    pricing: enPricing,
    legal: enLegal,
    profile: enProfile,
    settings: enSettings,
    dashboard: enDashboard,
    charts: enCharts,
    shell: enShell,
  },
  de: {
    common: deCommon,
    validation: deValidation,
    landing: deLanding,
    realtime: deRealtime,
    auth: deAuth,
    pricing: dePricing,
    legal: deLegal,
    profile: deProfile,
    settings: deSettings,
    dashboard: deDashboard,
    charts: deCharts,
    shell: deShell,
  },
  fr: {
    common: frCommon,
    validation: frValidation,
    landing: frLanding,
    realtime: frRealtime,
    auth: frAuth,
    pricing: frPricing,
    legal: frLegal,
    profile: frProfile,
    settings: frSettings,
    dashboard: frDashboard,
    charts: frCharts,
    shell: frShell,
  },
  es: {
    common: esCommon,
    validation: esValidation,
    landing: esLanding,
    realtime: esRealtime,
    auth: esAuth,
    pricing: esPricing,
    legal: esLegal,
    profile: esProfile,
    settings: esSettings,
    dashboard: esDashboard,
    charts: esCharts,
    shell: esShell,
  },
};
