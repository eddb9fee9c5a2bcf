import { describe, expect, it } from "vitest";
import { AVATAR_MAX_BYTES, AVATAR_MIME_TYPES, IMAGE_TYPES, sniffImageType } from "./images.ts";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(
    parts.flatMap((p) => (typeof p === "string" ? Array.from(p, (c) => c.charCodeAt(0)) : p)),
  );

describe("sniffImageType", () => {
  it("recognises JPEG, PNG, GIF (87a and 89a) and WebP by their first bytes", () => {
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toEqual(IMAGE_TYPES.jpeg);
    expect(sniffImageType(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toEqual(
      IMAGE_TYPES.png,
    );
    expect(sniffImageType(bytes("GIF87a", [1, 0, 1, 0]))).toEqual(IMAGE_TYPES.gif);
    expect(sniffImageType(bytes("GIF89a", [1, 0, 1, 0]))).toEqual(IMAGE_TYPES.gif);
    expect(sniffImageType(bytes("RIFF", [0x24, 0, 0, 0], "WEBPVP8 "))).toEqual(IMAGE_TYPES.webp);
  });

  it("names the stored extension and content type", () => {
    expect(IMAGE_TYPES.jpeg).toEqual({ mime: "image/jpeg", ext: "jpg" });
    expect(AVATAR_MIME_TYPES).toEqual(["image/jpeg", "image/png", "image/gif", "image/webp"]);
  });

  it("refuses text, other RIFF files, truncated signatures and empty input", () => {
    expect(sniffImageType(bytes("hello, I am a .png"))).toBeNull();
    expect(sniffImageType(bytes("RIFF", [0x24, 0, 0, 0], "WAVEfmt "))).toBeNull();
    expect(sniffImageType(bytes("RIFF", [0, 0, 0, 0], "WEB"))).toBeNull();
    expect(sniffImageType(bytes([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
    expect(sniffImageType(bytes("GIF88a"))).toBeNull();
    expect(sniffImageType(bytes("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });

  it("limits avatars to 5 MB", () => {
    expect(AVATAR_MAX_BYTES).toBe(5_242_880);
  });
});
