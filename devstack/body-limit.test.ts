import { describe, expect, it } from "vitest";
import { declaredTooLarge, limitBody, parseSize } from "./body-limit.ts";

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://x/upload", { method: "POST", body, headers, duplex: "half" } as RequestInit);

function stream(chunks: number, size: number): ReadableStream<Uint8Array> {
  let n = 0;
  return new ReadableStream({
    pull(c) {
      if (n++ >= chunks) return c.close();
      c.enqueue(new Uint8Array(size));
    },
  });
}

describe("body limits", () => {
  it("refuses a declared Content-Length above the limit", () => {
    expect(declaredTooLarge(post("x", { "content-length": "101" }), 100)).toBe(true);
    expect(declaredTooLarge(post("x", { "content-length": "100" }), 100)).toBe(false);
    expect(declaredTooLarge(new Request("http://x/"), 100)).toBe(false);
  });

  it("passes a body within the limit through unchanged", async () => {
    const limited = limitBody(post(stream(3, 10)), 30);
    expect((await limited.req.arrayBuffer()).byteLength).toBe(30);
    expect(limited.exceeded()).toBe(false);
  });

  it("cuts a streamed body once it passes the limit, without reading the rest", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(1024));
      },
    });
    const limited = limitBody(post(body), 4096);
    await expect(limited.req.arrayBuffer()).rejects.toThrow();
    expect(limited.exceeded()).toBe(true);
    expect(pulled).toBeLessThan(10);
  });

  it("reads the CLI's size notation", () => {
    expect(parseSize("50MiB", 0)).toBe(50 * 1024 * 1024);
    expect(parseSize("5MB", 0)).toBe(5_000_000);
    expect(parseSize("1024", 0)).toBe(1024);
    expect(parseSize("lots", 7)).toBe(7);
  });
});
