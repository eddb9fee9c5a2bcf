import type { ExternalToast } from "sonner";

/**
 * `toast.error` for code in the entry chunk: sonner is loaded on demand, so it is not part of
 * every page's first download. The toaster replays toasts raised before it mounted.
 */
export function toastErrorLater(title: string, options?: ExternalToast): void {
  void import("sonner").then(({ toast }) => toast.error(title, options));
}
