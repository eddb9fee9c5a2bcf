import { describe, expect, it } from "vitest";
import { parseEnv } from "./env";

describe("parseEnv", () => {
  it("returns the Supabase URL and publishable key", () => {
    expect(
      parseEnv({
        VITE_SUPABASE_URL: "http://127.0.0.1:54321",
        VITE_SUPABASE_PUBLISHABLE_KEY: "sb_publishable_x",
      }),
    ).toEqual({
      supabaseUrl: "http://127.0.0.1:54321",
      supabasePublishableKey: "sb_publishable_x",
    });
  });

  it("names each missing variable", () => {
    expect(() => parseEnv({})).toThrow(
      /VITE_SUPABASE_URL is missing; VITE_SUPABASE_PUBLISHABLE_KEY is missing/,
    );
    expect(() => parseEnv({ VITE_SUPABASE_URL: "http://127.0.0.1:54321" })).toThrow(
      /VITE_SUPABASE_PUBLISHABLE_KEY is missing/,
    );
  });

  it("rejects a URL that is not http(s)", () => {
    expect(() =>
      parseEnv({ VITE_SUPABASE_URL: "localhost", VITE_SUPABASE_PUBLISHABLE_KEY: "k" }),
    ).toThrow(/VITE_SUPABASE_URL is invalid/);
  });
});
