import { describe, expect, it } from "vitest";
import { createGateway, normalizeStorageUpload, withForwardedFor } from "./gateway.ts";

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

describe("CORS", () => {
  const deps = {
    lite: async () => new Response("{}", { status: 200 }),
    functions: () => null,
    jwtSecret: "x".repeat(40),
    secretKey: "sb_secret_x",
  };

  it("answers preflights for Auth with the requested headers (lite leaves them out)", async () => {
    const gateway = createGateway(deps);
    const res = await gateway(
      new Request("http://x/auth/v1/token?grant_type=password", {
        method: "OPTIONS",
        headers: {
          origin: "http://127.0.0.1:5173",
          "access-control-request-method": "POST",
          "access-control-request-headers":
            "apikey,content-type,x-client-info,x-supabase-api-version",
        },
      }),
      null,
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toBe(
      "apikey,content-type,x-client-info,x-supabase-api-version",
    );
  });

  it("adds an allow-origin header to lite's answers that lack one", async () => {
    const res = await createGateway(deps)(new Request("http://x/auth/v1/user"), null);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
