import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { i18nReady, loadLaterNamespaces } from "@/i18n/i18n";
import "./index.css";
import { App } from "@/app/app";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

// The first render is translated: the core of the reader's language (one chunk) is in before it.
await i18nReady;
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The other pages' texts once the browser is idle, so moving on rarely waits for them.
const whenIdle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1));
whenIdle(() => {
  loadLaterNamespaces().catch((error: unknown) =>
    console.warn("[i18n] loading the other namespaces failed", error),
  );
});
