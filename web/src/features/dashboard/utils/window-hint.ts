import { readNumber } from "@/lib/url-state";
import { WINDOW_PARAM } from "../hooks/use-window-param";

/** Where the last window shown on this device is kept (a hint only: the profile decides). */
export const WINDOW_HINT_STORAGE_KEY = "dashboardWindow";
/** A new account's window (`profiles.selected_window_minutes` defaults to 30). */
const NEW_ACCOUNT_WINDOW = 30;

/**
 * The window the dashboard will most likely show, known before the profile is read: the address's
 * `?window=`, else the last one shown on this device, else a new account's. The movers feed of this
 * window is fetched together with the profile (decision 0070); when the profile says otherwise
 * (another plan, another device's choice), the right window is fetched then. It only chooses what to
 * fetch early: the database's plan rules decide what the feed answers.
 */
export function windowHint(params: Pick<URLSearchParams, "get">): number {
  const bounds = { min: 0, max: 1440, integer: true };
  const fromUrl = readNumber(params, WINDOW_PARAM, bounds, -1);
  if (fromUrl >= 0) return fromUrl;
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(WINDOW_HINT_STORAGE_KEY);
  } catch {
    // Storage blocked: no hint.
  }
  const remembered = readNumber({ get: () => stored }, WINDOW_PARAM, bounds, -1);
  return remembered >= 0 ? remembered : NEW_ACCOUNT_WINDOW;
}

/** Keeps the window on screen as the next visit's hint. */
export function rememberWindow(windowMinutes: number): void {
  try {
    localStorage.setItem(WINDOW_HINT_STORAGE_KEY, String(windowMinutes));
  } catch {
    // Storage blocked or full: the next visit fetches after the profile, as before.
  }
}
