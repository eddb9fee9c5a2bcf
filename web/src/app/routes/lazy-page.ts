import { lazy, type ComponentType, type LazyExoticComponent } from "react";

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

/** A thenable that calls back at once: React.lazy then renders without suspending. */
function settled<T>(value: T): Promise<T> {
  return { then: (onFulfilled: (v: T) => unknown) => onFulfilled(value) } as unknown as Promise<T>;
}

/**
 * React.lazy with a `preload()`: once preloaded, the component renders at once instead of
 * suspending for a tick. main.tsx preloads the header's menus before hydrating a pre-rendered
 * page, so hydration finishes in one pass (a boundary still suspended when the session arrives
 * would be thrown away and rendered again, losing the focus).
 */
export function lazyWithPreload<P extends object, K extends string>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
): LazyExoticComponent<ComponentType<P>> & { preload: () => Promise<void> } {
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    load().then((module) => {
      loaded = module[name];
    });
  const component = lazy<ComponentType<P>>(() =>
    loaded
      ? settled({ default: loaded })
      : preload().then(() => ({ default: loaded as ComponentType<P> })),
  );
  return Object.assign(component, { preload });
}
