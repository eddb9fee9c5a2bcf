import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/**
 * A styled native checkbox (`<input type="checkbox">`): keyboard, forms and labels work as the
 * browser has them; the theme's primary colour fills it when checked.
 */
function Checkbox({ className, ...props }: Omit<ComponentProps<"input">, "type">) {
  return (
    <input
      type="checkbox"
      data-slot="checkbox"
      className={cn(
        "size-4 shrink-0 cursor-pointer rounded-[4px] border border-input accent-primary shadow-xs transition-shadow outline-none disabled:cursor-not-allowed disabled:opacity-50",
        "focus-visible:ring-[3px] focus-visible:ring-ring/50",
        "aria-invalid:ring-[3px] aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40",
        className,
      )}
      {...props}
    />
  );
}

export { Checkbox };
