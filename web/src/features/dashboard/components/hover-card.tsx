import { type ReactNode, useCallback, useEffect, useId, useRef } from "react";
import { cn } from "@/lib/utils";

type HoverCardProps = {
  /** What the button shows. */
  children: ReactNode;
  /** The button's accessible name, when its text alone says too little. */
  label?: string;
  /** The card's content: read as the button's description and shown on hover, focus or tap. */
  content: ReactNode;
  className?: string;
};

const GAP = 6;
const EDGE = 8;

/**
 * A small button with a card beside it on hover, focus and tap (Escape closes it). The card is a
 * manual popover in the browser's top layer, so the table's scroll box never clips it; it is the
 * button's description for assistive technology whether shown or not.
 */
export function HoverCard({ children, label, content, className }: HoverCardProps) {
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const card = useRef<HTMLDivElement>(null);

  // Beside its button wherever the page has scrolled to (the card is fixed in the top layer).
  const place = useCallback(() => {
    const pop = card.current;
    const anchor = button.current;
    if (!pop || !anchor) return;
    const box = anchor.getBoundingClientRect();
    const width = pop.offsetWidth;
    const height = pop.offsetHeight;
    const left = Math.max(EDGE, Math.min(box.left, window.innerWidth - width - EDGE));
    const below = box.bottom + GAP;
    const top = below + height > window.innerHeight - EDGE ? box.top - GAP - height : below;
    pop.style.left = `${left}px`;
    pop.style.top = `${Math.max(EDGE, top)}px`;
  }, []);
  useEffect(() => () => window.removeEventListener("scroll", place, true), [place]);
  const hide = () => {
    window.removeEventListener("scroll", place, true);
    const pop = card.current;
    if (pop && typeof pop.hidePopover === "function" && pop.matches(":popover-open")) {
      pop.hidePopover();
    }
  };
  const show = () => {
    const pop = card.current;
    if (!pop || typeof pop.showPopover !== "function") return;
    if (!pop.matches(":popover-open")) {
      pop.showPopover();
      window.addEventListener("scroll", place, { capture: true, passive: true });
    }
    place();
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label={label}
        aria-describedby={id}
        className={cn(
          "rounded-sm focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none",
          className,
        )}
        onMouseEnter={show}
        onMouseLeave={hide}
        onFocus={show}
        onBlur={hide}
        onClick={show}
        onKeyDown={(event) => {
          if (event.key === "Escape") hide();
        }}
      >
        {children}
      </button>
      <div
        ref={card}
        id={id}
        role="tooltip"
        popover="manual"
        className="fixed inset-auto m-0 max-w-80 rounded-md border bg-popover p-3 text-left text-xs font-normal text-popover-foreground normal-case shadow-md"
      >
        {content}
      </div>
    </>
  );
}
