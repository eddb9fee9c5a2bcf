import { Component, type ErrorInfo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router-dom";
import { Button } from "@/components/ui/button";

/** Shown in place of a page that threw while rendering; header and footer stay. */
export function RouteError() {
  const { t } = useTranslation();

  return (
    <section
      role="alert"
      className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center gap-4 px-4 py-24 text-center"
    >
      <h1 className="text-3xl font-bold tracking-tight">{t("error.title")}</h1>
      <p className="text-muted-foreground">{t("error.description")}</p>
      <Button onClick={() => window.location.reload()}>{t("error.reload")}</Button>
    </section>
  );
}

class PageErrorBoundary extends Component<
  { children: ReactNode },
  { error: unknown; failed: boolean }
> {
  override state = { error: null as unknown, failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

/**
 * Layout route around every page: a page that throws while rendering (or whose chunk cannot be
 * loaded) is replaced by RouteError, and the next navigation tries again.
 */
export function RouteErrorBoundary() {
  const { pathname } = useLocation();
  return (
    <PageErrorBoundary key={pathname}>
      <Outlet />
    </PageErrorBoundary>
  );
}
