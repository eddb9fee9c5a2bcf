// Requests fetch() cannot send (a malformed request line, an upgrade, `Expect: 100-continue`):
// written on a raw socket, the answer read until the server closes or a timeout.
import net from "node:net";

export interface RawAnswer {
  status: number | null;
  text: string;
}

export function rawRequest(url: string, head: string, timeoutMs = 3000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let text = "";
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : null, text });
    };
    const socket = net.connect(Number(port), hostname, () => socket.write(head));
    socket.on("data", (d) => {
      text += d.toString();
      // One answer is enough: stop at the end of its body (or of its head when it has none).
      const end = text.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      if (end >= 0 && length !== undefined && text.length >= end + 4 + Number(length)) done();
    });
    socket.on("close", done);
    socket.on("error", done);
    const timer = setTimeout(done, timeoutMs);
  });
}
