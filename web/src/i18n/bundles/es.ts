// Every namespace of one language, as one chunk loaded only when that language is used.
export default import.meta.glob<Record<string, unknown>>("../locales/es/*.json", {
  eager: true,
  import: "default",
});
