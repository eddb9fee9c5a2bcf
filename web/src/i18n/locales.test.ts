import { describe, expect, it } from "vitest";
import { SUPPORTED_LANGUAGES } from "./languages";
import { LATER_NAMESPACES } from "./i18n";
import { CORE_NAMESPACES, namespaces, resources } from "./resources";

function leaves(value: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === "string") {
    out.set(prefix, value);
    return out;
  }
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    for (const [path, text] of leaves(child, prefix ? `${prefix}.${key}` : key)) {
      out.set(path, text);
    }
  }
  return out;
}

const placeholders = (text: string) =>
  [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

describe("locale files", () => {
  for (const ns of namespaces) {
    const reference = leaves(resources.en[ns]);

    for (const lng of SUPPORTED_LANGUAGES) {
      it(`${lng}/${ns}.json has every English key, no extra keys and no blanks`, () => {
        const translated = leaves(resources[lng][ns]);
        expect([...translated.keys()].sort()).toEqual([...reference.keys()].sort());
        for (const [path, text] of translated) {
          expect(text.trim(), `${lng}/${ns}:${path}`).not.toBe("");
          expect(placeholders(text), `${lng}/${ns}:${path}`).toEqual(
            placeholders(reference.get(path) ?? ""),
          );
        }
      });
    }
  }

  it("uses nested camelCase keys (with i18next's plural suffixes)", () => {
    for (const ns of namespaces) {
      for (const path of leaves(resources.en[ns]).keys()) {
        for (const segment of path.split(".")) {
          expect(segment, `${ns}:${path}`).toMatch(
            /^[a-z][a-zA-Z0-9]*(_(zero|one|two|few|many|other))?$/,
          );
        }
      }
    }
  });
});

describe("language chunks", () => {
  const chunks = {
    de: [() => import("./bundles/de-core"), () => import("./bundles/de")],
    en: [() => import("./bundles/en-core"), () => import("./bundles/en")],
    fr: [() => import("./bundles/fr-core"), () => import("./bundles/fr")],
    es: [() => import("./bundles/es-core"), () => import("./bundles/es")],
  } as const;
  const names = (bundle: { default: Record<string, unknown> }) =>
    Object.keys(bundle.default)
      .map((file) => /\/(\w+)\.json$/.exec(file)![1])
      .sort();

  for (const lng of SUPPORTED_LANGUAGES) {
    it(`${lng}: the core chunk holds exactly CORE_NAMESPACES, the other chunk the rest`, async () => {
      const [core, later] = await Promise.all(chunks[lng].map((load) => load()));
      expect(names(core!)).toEqual([...CORE_NAMESPACES].sort());
      expect(names(later!)).toEqual(
        namespaces.filter((ns) => !CORE_NAMESPACES.includes(ns as never)).sort(),
      );
      expect([...LATER_NAMESPACES].sort()).toEqual(names(later!));
    });
  }
});
