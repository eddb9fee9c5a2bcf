import { useEffect, useEffectEvent, useState } from "react";

/**
 * A text field whose value lives in the address (a search): the field answers every keystroke
 * from local state, and the address follows once the typing pauses for `delayMs` (one history
 * replace, not one per key). When the address changes on its own (Back, a shared link), the
 * field shows the address's text.
 */
export function useUrlTextDraft(urlValue: string, write: (value: string) => void, delayMs = 300) {
  const [draft, setDraft] = useState(urlValue);
  /** Typed and not yet in the address. */
  const [pending, setPending] = useState<string | null>(null);
  const [seen, setSeen] = useState(urlValue);
  if (urlValue !== seen) {
    setSeen(urlValue);
    if (pending === null && urlValue !== draft) setDraft(urlValue);
  }
  const commit = useEffectEvent((value: string) => {
    setPending(null);
    write(value);
  });
  useEffect(() => {
    if (pending === null) return;
    const timer = setTimeout(() => commit(pending), delayMs);
    return () => clearTimeout(timer);
  }, [pending, delayMs]);
  const onChange = (value: string) => {
    setPending(value);
    setDraft(value);
  };
  return [draft, onChange] as const;
}
