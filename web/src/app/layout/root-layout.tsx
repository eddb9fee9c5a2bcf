import { Outlet, ScrollRestoration } from "react-router-dom";
import { AccountLiveSync } from "./account-live-sync";
import { Footer } from "./footer";
import { Header } from "./header";

/** Header and footer around every page. */
export function RootLayout() {
  return (
    <div className="flex min-h-svh flex-col">
      <AccountLiveSync />
      <Header />
      <main className="flex flex-1 flex-col">
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
