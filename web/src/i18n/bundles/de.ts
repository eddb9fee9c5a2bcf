// Every other namespace of one language, as one chunk loaded when a page needs one of them; the
// `messages` namespace is the outbox worker's texts, shared with the edge functions (decision 0059).
export default import.meta.glob<Record<string, unknown>>(
  [
    "../locales/de/*.json",
    "!../locales/de/{common,landing,realtime,shell,validation}.json",
    "../../../../supabase/functions/_shared/i18n/de/messages.json",
  ],
  { eager: true, import: "default" },
);
