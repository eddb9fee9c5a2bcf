import { create } from "zustand";

/** The reader's choice: a fixed theme, or "system" to follow `prefers-color-scheme` live. */
export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];
/** The theme on screen. */
export type ResolvedTheme = Exclude<Theme, "system">;

export const DEFAULT_THEME: Theme = "dark";
export const THEME_STORAGE_KEY = "theme";
const DARK_QUERY = "(prefers-color-scheme: dark)";

function isTheme(value: unknown): value is Theme {
  return value === "light" || value === "dark" || value === "system";
}

function readStoredTheme(): Theme {
  try {
    const stored = globalThis.localStorage?.getItem(THEME_STORAGE_KEY);
    return isTheme(stored) ? stored : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

function systemTheme(): ResolvedTheme {
  return globalThis.matchMedia?.(DARK_QUERY).matches === false ? "light" : "dark";
}

function resolve(theme: Theme): ResolvedTheme {
  return theme === "system" ? systemTheme() : theme;
}

/** Puts the resolved theme on <html> (the `.dark` class drives the CSS variables). */
function paint(resolved: ResolvedTheme): void {
  if (typeof document !== "undefined") {
    document.documentElement.classList.toggle("dark", resolved === "dark");
  }
}

/**
 * Applies the theme and saves the choice. index.html applies the saved choice before React
 * starts (the system's colour scheme for "system"), so the first paint already has the right
 * colours.
 */
function applyTheme(theme: Theme): ResolvedTheme {
  const resolved = resolve(theme);
  paint(resolved);
  try {
    globalThis.localStorage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage unavailable: the theme still applies for this session.
  }
  return resolved;
}

type ThemeState = {
  theme: Theme;
  resolved: ResolvedTheme;
  actions: {
    setTheme: (theme: Theme) => void;
    /** Dark → light → system → dark. */
    cycleTheme: () => void;
    toggleTheme: () => void;
  };
};

const NEXT: Record<Theme, Theme> = { dark: "light", light: "system", system: "dark" };

const useThemeStore = create<ThemeState>()((set, get) => {
  const initial = readStoredTheme();
  return {
    theme: initial,
    resolved: resolve(initial),
    actions: {
      setTheme: (theme) => set({ theme, resolved: applyTheme(theme) }),
      cycleTheme: () => get().actions.setTheme(NEXT[get().theme]),
      toggleTheme: () => get().actions.setTheme(get().resolved === "dark" ? "light" : "dark"),
    },
  };
});

// "system" follows the operating system's colour scheme while the page is open.
try {
  globalThis.matchMedia?.(DARK_QUERY).addEventListener?.("change", () => {
    const { theme } = useThemeStore.getState();
    if (theme !== "system") return;
    const resolved = systemTheme();
    paint(resolved);
    useThemeStore.setState({ resolved });
  });
} catch {
  // No matchMedia (tests, old browsers): "system" stays as it was first resolved.
}

/** The theme on screen ("light" or "dark"), whatever the choice. */
export const useTheme = () => useThemeStore((state) => state.resolved);
/** The reader's choice, "system" included. */
export const useThemePreference = () => useThemeStore((state) => state.theme);
export const useThemeActions = () => useThemeStore((state) => state.actions);
