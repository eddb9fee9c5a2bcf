import { lazy, type ComponentType } from "react";

/**
 * Route-level code splitting: a page's module (and what only it imports, such as charts) is
 * downloaded on the first visit of its route, not with the landing page. The root layout's
 * `<Suspense>` shows a spinner meanwhile.
 *
 *   const PricingPage = lazyPage(() => import("@/features/pricing/components/pricing-page"), "PricingPage");
 *   { path: "pricing", element: <PricingPage /> },
 */
export function lazyPage<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): ComponentType {
  return lazy<ComponentType>(async () => ({ default: (await load())[name] }));
}
