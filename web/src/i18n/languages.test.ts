import { afterEach, describe, expect, it, vi } from "vitest";
import {
  detectBrowserLanguage,
  initialLanguage,
  LANGUAGE_STORAGE_KEY,
  readStoredLanguage,
} from "./languages";

describe("detectBrowserLanguage", () => {
  it("takes the first preferred language the app speaks, by its primary subtag", () => {
    expect(detectBrowserLanguage(["de-DE", "en-US"])).toBe("de");
    expect(detectBrowserLanguage(["fr-CA"])).toBe("fr");
    expect(detectBrowserLanguage(["ES"])).toBe("es");
    expect(detectBrowserLanguage(["de_AT"])).toBe("de");
    // Japanese and Dutch are not offered: the next one is.
    expect(detectBrowserLanguage(["ja-JP", "nl", "es-MX", "de"])).toBe("es");
  });

  it("falls back to English when none is offered or nothing is known", () => {
    expect(detectBrowserLanguage(["ja", "pt-BR"])).toBe("en");
    expect(detectBrowserLanguage([])).toBe("en");
    expect(detectBrowserLanguage(undefined)).toBe("en");
    expect(detectBrowserLanguage(["", "  "])).toBe("en");
  });
});

describe("initialLanguage", () => {
  afterEach(() => {
    localStorage.clear();
    vi.restoreAllMocks();
  });

  it("follows the browser's language when nothing is saved", () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["fr-FR", "en"]);
    expect(readStoredLanguage()).toBeNull();
    expect(initialLanguage()).toBe("fr");
  });

  it("keeps the user's saved choice over the browser's language", () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["de-DE"]);
    localStorage.setItem(LANGUAGE_STORAGE_KEY, "en");
    expect(initialLanguage()).toBe("en");
  });

  it("ignores a saved value that is not a language", () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["es-ES"]);
    localStorage.setItem(LANGUAGE_STORAGE_KEY, "klingon");
    expect(readStoredLanguage()).toBeNull();
    expect(initialLanguage()).toBe("es");
  });
});
