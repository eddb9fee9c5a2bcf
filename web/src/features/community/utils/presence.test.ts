import { describe, expect, it } from "vitest";
import { readPresence } from "./presence";

describe("readPresence", () => {
  it("gives one entry per user, typing when any tab types, sorted by name", () => {
    const state = {
      u2: [
        { name: "zoe", typing: false },
        { name: "zoe", typing: true },
      ],
      u1: [{ name: "adam", typing: false }],
      u3: [],
      u4: ["garbage", null],
    };
    expect(readPresence(state, "u1")).toEqual([
      { userId: "u4", name: "", typing: false, isMe: false },
      { userId: "u1", name: "adam", typing: false, isMe: true },
      { userId: "u2", name: "zoe", typing: true, isMe: false },
    ]);
  });
});
