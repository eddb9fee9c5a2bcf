import { describe, expect, it } from "vitest";
import { redactLogLine } from "./logs.ts";

describe("log redaction", () => {
  it("renders a driver error as one line without its query, parameters or refused value", () => {
    const err = Object.assign(new Error('invalid input syntax for type uuid: "secret-value"'), {
      code: "22P02",
      query: "insert into public.x (a) values ($1)",
      params: ["secret-value", "$2b$10$abcdefghijklmnopqrstuv"],
    });
    const line = redactLogLine(["Auth error:", err])!;
    expect(line).toBe('Auth error: refused 22P02: invalid input syntax for type uuid: "…"');
  });

  it("unwraps the PostgREST error the stack re-expresses", () => {
    const err = Object.assign(new Error("x"), {
      code: "PGRST",
      message: JSON.stringify({ code: "23514", message: 'violates check constraint "c"' }),
    });
    expect(redactLogLine([err])).toBe('refused 23514: violates check constraint "c"');
  });

  it("leaves other log lines alone", () => {
    expect(redactLogLine(["realtime: socket closed"])).toBeNull();
    expect(redactLogLine([new TypeError("a bug")])).toBeNull();
  });
});
