import type { CSSProperties } from "react";
import { Toaster as Sonner, type ToasterProps } from "sonner";

/**
 * The app's toaster. Per the spec one toast shows at a time for 5 s.
 * The theme comes from the caller so this primitive stays free of app state.
 */
function Toaster(props: ToasterProps) {
  return (
    <Sonner
      className="toaster group"
      visibleToasts={1}
      duration={5000}
      style={
        {
          "--normal-bg": "var(--popover)",
          "--normal-text": "var(--popover-foreground)",
          "--normal-border": "var(--border)",
        } as CSSProperties
      }
      {...props}
    />
  );
}

export { Toaster };
