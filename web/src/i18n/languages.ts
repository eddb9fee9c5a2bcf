export const SUPPORTED_LANGUAGES = ["de", "en", "fr", "es"] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = "en";
export const LANGUAGE_STORAGE_KEY = "language";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/** The language the user picked (saved by the language menu), or null when none (or garbage) is stored. */
export function readStoredLanguage(): Language | null {
  try {
    const stored = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null;
  }
}

/**
 * The first of the browser's languages (`navigator.languages`, most preferred first) that the app
 * speaks, matched by its primary subtag ("de-AT" → de, "fr" → fr); English when none is.
 * index.html's first script and the language preload (language-preload.config.ts) repeat this
 * rule in plain script, so the page's `lang` and the first chunk agree with the app's choice.
 */
export function detectBrowserLanguage(preferred: readonly string[] | undefined | null): Language {
  for (const tag of preferred ?? []) {
    if (typeof tag !== "string") continue;
    const primary = tag.trim().split(/[-_]/)[0]?.toLowerCase();
    if (isLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

/** The browser's preferred languages, most preferred first (empty outside a browser). */
function browserLanguages(): readonly string[] {
  const nav = globalThis.navigator;
  if (!nav) return [];
  if (nav.languages && nav.languages.length > 0) return nav.languages;
  return nav.language ? [nav.language] : [];
}

/** The language a visit starts in: the user's saved choice, else the browser's language. */
export function initialLanguage(): Language {
  return readStoredLanguage() ?? detectBrowserLanguage(browserLanguages());
}

export function storeLanguage(language: Language): void {
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage can be unavailable (private mode, quota); the choice then lasts for the session.
  }
}
