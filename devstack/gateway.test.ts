import { describe, expect, it } from "vitest";
import { normalizeStorageUpload, withForwardedFor } from "./gateway.ts";

describe("storage upload normalisation", () => {
  it("moves a file sent under an empty field name (storage-js) to the field `file`", async () => {
    const form = new FormData();
    form.append("cacheControl", "3600");
    form.append("", new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" }), "a.png");
    const req = new Request("http://x/storage/v1/object/avatars/u/a.png", {
      method: "POST",
      body: form,
    });
    const out = await (await normalizeStorageUpload(req)).formData();
    const file = out.get("file") as File;
    expect(file).toBeInstanceOf(Blob);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(out.get("cacheControl")).toBe("3600");
  });

  it("leaves raw-body uploads untouched", async () => {
    const req = new Request("http://x/storage/v1/object/avatars/u/a.png", {
      method: "POST",
      headers: { "content-type": "image/png" },
      body: new Uint8Array([9]),
    });
    expect(await normalizeStorageUpload(req)).toBe(req);
  });
});

describe("forwarded-for", () => {
  it("replaces a client-supplied X-Forwarded-For with the socket's address", () => {
    const req = new Request("http://x/rest/v1/rpc/f", {
      headers: { "x-forwarded-for": "6.6.6.6", "x-real-ip": "6.6.6.6" },
    });
    const out = withForwardedFor(req, "::ffff:127.0.0.1");
    expect(out.headers.get("x-forwarded-for")).toBe("127.0.0.1");
    expect(out.headers.get("x-real-ip")).toBeNull();
  });
});
