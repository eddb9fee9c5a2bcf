// Server-sent events (text/event-stream): message framing and a stream that keeps itself alive
// with comments and ends once, on whichever comes first: the server closing it, the client
// going away (request aborted) or the reader cancelling.

export interface SseMessage {
  /** Event name; omitted: the default `message` event (EventSource `onmessage`). */
  event?: string;
  /** Serialised as JSON on one `data:` line (JSON text never holds a raw line break). */
  data?: unknown;
  /** A comment line (`: text`), ignored by EventSource; used for keep-alives. */
  comment?: string;
  /** The reconnection delay EventSource should use, in milliseconds. */
  retry?: number;
  /** The event id (EventSource sends the last one back as `Last-Event-ID` on reconnect). */
  id?: string;
}

/** One message as SSE text, ending with the blank line that dispatches it. */
export function formatSse(message: SseMessage): string {
  const lines: string[] = [];
  if (message.comment !== undefined) {
    for (const line of message.comment.split(/\r\n|\r|\n/)) lines.push(`: ${line}`);
  }
  if (message.retry !== undefined) lines.push(`retry: ${Math.max(0, Math.round(message.retry))}`);
  if (message.id !== undefined) lines.push(`id: ${message.id.replace(/[\r\n\0]/g, "")}`);
  if (message.event !== undefined) lines.push(`event: ${message.event.replace(/[\r\n]/g, " ")}`);
  if (message.data !== undefined) {
    for (const line of JSON.stringify(message.data).split(/\r\n|\r|\n/)) {
      lines.push(`data: ${line}`);
    }
  }
  return `${lines.join("\n")}\n\n`;
}

export const SSE_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  // Proxies (nginx and friends) must not buffer the stream.
  "x-accel-buffering": "no",
};

export interface SseStreamOptions {
  /** A comment is sent this often (ms) so proxies and clients keep the connection open. */
  keepAliveMs: number;
  /** The request's signal: the stream ends when the client goes away. */
  signal?: AbortSignal;
  /**
   * The stream closes itself after this long (ms), before the platform's wall-clock limit ends
   * the function, telling EventSource to reconnect after `closeRetryMs`.
   */
  maxMs?: number;
  closeRetryMs?: number;
}

/**
 * A text/event-stream body. `send` queues a message (ignored once ended); `end` closes the
 * stream; `onEnd` handlers run exactly once, whatever ended the stream (including `discard`,
 * for a stream that is never handed to a client).
 */
export class SseStream {
  readonly body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #encoder = new TextEncoder();
  #ended = false;
  #endHandlers: (() => void | Promise<void>)[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;
  #deadline: ReturnType<typeof setTimeout> | undefined;
  #signal?: AbortSignal;
  #onAbort = () => this.end();

  constructor(opts: SseStreamOptions) {
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.#finish(false),
    });
    this.#timer = setInterval(() => this.send({ comment: "keep-alive" }), opts.keepAliveMs);
    if (opts.maxMs !== undefined) {
      this.#deadline = setTimeout(() => {
        this.send({
          comment: "closing before the time limit: reconnect",
          retry: opts.closeRetryMs ?? 1000,
        });
        this.end();
      }, opts.maxMs);
    }
    this.#signal = opts.signal;
    if (opts.signal?.aborted) this.end();
    else opts.signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  get ended(): boolean {
    return this.#ended;
  }

  send(message: SseMessage): void {
    if (this.#ended) return;
    try {
      this.#controller.enqueue(this.#encoder.encode(formatSse(message)));
    } catch {
      this.#finish(false);
    }
  }

  /** Runs `handler` when the stream ends (at once if it already has). */
  onEnd(handler: () => void | Promise<void>): void {
    if (this.#ended) void run(handler);
    else this.#endHandlers.push(handler);
  }

  /** Ends the stream after what was sent so far. */
  end(): void {
    this.#finish(true);
  }

  /** Ends a stream no client will read (its body is cancelled). */
  discard(): void {
    this.#finish(false);
    this.body.cancel().catch(() => {});
  }

  #finish(close: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    clearInterval(this.#timer);
    clearTimeout(this.#deadline);
    this.#signal?.removeEventListener("abort", this.#onAbort);
    if (close) {
      try {
        this.#controller.close();
      } catch {
        // Already closed or errored by the reader.
      }
    }
    for (const handler of this.#endHandlers.splice(0)) void run(handler);
  }
}

async function run(handler: () => void | Promise<void>): Promise<void> {
  try {
    await handler();
  } catch (err) {
    console.error("[api] closing a stream:", err);
  }
}

/** The client's resume point: `Last-Event-ID` (or ?lastEventId=) when it is a time in ms. */
export function lastEventId(req: Request): number | null {
  const raw = req.headers.get("last-event-id") ?? new URL(req.url).searchParams.get("lastEventId");
  if (!raw || !/^\d{1,16}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}
