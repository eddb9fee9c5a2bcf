import { Suspense, useEffect, useState } from "react";
import { Outlet } from "react-router-dom";
import { useCurrentUser } from "@/hooks/use-current-user";
import { lazyWithPreload } from "../routes/lazy-page";
import { RoutePending } from "../routes/route-pending";
import { UpdatePrompt } from "@/features/pwa/components/update-prompt";
import { DocumentMeta } from "./document-meta";
import { Footer } from "./footer";
import { Header } from "./header";
import { ScrollRestoration } from "./scroll-restoration";

// The keyboard shortcuts of every page (g d, g c, g s, ?) and the live region that announces
// them: a chunk of their own, not in any route's first download, mounted after the first render
// (so a pre-rendered page hydrates as it was served).
const AppShortcuts = lazyWithPreload(() => import("./app-shortcuts"), "AppShortcuts");

function Shortcuts() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setMounted(true), 0);
    return () => clearTimeout(timer);
  }, []);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <AppShortcuts />
    </Suspense>
  );
}

// Signed-in accounts only: the activity heartbeat and the account's live topic.
const AccountLiveSync = lazyWithPreload(() => import("./account-live-sync"), "AccountLiveSync");

function SignedInSync() {
  const { user } = useCurrentUser();
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <AccountLiveSync />
    </Suspense>
  );
}

/** Header and footer around every page. */
export function RootLayout() {
  return (
    <div className="flex min-h-svh flex-col">
      <SignedInSync />
      <DocumentMeta />
      <Header />
      <main className="flex flex-1 flex-col">
        {/* Pages are loaded on their first visit (lazyPage): a spinner until the chunk is in. */}
        {/* The fallback fills the screen so the footer does not jump when the page arrives. */}
        <Suspense
          fallback={
            <div className="flex min-h-svh flex-col">
              <RoutePending />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <UpdatePrompt />
      <ScrollRestoration />
      <Shortcuts />
    </div>
  );
}
