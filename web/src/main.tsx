import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { i18nReady } from "@/i18n/i18n";
import "./index.css";
import { App } from "@/app/app";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

// The first render is translated: the reader's language (one chunk) is in before it.
await i18nReady;
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
