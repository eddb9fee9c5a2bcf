import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pickEncoding, serveBuiltWeb } from "./web.ts";

describe("pickEncoding", () => {
  it("prefers brotli, then gzip, and honours q=0 and *", () => {
    expect(pickEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(pickEncoding("gzip, deflate")).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(pickEncoding("*")).toBe("br");
    expect(pickEncoding("identity")).toBe("identity");
    expect(pickEncoding("")).toBe("identity");
    expect(pickEncoding(undefined)).toBe("identity");
  });
});

describe("serveBuiltWeb", () => {
  const script = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ i })))};\n`;
  let dist: string;
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), "web-dist-"));
    mkdirSync(path.join(dist, "assets"));
    writeFileSync(
      path.join(dist, "index.html"),
      `<!doctype html><title>x</title>${" ".repeat(2000)}`,
    );
    writeFileSync(path.join(dist, "assets", "app-abc.js"), script);
    writeFileSync(path.join(dist, "icon.png"), Buffer.alloc(4000, 1));
    writeFileSync(path.join(dist, "app.html"), "<!doctype html><title>shell</title>");
    mkdirSync(path.join(dist, "pricing"));
    writeFileSync(
      path.join(dist, "pricing", "index.html"),
      "<!doctype html><title>pricing</title>",
    );
    server = await serveBuiltWeb(0, "127.0.0.1", dist);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  // fetch() would decode the body itself; node's http client shows the bytes as sent.
  async function raw(pathname: string, acceptEncoding?: string) {
    const { request } = await import("node:http");
    return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = request(
        `${base}${pathname}`,
        { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        },
      );
      req.on("error", reject);
      req.end();
    });
  }

  it("sends scripts brotli- or gzip-compressed as the browser accepts, the same bytes inside", async () => {
    const br = await raw("/assets/app-abc.js", "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(script);

    const gz = await raw("/assets/app-abc.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const plain = await raw("/assets/app-abc.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it("answers / and /pricing with their pre-rendered pages, every other address with the shell", async () => {
    const text = async (pathname: string) => (await raw(pathname)).body.toString();
    expect(await text("/")).toMatch(/^<!doctype html><title>x<\/title>/);
    expect(await text("/pricing")).toBe("<!doctype html><title>pricing</title>");
    expect(await text("/pricing/")).toBe("<!doctype html><title>pricing</title>");
    for (const other of [
      "/dashboard",
      "/auth/login?redirect=%2Fcharts",
      "/assets/",
      "/../etc/passwd",
    ]) {
      expect(await text(other), other).toBe("<!doctype html><title>shell</title>");
    }
  });

  it("compresses pages too, and leaves images alone", async () => {
    const page = await raw("/", "br");
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(page.body).toString()).toMatch(/^<!doctype html>/);

    const png = await raw("/icon.png", "br, gzip");
    expect(png.headers["content-encoding"]).toBeUndefined();
    expect(png.body.length).toBe(4000);
  });
});
