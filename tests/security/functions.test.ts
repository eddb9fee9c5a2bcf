// Item 5 of the hardening issue: `Expect: 100-continue` (curl sends it for bodies over 1 MB)
// broke every function with 502, so valid 1.5-4 MB avatars failed and a 6 MB one got 502 instead
// of the function's 413. The gateway no longer forwards hop-by-hop headers to the functions host.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { signedInUser, stackInfo } from "../support/clients.ts";

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function multipart(size: number, boundary: string): Buffer {
  const image = Buffer.alloc(size, 7);
  Buffer.from(PNG).copy(image);
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="avatar"; filename="a.png"\r\n` +
        "content-type: image/png\r\n\r\n",
    ),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

/** POST as curl does for bodies over 1 MB: `Expect: 100-continue`, body after the 100. */
function postExpectingContinue(url: string, token: string, body: Buffer, boundary: string) {
  return new Promise<{ status: number; json: Record<string, unknown> }>((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(body.byteLength),
        expect: "100-continue",
      },
    });
    req.on("continue", () => req.end(body));
    req.on("response", (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
    });
    req.on("error", reject);
  });
}

describe("functions behind Expect: 100-continue", () => {
  it("a 1.5 MB and a 4 MB avatar are stored; a 6 MB one gets the function's 413", async () => {
    const { session } = await signedInUser();
    const url = `${stackInfo().url}/functions/v1/avatar`;
    for (const size of [1.5, 4]) {
      const res = await postExpectingContinue(
        url,
        session.access_token,
        multipart(size * 1024 * 1024, "b"),
        "b",
      );
      expect(res.status, `${size} MB`).toBe(200);
      expect(res.json.avatarUrl).toMatch(/\/storage\/v1\/object\/public\/avatars\//);
    }
    const big = await postExpectingContinue(
      url,
      session.access_token,
      multipart(6 * 1024 * 1024, "b"),
      "b",
    );
    expect(big.status).toBe(413);
    expect(big.json).toEqual({
      error: "file_too_large",
      message: "The image must be at most 5 MB.",
    });
  });
});
