import { Suspense } from "react";
import { Outlet, ScrollRestoration } from "react-router-dom";
import { AccountLiveSync } from "./account-live-sync";
import { RoutePending } from "../routes/route-pending";
import { UpdatePrompt } from "@/features/pwa/components/update-prompt";
import { DocumentMeta } from "./document-meta";
import { Footer } from "./footer";
import { Header } from "./header";

/** Header and footer around every page. */
export function RootLayout() {
  return (
    <div className="flex min-h-svh flex-col">
      <AccountLiveSync />
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
    </div>
  );
}
