/**
 * Says something to screen readers through the app's one polite live region (LiveAnnouncer,
 * in the root layout): what a keyboard shortcut did ("Window: 15 minutes").
 */
type Listener = (text: string) => void;

const listeners = new Set<Listener>();

export function announce(text: string): void {
  for (const listener of listeners) listener(text);
}

export function onAnnounce(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
