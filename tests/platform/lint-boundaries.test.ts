// The SPA's boundaries are kept by the linter (eslint.config.js): each fixture, linted as if it
// sat at the given place in web/src, fails with the boundary's message; the same code in the
// place where it is allowed passes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../devstack/config.ts";

const eslint = new ESLint({ cwd: ROOT });

async function lintAs(fixture: string, at: string) {
  const text = readFileSync(path.join(ROOT, "tests/fixtures/lint", fixture), "utf8");
  const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, at) });
  return result!.messages.map((m) => `${m.line}: ${m.ruleId}: ${m.message}`);
}

describe("lint boundaries", () => {
  it("a feature importing another feature fails", async () => {
    const messages = await lintAs(
      "cross-feature-import.tsx",
      "web/src/features/dashboard/components/probe.tsx",
    );
    expect(messages).toEqual([
      expect.stringMatching(
        /^3: @typescript-eslint\/no-restricted-imports: .*A feature imports no other feature: compose them in app\/routes/,
      ),
    ]);
  });

  it("the same import passes in the feature itself and in app/routes", async () => {
    expect(
      await lintAs("cross-feature-import.tsx", "web/src/features/alerts/components/probe.tsx"),
    ).toEqual([]);
    expect(await lintAs("cross-feature-import.tsx", "web/src/app/routes/probe.tsx")).toEqual([]);
  });

  it("shared code importing a feature fails", async () => {
    const messages = await lintAs("shared-imports-feature.ts", "web/src/lib/probe.ts");
    expect(messages).toEqual([
      expect.stringMatching(
        /^2: @typescript-eslint\/no-restricted-imports: .*Shared code imports no feature/,
      ),
    ]);
  });

  it("the entry chunk imports the Supabase client only through loadSupabase()", async () => {
    const messages = await lintAs("entry-imports-supabase.ts", "web/src/hooks/probe.ts");
    // The value import on line 3 fails; the type import on line 4 is allowed.
    expect(messages).toEqual([
      expect.stringMatching(/^3: @typescript-eslint\/no-restricted-imports: .*loadSupabase\(\)/),
    ]);
    // A feature's api module, loaded with its page on demand, may import it.
    expect(
      await lintAs("entry-imports-supabase.ts", "web/src/features/dashboard/api/probe.ts"),
    ).toEqual([]);
  });
});
