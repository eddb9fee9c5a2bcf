import deAdmin from "./locales/de/admin.json";
import deAlerts from "./locales/de/alerts.json";
import deAuth from "./locales/de/auth.json";
import deCharts from "./locales/de/charts.json";
import deCommon from "./locales/de/common.json";
import deCommunity from "./locales/de/community.json";
import deDashboard from "./locales/de/dashboard.json";
import deLanding from "./locales/de/landing.json";
import deLegal from "./locales/de/legal.json";
import dePricing from "./locales/de/pricing.json";
import deProfile from "./locales/de/profile.json";
import deRealtime from "./locales/de/realtime.json";
import deSettings from "./locales/de/settings.json";
import deSupport from "./locales/de/support.json";
import deShell from "./locales/de/shell.json";
import deValidation from "./locales/de/validation.json";
import enAdmin from "./locales/en/admin.json";
import enAlerts from "./locales/en/alerts.json";
import enAuth from "./locales/en/auth.json";
import enCharts from "./locales/en/charts.json";
import enCommon from "./locales/en/common.json";
import enCommunity from "./locales/en/community.json";
import enDashboard from "./locales/en/dashboard.json";
import enLanding from "./locales/en/landing.json";
import enLegal from "./locales/en/legal.json";
import enPricing from "./locales/en/pricing.json";
import enProfile from "./locales/en/profile.json";
import enRealtime from "./locales/en/realtime.json";
import enSettings from "./locales/en/settings.json";
import enSupport from "./locales/en/support.json";
import enShell from "./locales/en/shell.json";
import enValidation from "./locales/en/validation.json";
import esAdmin from "./locales/es/admin.json";
import esAlerts from "./locales/es/alerts.json";
import esAuth from "./locales/es/auth.json";
import esCharts from "./locales/es/charts.json";
import esCommon from "./locales/es/common.json";
import esCommunity from "./locales/es/community.json";
import esDashboard from "./locales/es/dashboard.json";
import esLanding from "./locales/es/landing.json";
import esLegal from "./locales/es/legal.json";
import esPricing from "./locales/es/pricing.json";
import esProfile from "./locales/es/profile.json";
import esRealtime from "./locales/es/realtime.json";
import esSettings from "./locales/es/settings.json";
import esSupport from "./locales/es/support.json";
import esShell from "./locales/es/shell.json";
import esValidation from "./locales/es/validation.json";
import frAdmin from "./locales/fr/admin.json";
import frAlerts from "./locales/fr/alerts.json";
import frAuth from "./locales/fr/auth.json";
import frCharts from "./locales/fr/charts.json";
import frCommon from "./locales/fr/common.json";
import frCommunity from "./locales/fr/community.json";
import frDashboard from "./locales/fr/dashboard.json";
import frLanding from "./locales/fr/landing.json";
import frLegal from "./locales/fr/legal.json";
import frPricing from "./locales/fr/pricing.json";
import frProfile from "./locales/fr/profile.json";
import frRealtime from "./locales/fr/realtime.json";
import frSettings from "./locales/fr/settings.json";
import frSupport from "./locales/fr/support.json";
import frShell from "./locales/fr/shell.json";
import frValidation from "./locales/fr/validation.json";
import deMessages from "@messages/de/messages.json";
import enMessages from "@messages/en/messages.json";
import esMessages from "@messages/es/messages.json";
import frMessages from "@messages/fr/messages.json";
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
  "community",
  "support",
  "admin",
  "alerts",
  "shell",
  "messages",
] as const;

/**
 * Loaded before the first render (bundles/<lng>-core.ts, whose glob must list the same names):
 * what the landing page and the app shell use. The others come with the pages that use them.
 */
export const CORE_NAMESPACES = ["common", "landing", "realtime", "shell", "validation"] as const;

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
  community: typeof enCommunity;
  support: typeof enSupport;
  admin: typeof enAdmin;
  alerts: typeof enAlerts;
  shell: typeof enShell;
  /** The alert and ticket messages' texts: the edge functions' `_shared/i18n/<lng>/messages.json`. */
  messages: typeof enMessages;
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
    community: enCommunity,
    support: enSupport,
    admin: enAdmin,
    alerts: enAlerts,
    shell: enShell,
    messages: enMessages,
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
    community: deCommunity,
    support: deSupport,
    admin: deAdmin,
    alerts: deAlerts,
    shell: deShell,
    messages: deMessages,
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
    community: frCommunity,
    support: frSupport,
    admin: frAdmin,
    alerts: frAlerts,
    shell: frShell,
    messages: frMessages,
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
    community: esCommunity,
    support: esSupport,
    admin: esAdmin,
    alerts: esAlerts,
    shell: esShell,
    messages: esMessages,
  },
};
