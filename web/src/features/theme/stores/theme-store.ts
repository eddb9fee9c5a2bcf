import { create } from "zustand";

export const THEMES = ["light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export const DEFAULT_THEME: Theme = "dark";
export const THEME_STORAGE_KEY = "theme";

function isTheme(value: unknown): value is Theme {
  return value === "light" || value === "dark";
}

function readStoredTheme(): Theme {
  try {
    const stored = globalThis.localStorage?.getItem(THEME_STORAGE_KEY);
    return isTheme(stored) ? stored : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

/**
 * Puts the theme on <html> (the `.dark` class drives the CSS variables) and
 * saves it. index.html applies the saved theme before React starts, so the
 * first paint already has the right colours.
 */
function applyTheme(theme: Theme): void {
  if (typeof document !== "undefined") {
    document.documentElement.classList.toggle("dark", theme === "dark");
  }
  try {
    globalThis.localStorage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage unavailable: the theme still applies for this session.
  }
}

type ThemeState = {
  theme: Theme;
  actions: {
    setTheme: (theme: Theme) => void;
    toggleTheme: () => void;
  };
};

const useThemeStore = create<ThemeState>()((set, get) => ({
  theme: readStoredTheme(),
  actions: {
    setTheme: (theme) => {
      applyTheme(theme);
      set({ theme });
    },
    toggleTheme: () => get().actions.setTheme(get().theme === "dark" ? "light" : "dark"),
  },
}));

export const useTheme = () => useThemeStore((state) => state.theme);
export const useThemeActions = () => useThemeStore((state) => state.actions);
