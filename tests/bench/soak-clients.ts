// Child process of the soak (soak.ts): holds many Realtime sockets, each joined to one private
// topic with its own token (vsn 2.0.0 frames, as realtime-js sends them), heart-beating as
// realtime-js does. For every socket it counts the user broadcasts received and keeps the
// numbers of the soak's chat messages ("soak-<n>" in the payload) it has seen.
//   argv: <websocket url> <JSON [{ topic, token }]>
//   parent → child: { type: "stats" } | { type: "close" }
//   child → parent: { type: "ready" } | { type: "stats", broadcasts, open: boolean[], chat: number[][] }
import WebSocket from "ws";

const [url, specsJson] = process.argv.slice(2);
const specs = JSON.parse(specsJson!) as { topic: string; token: string }[];
const send = (msg: unknown) => process.send?.(msg);

const broadcasts = specs.map(() => 0);
const chat = specs.map(() => new Set<number>());
const sockets: WebSocket[] = [];
let joined = 0;

function open(i: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url!);
    sockets[i] = ws;
    ws.on("open", () => {
      ws.send(
        JSON.stringify([
          String(i),
          String(i),
          `realtime:${specs[i]!.topic}`,
          "phx_join",
          {
            config: { private: true, broadcast: { self: false, ack: false } },
            access_token: specs[i]!.token,
          },
        ]),
      );
    });
    ws.on("message", (data: Buffer, isBinary) => {
      if (isBinary) {
        broadcasts[i]!++;
        // Kind 4: [kind, topic length, event length, meta length, encoding], then the parts.
        const body = data.subarray(5 + data[1]! + data[2]! + data[3]!).toString("utf8");
        for (const m of body.matchAll(/soak-(\d+)/g)) chat[i]!.add(Number(m[1]));
        return;
      }
      const [, , , event, payload] = JSON.parse(String(data)) as [
        unknown,
        unknown,
        string,
        string,
        { status?: string; response?: { reason?: string } },
      ];
      if (event === "phx_reply" && payload.status === "ok" && ++joined === specs.length)
        send({ type: "ready" });
      if (event === "phx_reply" && payload.status === "error")
        reject(new Error(`${specs[i]!.topic}: ${payload.response?.reason ?? "join refused"}`));
      else resolve();
    });
    ws.on("error", reject);
  });
}

for (let i = 0; i < specs.length; i += 50) {
  await Promise.all(Array.from({ length: Math.min(50, specs.length - i) }, (_, k) => open(i + k)));
}
const beat = setInterval(() => {
  for (const ws of sockets)
    if (ws.readyState === WebSocket.OPEN)
      ws.send(JSON.stringify([null, "hb", "phoenix", "heartbeat", {}]));
}, 25_000);

process.on("message", (msg: { type: string }) => {
  if (msg.type === "stats") {
    send({
      type: "stats",
      broadcasts,
      open: sockets.map((ws) => ws.readyState === WebSocket.OPEN),
      chat: chat.map((s) => [...s]),
    });
  }
  if (msg.type === "close") {
    clearInterval(beat);
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});
