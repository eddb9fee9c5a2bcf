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
): LazyExoticComponent<ComponentType> {
  return lazyWithPreload(load, name);
}

// What React.lazy accepts (its own constraint).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LazyTarget = ComponentType<any>;

/** A thenable that calls back at once: React.lazy then renders without suspending. */
function settled<T>(value: T): Promise<T> {
  return { then: (onFulfilled: (v: T) => unknown) => onFulfilled(value) } as unknown as Promise<T>;
}

/** Module loads started by lazy components and not yet settled. */
const loading = new Set<Promise<unknown>>();

/**
 * Settles once every page or menu module being loaded has loaded (or failed). The unit tests'
 * set-up waits for it after each file: files share one module registry, and a route import a
 * file started but did not wait for would otherwise finish while the next file runs, after its
 * own environment is gone.
 */
export function lazyLoadsSettled(): Promise<unknown> {
  return Promise.allSettled([...loading]);
}

/**
 * React.lazy with a `preload()`: once preloaded, the component renders at once instead of
 * suspending for a tick. main.tsx preloads the header's menus before hydrating a pre-rendered
 * page, so hydration finishes in one pass (a boundary still suspended when the session arrives
 * would be thrown away and rendered again, losing the focus).
 */
export function lazyWithPreload<M extends Record<K, LazyTarget>, K extends string>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> & { preload: () => Promise<void> } {
  let loaded: M[K] | undefined;
  const preload = () => {
    const done = load().then((module) => {
      loaded = module[name];
    });
    loading.add(done);
    const forget = () => loading.delete(done);
    done.then(forget, forget);
    return done;
  };
  const component = lazy<M[K]>(() =>
    loaded ? settled({ default: loaded }) : preload().then(() => ({ default: loaded as M[K] })),
  );
  return Object.assign(component, { preload });
}
