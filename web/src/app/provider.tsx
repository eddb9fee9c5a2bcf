import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { useAuthListener } from "@/features/auth/hooks/use-auth-listener";
import { useTheme } from "@/features/theme/stores/theme-store";
import { useHydrated } from "@/hooks/use-hydrated";
import { createQueryClient } from "@/lib/query-client";

function AuthListener() {
  useAuthListener();
  return null;
}

// The toaster (sonner) arrives after the first render; toasts raised before are replayed.
const Toaster = lazy(() => import("@/components/ui/sonner").then((m) => ({ default: m.Toaster })));

function ThemedToaster() {
  const theme = useTheme();
  return <Toaster theme={theme} />;
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  // The toaster exists in the browser only: the pre-rendered pages (src/prerender.tsx) have
  // none, and hydrating them renders none at first (the server snapshot), then adds it.
  const mounted = useHydrated();

  return (
    <QueryClientProvider client={queryClient}>
      <AuthListener />
      {children}
      {mounted && (
        <Suspense fallback={null}>
          <ThemedToaster />
        </Suspense>
      )}
    </QueryClientProvider>
  );
}
