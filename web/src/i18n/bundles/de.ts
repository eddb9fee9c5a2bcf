// Every other namespace of one language, as one chunk loaded when a page needs one of them.
export default import.meta.glob<Record<string, unknown>>(
  ["../locales/de/*.json", "!../locales/de/{common,landing,realtime,shell,validation}.json"],
  { eager: true, import: "default" },
);
