import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { matchPath, useLocation } from "react-router-dom";
import { useTheme } from "@/features/theme/stores/theme-store";

type PageKey =
  | "landing"
  | "pricing"
  | "login"
  | "register"
  | "dashboard"
  | "settings"
  | "trackRecord"
  | "charts"
  | "profile"
  | "groups"
  | "chat"
  | "support"
  | "ticket"
  | "adminTickets"
  | "admin"
  | "adminSetup"
  | "imprint"
  | "privacy"
  | "notFound";

/** Each page's title and description (namespace `shell`, `pages.<key>`), by route pattern. */
export const PAGE_META: ReadonlyArray<readonly [pattern: string, key: PageKey]> = [
  ["/", "landing"],
  ["/pricing", "pricing"],
  ["/auth/login", "login"],
  ["/auth/register", "register"],
  ["/dashboard", "dashboard"],
  ["/dashboard/settings", "settings"],
  ["/dashboard/track-record", "trackRecord"],
  ["/charts", "charts"],
  ["/profile", "profile"],
  ["/community/groups", "groups"],
  ["/community/chat", "chat"],
  ["/support", "support"],
  ["/support/ticket/:id", "ticket"],
  ["/admin/tickets", "adminTickets"],
  ["/admin", "admin"],
  ["/admin-setup", "adminSetup"],
  ["/impressum", "imprint"],
  ["/datenschutz", "privacy"],
];

/** Background of each theme (index.css `--background`), for the browser's and the OS's UI. */
export const THEME_COLOR = { light: "#ffffff", dark: "#0a0a0a" } as const;

export function pageKey(pathname: string): PageKey {
  return PAGE_META.find(([pattern]) => matchPath(pattern, pathname))?.[1] ?? "notFound";
}

function setMeta(name: string, content: string) {
  let meta = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]:not([media])`);
  if (!meta) {
    meta = document.createElement("meta");
    meta.name = name;
    document.head.append(meta);
  }
  meta.content = content;
}

/** Keeps <title>, the description and the theme colour in step with the page, language and theme. */
export function DocumentMeta() {
  const { t, i18n } = useTranslation("shell");
  const { pathname } = useLocation();
  const theme = useTheme();
  const key = pageKey(pathname);
  const title = t(`pages.${key}.title`);
  const description = t(`pages.${key}.description`);

  useEffect(() => {
    document.title = key === "landing" ? title : `${title} · ${t("titleSuffix")}`;
    setMeta("description", description);
  }, [key, title, description, t, i18n.language]);

  useEffect(() => {
    setMeta("theme-color", THEME_COLOR[theme]);
  }, [theme]);

  return null;
}
