import { describe, expect, it } from "vitest";
import { checkAvatarFile } from "./avatar-file";

const MB = 1024 * 1024;
const file = (name: string, type: string, size = 1000) => ({ name, type, size });

describe("checkAvatarFile", () => {
  it.each([
    ["a.jpeg", "image/jpeg"],
    ["a.jpg", "image/jpg"],
    ["a.png", "image/png"],
    ["a.gif", "image/gif"],
    ["a.webp", "image/webp"],
  ])("accepts %s (%s)", (name, type) => {
    expect(checkAvatarFile(file(name, type))).toBeNull();
  });

  it.each([
    ["a.svg", "image/svg+xml"],
    ["a.bmp", "image/bmp"],
    ["a.pdf", "application/pdf"],
    ["a.png.exe", "application/octet-stream"],
  ])("refuses %s (%s) as an invalid type", (name, type) => {
    expect(checkAvatarFile(file(name, type))).toBe("invalidType");
  });

  it("judges a file without a reported type by its extension", () => {
    expect(checkAvatarFile(file("photo.JPG", ""))).toBeNull();
    expect(checkAvatarFile(file("notes.txt", ""))).toBe("invalidType");
  });

  it("allows exactly 5 MB and refuses one byte more", () => {
    expect(checkAvatarFile(file("a.png", "image/png", 5 * MB))).toBeNull();
    expect(checkAvatarFile(file("a.png", "image/png", 5 * MB + 1))).toBe("tooLarge");
  });

  it("reports the type before the size", () => {
    expect(checkAvatarFile(file("a.pdf", "application/pdf", 10 * MB))).toBe("invalidType");
  });
});
