/**
 * jsdom has no layout and no `matchMedia`. Tests get one that answers width queries
 * (`(min-width: 64rem)`, `(max-width: 767px)`) against `window.innerWidth` (jsdom's 1024 unless a
 * test sets another with `setViewportWidth`) and no other query (`prefers-color-scheme` and the
 * like never match, as before).
 */
type Listener = (event: MediaQueryListEvent) => void;

const listeners = new Set<{ query: string; listener: Listener; last: boolean }>();

const toPx = (value: string, unit: string) => Number(value) * (unit === "px" ? 1 : 16);

/** Whether a width query matches at `width` px; any other feature does not match. */
export function widthQueryMatches(query: string, width: number): boolean {
  const parts = [...query.matchAll(/\((min|max)-width:\s*([\d.]+)(px|rem|em)\)/g)];
  if (parts.length === 0) return false;
  return parts.every(([, bound, value, unit]) => {
    const px = toPx(value!, unit!);
    return bound === "min" ? width >= px : width <= px;
  });
}

export function fakeMatchMedia(query: string): MediaQueryList {
  const add = (type: string, listener: Listener) => {
    if (type === "change")
      listeners.add({ query, listener, last: widthQueryMatches(query, window.innerWidth) });
  };
  const remove = (type: string, listener: Listener) => {
    if (type !== "change") return;
    for (const entry of listeners) if (entry.listener === listener) listeners.delete(entry);
  };
  return {
    get matches() {
      return widthQueryMatches(query, window.innerWidth);
    },
    media: query,
    onchange: null,
    addEventListener: add,
    removeEventListener: remove,
    addListener: (listener: Listener) => add("change", listener),
    removeListener: (listener: Listener) => remove("change", listener),
    dispatchEvent: () => false,
  } as unknown as MediaQueryList;
}

/** Resizes the window for the fake `matchMedia`: queries whose answer changed tell their listeners. */
export function setViewportWidth(width: number): void {
  Object.defineProperty(window, "innerWidth", { configurable: true, writable: true, value: width });
  for (const entry of [...listeners]) {
    const matches = widthQueryMatches(entry.query, width);
    if (matches === entry.last) continue;
    entry.last = matches;
    entry.listener({ matches, media: entry.query } as MediaQueryListEvent);
  }
  window.dispatchEvent(new Event("resize"));
}

/** jsdom's own width, restored after each test. */
export const DEFAULT_VIEWPORT_WIDTH = 1024;
