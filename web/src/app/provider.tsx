import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { useAuthListener } from "@/features/auth/hooks/use-auth-listener";
import { useTheme } from "@/features/theme/stores/theme-store";
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

  return (
    <QueryClientProvider client={queryClient}>
      <AuthListener />
      {children}
      <Suspense fallback={null}>
        <ThemedToaster />
      </Suspense>
    </QueryClientProvider>
  );
}
