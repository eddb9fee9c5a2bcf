// Child process of the chat bench: opens one WebSocket per member token to the Realtime
// stand-in, joins each to the group's private topic (vsn 2.0.0 frames, as realtime-js sends
// them), heart-beats, reports "ready" once all joined, then the epoch arrival times (ms) of the
// broadcasts on every socket when each has received `expected` of them.
import WebSocket from "ws";

const [url, topic, tokensJson] = process.argv.slice(2);
const tokens = JSON.parse(tokensJson!) as string[];
const now = () => performance.timeOrigin + performance.now();
const send = (msg: unknown) => process.send?.(msg);

const arrivals: number[][] = tokens.map(() => []);
const sockets: WebSocket[] = [];
let joined = 0;
let expected = Infinity;

function maybeDone() {
  if (arrivals.every((a) => a.length >= expected)) {
    send({ type: "done", arrivals });
    expected = Infinity;
  }
}

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
            access_token: tokens[i],
          },
        ]),
      );
    });
    ws.on("message", (data, isBinary) => {
      if (isBinary) {
        arrivals[i]!.push(now());
        maybeDone();
        return;
      }
      const [, , , event, payload] = JSON.parse(String(data)) as [
        unknown,
        unknown,
        string,
        string,
        { status?: string; response?: { reason?: string } },
      ];
      if (event === "phx_reply" && payload.status === "ok" && ++joined === tokens.length)
        send({ type: "ready" });
      if (event === "phx_reply" && payload.status === "error")
        reject(new Error(payload.response?.reason ?? "join refused"));
      else resolve();
    });
    ws.on("error", reject);
  });
}

for (let i = 0; i < tokens.length; i += 50) {
  await Promise.all(Array.from({ length: Math.min(50, tokens.length - i) }, (_, k) => open(i + k)));
}
const beat = setInterval(() => {
  for (const ws of sockets) ws.send(JSON.stringify([null, "hb", "phoenix", "heartbeat", {}]));
}, 20_000);

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
