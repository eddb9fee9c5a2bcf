import { QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Toaster } from "@/components/ui/sonner";
import { useAuthListener } from "@/features/auth/hooks/use-auth-listener";
import { useTheme } from "@/features/theme/stores/theme-store";
import { createQueryClient } from "@/lib/query-client";

function AuthListener() {
  useAuthListener();
  return null;
}

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
      <ThemedToaster />
    </QueryClientProvider>
  );
}
