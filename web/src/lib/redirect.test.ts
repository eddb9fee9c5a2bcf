import { describe, expect, it } from "vitest";
import { loginPath, safeRedirectPath } from "./redirect";

describe("safeRedirectPath", () => {
  it.each([
    ["/pricing", "/pricing"],
    ["/support/ticket/7?tab=open#last", "/support/ticket/7?tab=open#last"],
    ["/dashboard/settings", "/dashboard/settings"],
  ])("keeps the same-origin path %s", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  it.each([
    null,
    undefined,
    "",
    "pricing",
    "https://evil.example/steal",
    "//evil.example/steal",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "/\tevil",
    " /pricing",
  ])("refuses %s", (input) => {
    expect(safeRedirectPath(input)).toBeNull();
  });
});

describe("loginPath", () => {
  it("carries a safe redirect with readable slashes", () => {
    expect(loginPath("/pricing")).toBe("/auth/login?redirect=/pricing");
    expect(loginPath("/support/ticket/1?a=b&c=d")).toBe(
      "/auth/login?redirect=/support/ticket/1%3Fa%3Db%26c%3Dd",
    );
  });

  it("drops a missing or unsafe redirect", () => {
    expect(loginPath()).toBe("/auth/login");
    expect(loginPath("https://evil.example")).toBe("/auth/login");
  });

  it("round-trips through URLSearchParams", () => {
    const target = "/support/ticket/1?a=b&c=d#x";
    const search = loginPath(target).split("?")[1];
    expect(new URLSearchParams(search).get("redirect")).toBe(target);
  });
});
