import { afterEach, describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import { writeLimitMessage, writeLimitOf } from "./write-limit";

const refusal = (hint: string, seconds = 7) => ({
  code: "PT429",
  message: "You're sending messages too fast — try again in 7 s",
  details: `retry-after=${seconds}`,
  hint,
});

afterEach(async () => {
  await i18n.changeLanguage("en");
});

describe("write limits in the SPA", () => {
  it("reads the limit's kind and the wait from the database's refusal", () => {
    expect(writeLimitOf(refusal("chat_message"))).toEqual({ kind: "chat_message", seconds: 7 });
    expect(
      writeLimitOf({ code: "PT403", details: "retry-after=7", hint: "chat_message" }),
    ).toBeNull();
    expect(writeLimitOf({ code: "PT429", details: "soon", hint: "chat_message" })).toBeNull();
    expect(writeLimitOf(refusal("something_else"))).toBeNull();
    expect(writeLimitOf(null)).toBeNull();
  });

  it("words each limit in the user's language", async () => {
    expect(writeLimitMessage(refusal("chat_message", 8))).toBe(
      "You're sending messages too fast — try again in 8 s",
    );
    expect(writeLimitMessage(refusal("ticket_reply", 30))).toBe(
      "You're replying too fast — try again in 30 s",
    );
    await i18n.changeLanguage("de");
    expect(writeLimitMessage(refusal("chat_message", 8))).toBe(
      "Du sendest Nachrichten zu schnell – versuche es in 8 s erneut",
    );
    await i18n.changeLanguage("fr");
    expect(writeLimitMessage(refusal("group_create", 120))).toBe(
      "Vous créez des groupes trop vite — réessayez dans 120 s",
    );
    await i18n.changeLanguage("es");
    expect(writeLimitMessage(refusal("report", 5))).toBe(
      "Estás enviando denuncias demasiado rápido: inténtalo de nuevo en 5 s",
    );
    expect(writeLimitMessage(new Error("boom"))).toBeNull();
  });
});
