import { ActivityIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The header's bar and its brand: one set of classes for the header and the app shell. */
export const HEADER_BAR_CLASS =
  "sticky top-0 z-40 border-b bg-background/80 backdrop-blur supports-[backdrop-filter]:bg-background/60";
export const HEADER_ROW_CLASS =
  "mx-auto flex h-16 w-full max-w-6xl items-center gap-3 px-4 xl:max-w-7xl";
export const BRAND_CLASS =
  "flex shrink-0 items-center gap-2 rounded-md text-lg font-bold tracking-tight";

/**
 * What an address that is not pre-rendered (the dashboard, the sign-in page, every page but `/`
 * and `/pricing`) shows before the app has loaded: the header's bar with the brand, in its place
 * and size, over a screen-high main (decision 0080). It is written into `app.html` at build time
 * (prerender.config.ts) and replaced by the app's first render (main.tsx: not hydrated). Before,
 * the screen stayed empty until the app's script had run (the dashboard's first paint at 4 s on
 * Lighthouse's phone). No text in it depends on the reader: the brand is the same in every
 * language, and the theme is set before the first paint (index.html).
 *
 * With `children`, a page's frame drawn before its data (the dashboard's: dashboard/index.html),
 * in English: index.html hides it from readers of another language (`data-english-only`).
 */
export function AppShell({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-svh flex-col" data-app-shell="">
      <header className={HEADER_BAR_CLASS}>
        <div className={HEADER_ROW_CLASS}>
          <span className={BRAND_CLASS}>
            <ActivityIcon className="size-6 text-primary" aria-hidden="true" />
            <span>{t("app.name")}</span>
          </span>
        </div>
      </header>
      <main
        className="flex min-h-svh flex-1 flex-col"
        data-english-only={children === undefined ? undefined : ""}
      >
        {children}
      </main>
    </div>
  );
}
