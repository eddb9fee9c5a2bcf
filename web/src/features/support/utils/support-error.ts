import { i18n } from "@/i18n/i18n";
import { writeLimitMessage } from "@/lib/write-limit";

function field(error: unknown, key: string): unknown {
  return typeof error === "object" && error !== null
    ? (error as Record<string, unknown>)[key]
    : undefined;
}

/**
 * The translated text for a refusal by the support rules of the database, else the server's
 * message (the spec's toasts show "the message"), else null:
 * - PT409 (prepare_ticket_message): the ticket was closed meanwhile;
 * - PT404 (admin_set_ticket_status): the ticket is gone;
 * - 23505 on canned_replies: a canned reply with that title exists;
 * - 23514: a value outside the rules (length, blank);
 * - 42501: row-level security refused the write (not an admin, a banned account, not the owner).
 */
export function supportErrorText(error: unknown): string | null {
  const tooFast = writeLimitMessage(error);
  if (tooFast) return tooFast;
  switch (field(error, "code")) {
    case "PT409":
      return i18n.t("support:errors.closed");
    case "PT404":
      return i18n.t("support:errors.notFound");
    case "23505":
      return i18n.t("support:errors.duplicateTitle");
    case "23514":
      return i18n.t("support:errors.invalid");
    case "42501":
      return i18n.t("support:errors.forbidden");
  }
  const message = field(error, "message");
  return typeof message === "string" && message.trim() !== "" ? message : null;
}
