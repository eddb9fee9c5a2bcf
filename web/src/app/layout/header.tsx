import { ActivityIcon } from "lucide-react";
import { Suspense, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { Badge } from "@/components/ui/badge";
import { useSignOut } from "@/features/auth/api/sign-out";
import { useCurrentUser } from "@/hooks/use-current-user";
import { ThemeToggle } from "@/features/theme/components/theme-toggle";
import { AccountActions } from "./account-actions";
import { getNavItems } from "./nav-items";
import { NavLinks } from "./nav-links";
import { lazyWithPreload } from "../routes/lazy-page";
import { BRAND_CLASS, HEADER_BAR_CLASS, HEADER_ROW_CLASS } from "./app-shell";

// The language menu and the phone menu (Radix menus and dialogs, about 20 KB gzipped) arrive
// just after the first paint; a same-sized slot holds their place meanwhile.
const LanguageMenu = lazyWithPreload(
  () => import("@/features/language/components/language-menu"),
  "LanguageMenu",
);
const MobileNav = lazyWithPreload(() => import("./mobile-nav"), "MobileNav");

/** Loads the header's menus (main.tsx, before hydrating a pre-rendered page). */
export function preloadHeaderMenus(): Promise<unknown> {
  return Promise.all([LanguageMenu.preload(), MobileNav.preload()]);
}

// Admins only: the desk's link and its live count (and the support texts) load for them alone.
const DeskHeaderLink = lazyWithPreload(
  () => import("@/features/support/components/desk-header-link"),
  "DeskHeaderLink",
);
const DeskMenuLink = lazyWithPreload(
  () => import("@/features/support/components/desk-header-link"),
  "DeskMenuLink",
);

export function Header() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user, isSubscriber, isAdmin } = useCurrentUser();
  const signOut = useSignOut();
  const items = getNavItems({ isLoggedIn: user !== null, isSubscriber, isAdmin });

  // Lives here, not in the (unmounting) mobile sheet, so the redirect always runs.
  // Leave the page first: a guarded page would otherwise send the logged-out user to login.
  // The browser router commits navigations in a transition, so the sign-out waits until the
  // home page is on screen (the effect below) instead of racing the move.
  const { pathname } = useLocation();
  const { mutate: signOutNow } = signOut;
  const signOutAtHome = useRef(false);
  const handleSignOut = () => {
    if (pathname === "/") {
      signOutNow();
      return;
    }
    signOutAtHome.current = true;
    void navigate("/");
  };
  useEffect(() => {
    if (pathname !== "/" || !signOutAtHome.current) return;
    signOutAtHome.current = false;
    signOutNow();
  }, [pathname, signOutNow]);

  return (
    <header className={HEADER_BAR_CLASS}>
      <div className={HEADER_ROW_CLASS}>
        <Link
          to="/"
          aria-label={t("app.home")}
          className={`${BRAND_CLASS} focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none`}
        >
          <ActivityIcon className="size-6 text-primary" aria-hidden="true" />
          <span>{t("app.name")}</span>
        </Link>
        {isAdmin && (
          <Badge variant="destructive" className="xl:hidden">
            {t("header.adminBadge")}
          </Badge>
        )}

        <nav aria-label={t("header.mainNavigation")} className="hidden xl:block">
          <NavLinks items={items} orientation="horizontal" />
        </nav>

        <div className="ml-auto flex items-center gap-1">
          {isAdmin && (
            <Suspense
              fallback={<span aria-hidden="true" className="hidden size-9 xl:inline-flex" />}
            >
              <DeskHeaderLink className="hidden xl:inline-flex" />
            </Suspense>
          )}
          <Suspense fallback={<span aria-hidden="true" className="h-8 w-16" />}>
            <LanguageMenu />
          </Suspense>
          <ThemeToggle />
          <div className="ml-2 hidden xl:block">
            <AccountActions
              user={user}
              isAdmin={isAdmin}
              orientation="horizontal"
              isSigningOut={signOut.isPending}
              onSignOut={handleSignOut}
            />
          </div>
          <Suspense fallback={<span aria-hidden="true" className="size-9 xl:hidden" />}>
            <MobileNav
              items={items}
              user={user}
              isAdmin={isAdmin}
              isSigningOut={signOut.isPending}
              onSignOut={handleSignOut}
              extra={
                isAdmin
                  ? (close) => (
                      <Suspense fallback={null}>
                        <DeskMenuLink onNavigate={close} />
                      </Suspense>
                    )
                  : undefined
              }
            />
          </Suspense>
        </div>
      </div>
    </header>
  );
}
