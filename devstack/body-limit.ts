// Request body limits at the gateway: a declared Content-Length above the limit is refused
// before a byte is read; a chunked body is counted while it streams and cut at the limit, so
// no handler (and no `formData()`) ever holds more than the limit in memory.

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
