// The namespaces the landing page and the app shell render with (CORE_NAMESPACES in
// ../resources.ts), as the one small chunk loaded before the first render.
export default import.meta.glob<Record<string, unknown>>(
  "../locales/de/{common,landing,realtime,shell,validation}.json",
  { eager: true, import: "default" },
);
