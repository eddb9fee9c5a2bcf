// Requests no server of the stack can serve: answered 400 at the edge, before any handler runs.
// A malformed percent-escape in the path (`GET /%`) used to throw in the SPA server and, through
// the shared process, take API, database and Realtime down; a NUL byte (`%00`) reached
// functions and Postgres, which cannot hold it in text, and failed as a 500.
import type http from "node:http";
import type { Duplex } from "node:stream";

/** Why the request target cannot be served, or null when it can. */
export function badRequestTarget(target: string | undefined): string | null {
  const raw = target ?? "/";
  if (raw.includes("\0") || /%00/i.test(raw)) return "The request URL contains a NUL byte.";
  let url: URL;
  try {
    url = new URL(raw, "http://localhost");
  } catch {
    return "The request URL is not valid.";
  }
  try {
    decodeURIComponent(url.pathname);
  } catch {
    return "The request path has a malformed percent-escape.";
  }
  return null;
}

const body = (message: string) => JSON.stringify({ error: "bad_request", message });

/** Answers a plain HTTP request with 400 and a JSON `{ error, message }`. */
export function sendBadRequest(res: http.ServerResponse, message: string): void {
  const text = body(message);
  res.writeHead(400, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "access-control-allow-origin": "*",
  });
  res.end(text);
}

/** Answers a refused upgrade (WebSocket) request on its raw socket and closes it. */
export function refuseUpgrade(socket: Duplex, status: number, reason: string, message: string) {
  const text = body(message);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}

/**
 * What every server of the stack does: a socket error or a request Node's parser refuses gets
 * 400 and the socket is closed, never an exception on the process.
 */
export function guardServer(server: http.Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || err.code === "ECONNRESET") return void socket.destroy();
    socket.end(
      "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n" +
        body("The request could not be parsed."),
    );
  });
}
