import { Loader2Icon } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

type SpinnerProps = ComponentProps<"svg"> & {
  /** Accessible name; without it the spinner is decorative. */
  label?: string;
};

function Spinner({ className, label, ...props }: SpinnerProps) {
  return (
    <Loader2Icon
      data-slot="spinner"
      role={label ? "status" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      className={cn("size-4 animate-spin", className)}
      {...props}
    />
  );
}

export { Spinner };
