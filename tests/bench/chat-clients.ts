// Child process of the chat bench: opens one WebSocket per member token to the Realtime
// stand-in, joins each to the group's private topic (phoenix-socket.ts), heart-beats, reports
// "ready" once all joined, then the epoch arrival times (ms) of the broadcasts on every socket
// when each has received `expected` of them.
import type WebSocket from "ws";
import { heartbeat, openAll, openJoined } from "./phoenix-socket.ts";

const [url, topic, tokensJson] = process.argv.slice(2);
const tokens = JSON.parse(tokensJson!) as string[];
const now = () => performance.timeOrigin + performance.now();
const send = (msg: unknown) => process.send?.(msg);

const arrivals: number[][] = tokens.map(() => []);
const sockets: WebSocket[] = [];
let expected = Infinity;

function maybeDone() {
  if (arrivals.every((a) => a.length >= expected)) {
    send({ type: "done", arrivals });
    expected = Infinity;
  }
}

// The heartbeat runs from the first socket on, as realtime-js's does: joining every socket can
// take longer than the stand-in's idle timeout (60 s) on a busy machine, and a socket that waited
// silently that long is closed by the stand-in's idle sweep (the fan-out bench once counted 808
// subscriptions of 1,000 that way).
const beat = heartbeat(sockets, 20_000);
await openAll(tokens.length, (i) => {
  const { socket, joined } = openJoined(url!, i, { topic: topic!, token: tokens[i]! }, () => {
    arrivals[i]!.push(now());
    maybeDone();
  });
  sockets.push(socket);
  return joined;
});
send({ type: "ready" });

process.on("message", (msg: { type: string; expected?: number }) => {
  if (msg.type === "collect") {
    expected = msg.expected ?? 0;
    maybeDone();
  }
  if (msg.type === "close") {
    clearInterval(beat);
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});
