// Child process of the fan-out bench: opens N WebSockets to the Realtime stand-in, joins each
// to one private topic with the given token (vsn 2.0.0 frames, as realtime-js sends them),
// heart-beats, and reports to the parent over IPC when every socket has joined and, for each
// round, the epoch time (ms, sub-millisecond) at which every socket received the broadcast.
import WebSocket from "ws";

const [url, topic, token, countArg] = process.argv.slice(2);
const count = Number(countArg);
const now = () => performance.timeOrigin + performance.now();
const send = (msg: unknown) => process.send?.(msg);

let joined = 0;
let round = -1;
let received: number[] = [];
const sockets: WebSocket[] = [];

function open(i: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url!);
    sockets.push(ws);
    ws.on("open", () => {
      ws.send(
        JSON.stringify([
          String(i),
          String(i),
          `realtime:${topic}`,
          "phx_join",
          {
            config: { private: true, broadcast: { self: false, ack: false } },
            access_token: token,
          },
        ]),
      );
    });
    ws.on("message", (data, isBinary) => {
      if (isBinary) {
        // A user broadcast (binary kind 4): record its arrival for the current round.
        if (round >= 0) received.push(now());
        if (received.length === count) send({ type: "round", times: received });
        return;
      }
      const [, , , event, payload] = JSON.parse(String(data)) as [
        unknown,
        unknown,
        string,
        string,
        { status?: string; response?: { reason?: string } },
      ];
      if (event === "phx_reply" && payload.status === "ok" && ++joined === count)
        send({ type: "ready" });
      if (event === "phx_reply" && payload.status === "error")
        reject(new Error(payload.response?.reason ?? "join refused"));
      else resolve();
    });
    ws.on("error", reject);
  });
}

// Open in batches so the 2-core machine is not flooded with handshakes at once.
for (let i = 0; i < count; i += 50) {
  await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, k) => open(i + k)));
}
const beat = setInterval(() => {
  for (const ws of sockets) ws.send(JSON.stringify([null, "hb", "phoenix", "heartbeat", {}]));
}, 20_000);

process.on("message", (msg: { type: string }) => {
  if (msg.type === "round") {
    round++;
    received = [];
    send({ type: "armed" });
  }
  if (msg.type === "close") {
    clearInterval(beat);
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});
