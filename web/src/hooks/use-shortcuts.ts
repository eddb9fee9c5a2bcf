import { useEffect, useRef } from "react";

/**
 * Keyboard shortcuts: a map from a key (`event.key`: "j", "/", "?", "Enter", "1") or a two-key
 * sequence ("g d": g, then d within SEQUENCE_MS) to what it does. One listener on the document
 * per map; no shortcut fires while the reader types in a field, with Ctrl, Meta or Alt held
 * (the browser's and the system's own shortcuts), inside an open dialog, or when another handler
 * has already taken the key.
 */
export type Shortcuts = Readonly<Record<string, () => void>>;

/** How long the second key of a sequence ("g d") may wait for. */
export const SEQUENCE_MS = 1500;

const TYPING_ROLES = new Set(["textbox", "searchbox", "combobox", "spinbutton"]);

/** A field the reader types in: its keys are text, not shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  if (target.closest("[contenteditable]:not([contenteditable='false'])")) return true;
  const tag = target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return true;
  const role = target.getAttribute("role");
  return role !== null && TYPING_ROLES.has(role);
}

/** A control Enter already activates (a button, a link): Enter is left to it. */
function activatesOnEnter(target: EventTarget | null): boolean {
  return (
    target instanceof Element &&
    target.closest(
      "button, a[href], summary, [role='button'], [role='link'], [role^='menuitem']",
    ) !== null
  );
}

/** The key handler behind useShortcuts (exported for its tests). */
export function createShortcutHandler(
  shortcuts: () => Shortcuts,
  now: () => number = Date.now,
): (event: KeyboardEvent) => void {
  let pending: { key: string; at: number } | null = null;
  return (event) => {
    if (event.defaultPrevented || event.isComposing || event.repeat) return;
    if (event.ctrlKey || event.metaKey || event.altKey) {
      pending = null;
      return;
    }
    const target = event.target;
    if (isTypingTarget(target)) return;
    if (target instanceof Element && target.closest("[role='dialog'], [role='alertdialog']"))
      return;
    const map = shortcuts();
    const key = event.key;

    const first = pending;
    pending = null;
    if (first && now() - first.at <= SEQUENCE_MS) {
      const sequence = map[`${first.key} ${key}`];
      if (sequence) {
        event.preventDefault();
        sequence();
        return;
      }
    }
    if (Object.keys(map).some((combo) => combo.startsWith(`${key} `))) {
      pending = { key, at: now() };
      return;
    }
    const action = map[key];
    if (!action) return;
    if (key === "Enter" && activatesOnEnter(target)) return;
    event.preventDefault();
    action();
  };
}

const NONE: Shortcuts = {};

/**
 * Listens for `shortcuts` on the document while mounted (and `enabled`).
 *
 * One listener from mount to unmount, which reads the latest map (none while not `enabled`).
 * It is not an effect keyed on `enabled`: React 19 can skip an effect whose dependency changed
 * when the render that changed it was interrupted and redone (react/react#34556). The dashboard's
 * j/k then never got their listener when the profile arrived during its rows' transition.
 * The effect without dependencies runs after every commit.
 */
export function useShortcuts(shortcuts: Shortcuts, enabled = true): void {
  const latest = useRef<Shortcuts>(NONE);
  useEffect(() => {
    latest.current = enabled ? shortcuts : NONE;
  });
  useEffect(() => {
    const handler = createShortcutHandler(() => latest.current);
    document.addEventListener("keydown", handler);
    return () => document.removeEventListener("keydown", handler);
  }, []);
}
