// Child process of the soak (soak.ts): holds many Realtime sockets, each joined to one private
// topic with its own token (phoenix-socket.ts), heart-beating as realtime-js does. For every
// socket it counts the user broadcasts received and keeps the numbers of the soak's chat
// messages ("soak-<n>" in the payload) it has seen.
//   argv: <websocket url> <JSON [{ topic, token }]>
//   parent → child: { type: "stats" } | { type: "close" }
//   child → parent: { type: "ready" } | { type: "stats", broadcasts, open: boolean[], chat: number[][] }
import WebSocket from "ws";
import { broadcastBody, heartbeat, type JoinSpec, openAll, openJoined } from "./phoenix-socket.ts";

const [url, specsJson] = process.argv.slice(2);
const specs = JSON.parse(specsJson!) as JoinSpec[];
const send = (msg: unknown) => process.send?.(msg);

const broadcasts = specs.map(() => 0);
const chat = specs.map(() => new Set<number>());
const sockets: WebSocket[] = [];

// The heartbeat runs from the first socket on, as realtime-js's does: joining every socket can
// take longer than the stand-in's idle timeout (60 s) on a busy machine, and a socket that waited
// silently that long is closed by the stand-in's idle sweep (the fan-out bench once counted 808
// subscriptions of 1,000 that way).
const beat = heartbeat(sockets, 25_000);
await openAll(specs.length, (i) => {
  const { socket, joined } = openJoined(url!, i, specs[i]!, (data) => {
    broadcasts[i]!++;
    for (const m of broadcastBody(data).matchAll(/soak-(\d+)/g)) chat[i]!.add(Number(m[1]));
  });
  sockets[i] = socket;
  return joined;
});
send({ type: "ready" });

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
