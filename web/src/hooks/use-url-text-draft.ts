import { useEffect, useRef, useState } from "react";

/**
 * A text field whose value lives in the address (a search): the field answers every keystroke
 * from local state, and the address follows once the typing pauses for `delayMs` (one history
 * replace, not one per key). When the address changes on its own (Back, a shared link), the
 * field shows the address's text.
 */
export function useUrlTextDraft(urlValue: string, write: (value: string) => void, delayMs = 300) {
  const [draft, setDraft] = useState(urlValue);
  const [seen, setSeen] = useState(urlValue);
  const pending = useRef<string | null>(null);
  if (urlValue !== seen) {
    setSeen(urlValue);
    if (pending.current === null && urlValue !== draft) setDraft(urlValue);
  }
  const writeRef = useRef(write);
  useEffect(() => {
    writeRef.current = write;
  });
  useEffect(() => {
    if (pending.current === null) return;
    const timer = setTimeout(() => {
      const value = pending.current;
      pending.current = null;
      if (value !== null) writeRef.current(value);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [draft, delayMs]);
  const onChange = (value: string) => {
    pending.current = value;
    setDraft(value);
  };
  return [draft, onChange] as const;
}
