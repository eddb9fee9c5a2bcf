import {
  type RefObject,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";

/** The time display refreshes every 5 s (spec section 9). */
export const AGE_REFRESH_MS = 5000;
/** The dashboard's data-age column counts seconds. */
export const QUOTE_AGE_REFRESH_MS = 1000;

/** The current time in ms, updated every `intervalMs`, so relative times stay current. */
export function useNow(intervalMs: number = AGE_REFRESH_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

type Clock = {
  now: number;
  listeners: Set<() => void>;
  timer: ReturnType<typeof setInterval> | undefined;
  subscribe: (listener: () => void) => () => void;
};

const clocks = new Map<number, Clock>();

/** One timer per interval however many cells read it; it stops when the last one unmounts. */
function clockOf(intervalMs: number): Clock {
  let clock = clocks.get(intervalMs);
  if (clock) return clock;
  const created: Clock = {
    now: Date.now(),
    listeners: new Set(),
    timer: undefined,
    subscribe: (listener) => {
      created.listeners.add(listener);
      if (!clocks.has(intervalMs)) clocks.set(intervalMs, created);
      if (created.timer === undefined) {
        created.now = Date.now();
        created.timer = setInterval(() => {
          created.now = Date.now();
          for (const notify of created.listeners) notify();
        }, intervalMs);
      }
      return () => {
        created.listeners.delete(listener);
        if (created.listeners.size === 0 && created.timer !== undefined) {
          clearInterval(created.timer);
          created.timer = undefined;
          // The next reader starts a clock of its own from the time it mounts.
          if (clocks.get(intervalMs) === created) clocks.delete(intervalMs);
        }
      };
    },
  };
  clock = created;
  clocks.set(intervalMs, clock);
  return clock;
}

/**
 * What a component shows of the current time (`select(now)`, a string or a flag), from a clock
 * shared by every caller with the same interval. A component re-renders only when its selection
 * changes: a list of a hundred rows re-renders each row's age cell every second, not the list.
 */
export function useClock<T extends string | number | boolean>(
  select: (now: number) => T,
  intervalMs: number = QUOTE_AGE_REFRESH_MS,
): T {
  const clock = clockOf(intervalMs);
  return useSyncExternalStore(clock.subscribe, () => select(clock.now));
}

/** The clock's current time (ms) as its readers last saw it: for a first render. */
export function clockNow(intervalMs: number = QUOTE_AGE_REFRESH_MS): number {
  const clock = clocks.get(intervalMs);
  return clock && clock.timer !== undefined ? clock.now : Date.now();
}

/**
 * A text kept current by the shared clock without React (decision 0106): at each tick the
 * element's text is set to `format(now)` when it changed. No component renders, so a list of
 * ages costs a few text writes a second, not a synchronous render of every age cell (a long task
 * on a slow phone, every second). The element renders `format(clockNow())` as its text; the
 * returned ref attaches it.
 */
export function useClockText<E extends Element>(
  format: (now: number) => string,
  intervalMs: number = QUOTE_AGE_REFRESH_MS,
): RefObject<E | null> {
  const ref = useRef<E | null>(null);
  const formatRef = useRef(format);
  useLayoutEffect(() => {
    formatRef.current = format;
  });
  useEffect(() => {
    const clock = clockOf(intervalMs);
    const update = () => {
      const el = ref.current;
      if (!el) return;
      const text = formatRef.current(clock.now);
      if (el.textContent === text) return;
      // The text node itself, as React updates a lone text child: no child list change.
      const node = el.firstChild;
      if (node && node === el.lastChild && node.nodeType === Node.TEXT_NODE) node.nodeValue = text;
      else el.textContent = text;
    };
    const unsubscribe = clock.subscribe(update);
    // The clock may have ticked between the render and now.
    update();
    return unsubscribe;
  }, [intervalMs]);
  return ref;
}
