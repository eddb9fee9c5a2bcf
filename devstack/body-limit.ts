// Request body limits at the gateway: a declared Content-Length above the limit is refused
// before a byte is read; a chunked body is counted while it streams and cut at the limit, so
// no handler (and no `formData()`) ever holds more than the limit in memory. A connection
// answered before its body has arrived is closed cleanly (closeAfterEarlyAnswer).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** A body whose declared length exceeds the limit (refuse it without reading). */
export function declaredTooLarge(req: Request, limit: number): boolean {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  return Number.isFinite(declared) && declared > limit;
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes.`);
    this.name = "BodyTooLargeError";
  }
}

export interface LimitedRequest {
  req: Request;
  /** True once more than `limit` bytes arrived (the stream then errored). */
  exceeded(): boolean;
}

/** The same request with a body that errors as soon as more than `limit` bytes pass through. */
export function limitBody(req: Request, limit: number): LimitedRequest {
  let exceeded = false;
  if (!req.body) return { req, exceeded: () => false };
  let seen = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > limit) {
        exceeded = true;
        controller.error(new BodyTooLargeError(limit));
        return;
      }
      controller.enqueue(chunk);
    },
  });
  const body = req.body.pipeThrough(counter);
  const limited = new Request(req.url, {
    method: req.method,
    headers: req.headers,
    body,
    signal: req.signal,
    duplex: "half",
  } as RequestInit & { duplex: "half" });
  return { req: limited, exceeded: () => exceeded };
}

/** "50MiB", "10MB", "512KB", "1048576" → bytes (the Supabase CLI's size notation). */
export function parseSize(value: string | number | undefined, fallback: number): number {
  if (typeof value === "number") return value;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib)?\s*$/i.exec(value ?? "");
  if (!m) return fallback;
  const unit = (m[2] ?? "b").toLowerCase();
  const factor: Record<string, number> = {
    b: 1,
    kb: 1000,
    kib: 1024,
    mb: 1000 ** 2,
    mib: 1024 ** 2,
    gb: 1000 ** 3,
    gib: 1024 ** 3,
  };
  return Math.floor(Number(m[1]) * factor[unit]!);
}

/** How long, and how many bytes, a connection answered early keeps reading before it closes. */
export const LINGER_MS = 5_000;
export const LINGER_BYTES = 64 * 1024 * 1024;

const lingerInstalled = Symbol("lingerInstalled");
const currentRequest = Symbol("currentRequest");

type LingeringSocket = Socket & {
  [lingerInstalled]?: boolean;
  [currentRequest]?: IncomingMessage;
};

/**
 * Answers given before the request's body has arrived (a 413 refused on its Content-Length, a
 * 401 before an upload is read, a function that refuses without reading) close the connection
 * the way nginx and Kong in front of hosted Supabase do:
 * - the answer says `Connection: close`, so no client puts the socket back in its keep-alive pool
 *   (undici did, and its next request failed with EPIPE when the socket was closed under it);
 * - the socket then keeps reading and discarding the rest of the body (lingering close) until
 *   it has all arrived, the client closes, `LINGER_BYTES` or `LINGER_MS` pass. Closing at once
 *   would reset the connection while the client is still sending, and a reset can throw away
 *   the answer before the client has read it.
 * Call it first thing for every request (and for `checkContinue`).
 */
export function closeAfterEarlyAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  { lingerMs = LINGER_MS, lingerBytes = LINGER_BYTES } = {},
): void {
  const socket = req.socket as LingeringSocket;
  socket[currentRequest] = req;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!req.complete && !this.headersSent) {
      // Whatever the handler put in its headers, this connection ends with this answer.
      const headers = args.find((a, i) => i > 0 && a !== null && typeof a === "object");
      if (headers && !Array.isArray(headers)) {
        for (const name of Object.keys(headers)) {
          if (name.toLowerCase() === "connection")
            delete (headers as Record<string, unknown>)[name];
        }
      }
      this.setHeader("connection", "close");
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
  if (socket[lingerInstalled]) return;
  socket[lingerInstalled] = true;
  const destroySoon = socket.destroySoon.bind(socket);
  let lingering = false;
  socket.destroySoon = () => {
    const pending = socket[currentRequest];
    if (!pending || pending.complete || socket.destroyed) return destroySoon();
    if (lingering) return;
    lingering = true;
    // The answer is out: send FIN after it, then read (and drop) what the client still sends.
    socket.end();
    pending.resume();
    let bytes = 0;
    const done = () => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.destroy();
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      // The HTTP parser saw this chunk first: `complete` says whether the body has ended.
      if (pending.complete || bytes > lingerBytes) done();
    };
    const timer = setTimeout(done, lingerMs);
    timer.unref?.();
    socket.on("data", onData);
    socket.once("end", done);
  };
}
