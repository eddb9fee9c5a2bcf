// Phoenix channel frames as @supabase/realtime-js speaks them.
//
// vsn 1.0.0: every frame is a JSON object {join_ref, ref, topic, event, payload}.
// vsn 2.0.0: text frames are JSON arrays [join_ref, ref, topic, event, payload]; a client's
// broadcast push may come as a binary frame (kind 3, "user broadcast push") and the server may
// send user broadcasts as binary frames (kind 4, "user broadcast"). Layouts follow
// realtime-js's lib/serializer.ts.

export type Vsn = "1.0.0" | "2.0.0";
export const SUPPORTED_VSN: readonly Vsn[] = ["1.0.0", "2.0.0"];

export interface Frame {
  join_ref: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
}

export class FrameError extends Error {}

const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;
const ENCODING_BINARY = 0;
const ENCODING_JSON = 1;

const utf8 = new TextDecoder("utf-8", { fatal: true });

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function optString(v: unknown, what: string): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  throw new FrameError(`${what} must be a string or null`);
}

function checkFrame(f: {
  join_ref: unknown;
  ref: unknown;
  topic: unknown;
  event: unknown;
  payload: unknown;
}): Frame {
  if (typeof f.topic !== "string" || f.topic === "")
    throw new FrameError("topic must be a non-empty string");
  if (typeof f.event !== "string" || f.event === "")
    throw new FrameError("event must be a non-empty string");
  const payload = f.payload ?? {};
  if (!isRecord(payload)) throw new FrameError("payload must be an object");
  return {
    join_ref: optString(f.join_ref, "join_ref"),
    ref: optString(f.ref, "ref"),
    topic: f.topic,
    event: f.event,
    payload,
  };
}

/** Decodes one client frame; throws FrameError on anything malformed. */
export function decodeFrame(data: Buffer | string, isBinary: boolean, vsn: Vsn): Frame {
  if (isBinary) {
    if (vsn !== "2.0.0") throw new FrameError("binary frames need vsn 2.0.0");
    return decodeBinaryPush(typeof data === "string" ? Buffer.from(data) : data);
  }
  const text = typeof data === "string" ? data : data.toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new FrameError("frame is not JSON");
  }
  if (vsn === "2.0.0") {
    if (!Array.isArray(parsed) || parsed.length !== 5)
      throw new FrameError("vsn 2.0.0 frames are arrays of five elements");
    const [join_ref, ref, topic, event, payload] = parsed as unknown[];
    return checkFrame({ join_ref, ref, topic, event, payload });
  }
  if (!isRecord(parsed)) throw new FrameError("vsn 1.0.0 frames are JSON objects");
  return checkFrame(parsed as Parameters<typeof checkFrame>[0]);
}

/** Kind 3: a client's broadcast, `{type:'broadcast', event, payload}` for the channel. */
function decodeBinaryPush(buf: Buffer): Frame {
  if (buf.length < 7) throw new FrameError("binary frame too short");
  const kind = buf.readUInt8(0);
  if (kind !== KIND_USER_BROADCAST_PUSH) throw new FrameError(`unknown binary frame kind ${kind}`);
  const sizes = [1, 2, 3, 4, 5].map((i) => buf.readUInt8(i));
  const encoding = buf.readUInt8(6);
  let offset = 7;
  const take = (n: number) => {
    if (offset + n > buf.length) throw new FrameError("binary frame truncated");
    const part = buf.subarray(offset, offset + n);
    offset += n;
    return part;
  };
  const text = (n: number) => {
    try {
      return utf8.decode(take(n));
    } catch (err) {
      if (err instanceof FrameError) throw err;
      throw new FrameError("binary frame header is not UTF-8");
    }
  };
  const [joinRefLen, refLen, topicLen, eventLen, metaLen] = sizes as [
    number,
    number,
    number,
    number,
    number,
  ];
  const joinRef = text(joinRefLen);
  const ref = text(refLen);
  const topic = text(topicLen);
  const event = text(eventLen);
  const meta = text(metaLen);
  const body = buf.subarray(offset);
  let userPayload: unknown;
  if (encoding === ENCODING_JSON) {
    try {
      userPayload = JSON.parse(utf8.decode(body));
    } catch {
      throw new FrameError("binary frame payload is not JSON");
    }
  } else if (encoding === ENCODING_BINARY) {
    userPayload = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength);
  } else {
    throw new FrameError(`unknown binary payload encoding ${encoding}`);
  }
  let metadata: Record<string, unknown> = {};
  if (meta) {
    try {
      const m: unknown = JSON.parse(meta);
      if (isRecord(m)) metadata = m;
    } catch {
      throw new FrameError("binary frame metadata is not JSON");
    }
  }
  return checkFrame({
    join_ref: joinRef || null,
    ref: ref || null,
    topic,
    event: "broadcast",
    payload: { ...metadata, type: "broadcast", event, payload: userPayload },
  });
}

/** Encodes a server frame as text for the socket's protocol version. */
export function encodeFrame(f: Frame, vsn: Vsn): string {
  return vsn === "2.0.0"
    ? JSON.stringify([f.join_ref, f.ref, f.topic, f.event, f.payload])
    : JSON.stringify(f);
}

/**
 * A user broadcast for vsn 2.0.0 clients: binary kind 4 with a JSON payload (or raw bytes when
 * the payload is binary), exactly what realtime-js's serializer decodes.
 */
export function encodeUserBroadcast(
  topic: string,
  event: string,
  payload: unknown,
  meta?: Record<string, unknown>,
): Buffer {
  const topicBuf = Buffer.from(topic, "utf8");
  const eventBuf = Buffer.from(event, "utf8");
  const metaBuf = Buffer.from(meta && Object.keys(meta).length ? JSON.stringify(meta) : "", "utf8");
  if (topicBuf.length > 255 || eventBuf.length > 255 || metaBuf.length > 255) {
    throw new FrameError("topic, event or metadata longer than 255 bytes");
  }
  const binary = payload instanceof ArrayBuffer;
  const body = binary ? Buffer.from(payload) : Buffer.from(JSON.stringify(payload ?? {}), "utf8");
  const header = Buffer.from([
    KIND_USER_BROADCAST,
    topicBuf.length,
    eventBuf.length,
    metaBuf.length,
    binary ? ENCODING_BINARY : ENCODING_JSON,
  ]);
  return Buffer.concat([header, topicBuf, eventBuf, metaBuf, body]);
}
