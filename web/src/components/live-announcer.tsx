import { useEffect, useState } from "react";
import { onAnnounce } from "@/lib/announce";

/**
 * The polite live region `announce()` writes to. The text is emptied first and set a moment
 * later, so the same words said twice in a row ("Window: 15 minutes") are read twice.
 */
export function LiveAnnouncer() {
  const [text, setText] = useState("");
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onAnnounce((next) => {
      setText("");
      clearTimeout(timer);
      timer = setTimeout(() => setText(next), 50);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, []);
  return (
    <div role="status" aria-live="polite" className="sr-only" data-testid="live-announcer">
      {text}
    </div>
  );
}
