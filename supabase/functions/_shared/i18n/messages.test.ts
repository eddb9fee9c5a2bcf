import { deepStrictEqual, strictEqual as assertEquals, throws } from "node:assert/strict";
import { MESSAGE_TEXTS, type MessageLocale, translate } from "./messages.ts";

const LOCALES: MessageLocale[] = ["de", "en", "fr", "es"];

function leaves(value: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === "string") return out.set(prefix, value);
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    for (const [path, text] of leaves(child, prefix ? `${prefix}.${key}` : key)) {
      out.set(path, text);
    }
  }
  return out;
}

const placeholders = (text: string) =>
  [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

Deno.test("every message key exists in all four languages, with the same placeholders", () => {
  const reference = leaves(MESSAGE_TEXTS.en);
  assertEquals(reference.size >= 30, true, `only ${reference.size} English texts`);
  for (const locale of LOCALES) {
    const texts = leaves(MESSAGE_TEXTS[locale]);
    deepStrictEqual([...texts.keys()].sort(), [...reference.keys()].sort(), locale);
    for (const [path, text] of texts) {
      assertEquals(text.trim() !== "", true, `${locale}:${path} is blank`);
      deepStrictEqual(placeholders(text), placeholders(reference.get(path)!), `${locale}:${path}`);
    }
  }
});

Deno.test("the cap title has the plural form each language needs for a cap of 1 to 500", () => {
  for (const locale of LOCALES) {
    const rules = new Intl.PluralRules(locale);
    for (let n = 1; n <= 500; n++) {
      const key = `title_${rules.select(n)}`;
      assertEquals(key in MESSAGE_TEXTS[locale].cap, true, `${locale}: cap.${key} for ${n}`);
    }
  }
});

Deno.test("translate fills placeholders and picks the plural form", () => {
  assertEquals(translate("en", "cap.title", { count: 1 }), "Daily cap of 1 alert reached");
  assertEquals(translate("en", "cap.title", { count: 3 }), "Daily cap of 3 alerts reached");
  assertEquals(translate("de", "cap.title", { count: 1 }), "Tageslimit von 1 Alarm erreicht");
  assertEquals(
    translate("fr", "cap.title", { count: 2 }),
    "Limite quotidienne de 2 alertes atteinte",
  );
  assertEquals(
    translate("es", "ticket.replySubject", { number: 42 }),
    "Nueva respuesta a tu ticket de soporte n.º 42",
  );
  // A value is inserted as it is, never read as a placeholder itself.
  assertEquals(
    translate("en", "ticket.replyIntro", { number: 7, subject: "{{number}} $& x" }),
    'Our support team replied to your ticket #7 "{{number}} $& x":',
  );
  throws(() => translate("en", "no.such.key"), /no message text "no.such.key" in en/);
});
