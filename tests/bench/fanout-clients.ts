// Child process of the fan-out bench: opens N WebSockets to the Realtime stand-in, joins each
// to one private topic with the given token (phoenix-socket.ts), heart-beats, and reports to the
// parent over IPC when every socket has joined and, for each round, the epoch time (ms,
// sub-millisecond) at which every socket received the broadcast.
import type WebSocket from "ws";
import { heartbeat, openAll, openJoined } from "./phoenix-socket.ts";

const [url, topic, token, countArg] = process.argv.slice(2);
const count = Number(countArg);
const now = () => performance.timeOrigin + performance.now();
const send = (msg: unknown) => process.send?.(msg);

let round = -1;
let received: number[] = [];
const sockets: WebSocket[] = [];

// The heartbeat runs from the first socket on, as realtime-js's does: joining every socket can
// take longer than the stand-in's idle timeout (60 s) on a busy machine, and a socket that waited
// silently that long is closed by the stand-in's idle sweep (the fan-out bench once counted 808
// subscriptions of 1,000 that way).
const beat = heartbeat(sockets, 20_000);
await openAll(count, (i) => {
  const { socket, joined } = openJoined(url!, i, { topic: topic!, token: token! }, () => {
    // A user broadcast: record its arrival for the current round.
    if (round >= 0) received.push(now());
    if (received.length === count) send({ type: "round", times: received });
  });
  sockets.push(socket);
  return joined;
});
send({ type: "ready" });

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
