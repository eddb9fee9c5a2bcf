// The stand-in's frame codec against realtime-js's own serializer: what the client encodes we
// decode, and what we encode the client decodes.
import Serializer from "@supabase/realtime-js/dist/main/lib/serializer.js";
import { describe, expect, it } from "vitest";
import { decodeFrame, encodeFrame, encodeUserBroadcast, FrameError } from "./protocol.ts";

const serializer = new Serializer();

function clientEncode(msg: Parameters<Serializer["encode"]>[0]): ArrayBuffer | string {
  let out: ArrayBuffer | string = "";
  serializer.encode(msg, (r: ArrayBuffer | string) => (out = r));
  return out;
}

function clientDecode(raw: ArrayBuffer | string) {
  let out: unknown;
  serializer.decode(raw, (r: unknown) => (out = r));
  return out as { topic: string; event: string; payload: Record<string, unknown> };
}

const asBuffer = (raw: ArrayBuffer | string) =>
  typeof raw === "string" ? Buffer.from(raw) : Buffer.from(raw);

describe("decodeFrame", () => {
  it("reads vsn 2.0.0 JSON arrays as realtime-js sends them", () => {
    const raw = clientEncode({
      join_ref: "1",
      ref: "1",
      topic: "realtime:group:x",
      event: "phx_join",
      payload: { config: { private: true }, access_token: "t" },
    });
    expect(typeof raw).toBe("string");
    expect(decodeFrame(asBuffer(raw), false, "2.0.0")).toEqual({
      join_ref: "1",
      ref: "1",
      topic: "realtime:group:x",
      event: "phx_join",
      payload: { config: { private: true }, access_token: "t" },
    });
  });

  it("reads the binary user-broadcast push (JSON payload) with its metadata", () => {
    const raw = clientEncode({
      join_ref: "3",
      ref: "7",
      topic: "realtime:room",
      event: "broadcast",
      payload: { type: "broadcast", event: "cursor", payload: { x: 1, y: 2 } },
    });
    expect(raw).toBeInstanceOf(ArrayBuffer);
    const frame = decodeFrame(asBuffer(raw), true, "2.0.0");
    expect(frame).toMatchObject({
      join_ref: "3",
      ref: "7",
      topic: "realtime:room",
      event: "broadcast",
    });
    expect(frame.payload).toMatchObject({
      type: "broadcast",
      event: "cursor",
      payload: { x: 1, y: 2 },
    });
  });

  it("reads a binary push whose payload is raw bytes", () => {
    const bytes = new Uint8Array([1, 2, 3, 250]).buffer;
    const raw = clientEncode({
      join_ref: "1",
      ref: "2",
      topic: "realtime:room",
      event: "broadcast",
      payload: { type: "broadcast", event: "blob", payload: bytes },
    });
    const frame = decodeFrame(asBuffer(raw), true, "2.0.0");
    expect(new Uint8Array(frame.payload.payload as ArrayBuffer)).toEqual(
      new Uint8Array([1, 2, 3, 250]),
    );
  });

  it("reads vsn 1.0.0 objects", () => {
    const frame = decodeFrame(
      Buffer.from(JSON.stringify({ topic: "phoenix", event: "heartbeat", payload: {}, ref: 5 })),
      false,
      "1.0.0",
    );
    expect(frame).toEqual({
      join_ref: null,
      ref: "5",
      topic: "phoenix",
      event: "heartbeat",
      payload: {},
    });
  });

  it.each([
    ["not JSON", "{{", false, "2.0.0"],
    ["wrong arity", "[1,2,3]", false, "2.0.0"],
    ["object on vsn 2", '{"topic":"a","event":"b"}', false, "2.0.0"],
    ["array on vsn 1", '[null,null,"a","b",{}]', false, "1.0.0"],
    ["empty topic", '[null,null,"","b",{}]', false, "2.0.0"],
    ["payload not an object", '[null,null,"a","b",3]', false, "2.0.0"],
    ["ref of wrong type", '[{},null,"a","b",{}]', false, "2.0.0"],
    ["binary on vsn 1", "\u0003", true, "1.0.0"],
    ["short binary", "\u0003\u0000", true, "2.0.0"],
    ["unknown binary kind", "\u0009\u0000\u0000\u0000\u0000\u0000\u0001", true, "2.0.0"],
    ["truncated binary", "\u0003\u0000\u0000\u0009\u0000\u0000\u0001ab", true, "2.0.0"],
  ] as const)("refuses %s", (_what, text, binary, vsn) => {
    expect(() => decodeFrame(Buffer.from(text, "latin1"), binary, vsn)).toThrow(FrameError);
  });
});

describe("encoding", () => {
  it("writes user broadcasts that realtime-js decodes (binary kind 4)", () => {
    const buf = encodeUserBroadcast(
      "realtime:market:movers:30",
      "movers",
      { entries: [1] },
      { id: "m1" },
    );
    const ab = new Uint8Array(buf).buffer;
    expect(clientDecode(ab)).toEqual({
      join_ref: null,
      ref: null,
      topic: "realtime:market:movers:30",
      event: "broadcast",
      payload: {
        type: "broadcast",
        event: "movers",
        payload: { entries: [1] },
        meta: { id: "m1" },
      },
    });
  });

  it("writes replies as vsn 2.0.0 arrays and vsn 1.0.0 objects", () => {
    const reply = {
      join_ref: "1",
      ref: "2",
      topic: "realtime:x",
      event: "phx_reply",
      payload: { status: "ok", response: {} },
    };
    expect(clientDecode(encodeFrame(reply, "2.0.0"))).toEqual(reply);
    expect(JSON.parse(encodeFrame(reply, "1.0.0"))).toEqual(reply);
  });
});
