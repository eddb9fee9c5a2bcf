import de from "./de/messages.json" with { type: "json" };
import en from "./en/messages.json" with { type: "json" };
import es from "./es/messages.json" with { type: "json" };
import fr from "./fr/messages.json" with { type: "json" };

// The texts of what the outbox worker sends (alert and ticket e-mails, Discord, Telegram), in the
// SPA's four languages. They are the SPA's i18n namespace `messages` too (web/src/i18n loads these
// same files), so there is one set of texts, checked key by key with the SPA's (decision 0059).
// The files use i18next's format: `{{name}}` placeholders and `_one`/`_other` plural keys.

export type MessageTexts = typeof en;
export type MessageLocale = "de" | "en" | "fr" | "es";

export const MESSAGE_TEXTS: Record<MessageLocale, MessageTexts> = { de, en, es, fr };

type Leaf = string | { [key: string]: Leaf };
type Values = Record<string, string | number>;

const pluralRules = new Map<string, Intl.PluralRules>();

function pluralOf(locale: MessageLocale, count: number): string {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules.select(count);
}

function lookup(locale: MessageLocale, key: string): Leaf | undefined {
  let node: Leaf | undefined = MESSAGE_TEXTS[locale] as Leaf;
  for (const part of key.split(".")) {
    if (node === undefined || typeof node === "string") return undefined;
    node = node[part];
  }
  return node;
}

/**
 * The text under `key` (dotted, as i18next's `t`) in `locale`, with `{{name}}` replaced by
 * `values.name`. With a numeric `values.count`, the plural form the language's rules choose
 * (`key_one`, `key_other`, …; `_other` when the language has no text of its own for that form).
 * A key with no text throws: every key exists in all four languages (messages.test.ts).
 */
export function translate(locale: MessageLocale, key: string, values: Values = {}): string {
  const count = values.count;
  const text = typeof count === "number"
    ? lookup(locale, `${key}_${pluralOf(locale, count)}`) ?? lookup(locale, `${key}_other`)
    : lookup(locale, key);
  if (typeof text !== "string") throw new Error(`no message text "${key}" in ${locale}`);
  return text.replace(/{{\s*(\w+)\s*}}/g, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : String(value);
  });
}
