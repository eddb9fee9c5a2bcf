import { describe, expect, it } from "vitest";
import { installPostgrestErrors, postgrestStatus } from "./postgrest-errors.ts";

describe("PostgREST error statuses", () => {
  it("maps SQLSTATEs as PostgREST does", () => {
    expect(postgrestStatus("23514")).toBe(400);
    expect(postgrestStatus("P0001")).toBe(400);
    expect(postgrestStatus("P0002")).toBe(500);
    expect(postgrestStatus("08006")).toBe(503);
    expect(postgrestStatus("28P01")).toBe(403);
    expect(postgrestStatus("40001")).toBe(500);
  });

  it("re-expresses errors lite would answer with 500 SUP, and leaves the ones it handles", () => {
    const conn = { normalizeDbError: (e: unknown) => e };
    installPostgrestErrors(conn as never);
    const check = conn.normalizeDbError({
      code: "23514",
      message: "violates check",
      detail: "row",
    }) as {
      code: string;
      message: string;
      detail: string;
    };
    expect(check.code).toBe("PGRST");
    expect(JSON.parse(check.message)).toEqual({
      code: "23514",
      message: "violates check",
      details: "row",
      hint: null,
    });
    expect(JSON.parse(check.detail)).toEqual({ status: 400, headers: {} });
    const unique = { code: "23505", message: "duplicate" };
    expect(conn.normalizeDbError(unique)).toBe(unique);
    const plain = new Error("not a database error");
    expect(conn.normalizeDbError(plain)).toBe(plain);
  });
});
