import { startTransition, StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { i18nReady, loadLaterNamespaces } from "@/i18n/i18n";
import "./index.css";
import { App } from "@/app/app";
import { preloadHeaderMenus } from "@/app/layout/header";
import { directPageReady } from "@/app/router";
import { whenIdle } from "@/lib/when-idle";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

// The first render is translated: the core of the reader's language (one chunk) is in before it.
await i18nReady;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// A pre-rendered page (prerender.config.ts) is hydrated when it is what this visitor would see:
// English, the dark theme, not signed in (index.html marks the others "stale"). Otherwise, and
// on every other address, the app renders into #root (replacing a pre-rendered page).
const prerendered = container.querySelector<HTMLElement>(":scope > [data-prerendered]");
const html = document.documentElement;
if (
  prerendered &&
  html.getAttribute("data-prerender") !== "stale" &&
  html.lang === "en" &&
  html.classList.contains("dark")
) {
  // The header's menus are part of the served page: in before hydrating, so it is one pass.
  await preloadHeaderMenus().catch(() => {});
  // In a transition, hydration yields to the browser between components (no long task).
  startTransition(() => {
    hydrateRoot(prerendered, app);
  });
  prerendered.removeAttribute("data-prerendered");
} else {
  // The app shell (app.html) or a page's frame (dashboard/index.html) is replaced, not hydrated;
  // a frame is replaced once its page can render, so the first render draws it again.
  if (container.querySelector(":scope > [data-app-shell]")) await directPageReady;
  const root = createRoot(container);
  // In a transition too: the first render (the whole page over the shell or frame already on
  // screen) yields to the browser between components instead of one long task (decision 0088).
  startTransition(() => {
    root.render(app);
  });
}

// The other pages' texts once the browser is idle, so moving on rarely waits for them.
whenIdle(() => {
  loadLaterNamespaces().catch((error: unknown) =>
    console.warn("[i18n] loading the other namespaces failed", error),
  );
});
