// The Realtime socket code the benches' client processes share (chat-clients.ts,
// fanout-clients.ts, soak-clients.ts): one WebSocket per client, joined to one private topic
// with its own token (vsn 2.0.0 frames, as realtime-js sends them), and the Phoenix heartbeat.
import WebSocket from "ws";

export interface JoinSpec {
  topic: string;
  token: string;
}

/**
 * Opens a socket and joins `spec.topic`. Resolves once the join is answered with ok; rejects
 * when it is refused or the socket fails. User broadcasts (binary frames) go to `onBroadcast`.
 */
export function openJoined(
  url: string,
  ref: number,
  spec: JoinSpec,
  onBroadcast: (data: Buffer) => void,
): { socket: WebSocket; joined: Promise<void> } {
  const ws = new WebSocket(url);
  const joined = new Promise<void>((resolve, reject) => {
    ws.on("open", () => {
      ws.send(
        JSON.stringify([
          String(ref),
          String(ref),
          `realtime:${spec.topic}`,
          "phx_join",
          {
            config: { private: true, broadcast: { self: false, ack: false } },
            access_token: spec.token,
          },
        ]),
      );
    });
    ws.on("message", (data: Buffer, isBinary) => {
      if (isBinary) {
        onBroadcast(data);
        return;
      }
      const [, , , event, payload] = JSON.parse(String(data)) as [
        unknown,
        unknown,
        string,
        string,
        { status?: string; response?: { reason?: string } },
      ];
      if (event !== "phx_reply") return;
      if (payload.status === "ok") resolve();
      else reject(new Error(`${spec.topic}: ${payload.response?.reason ?? "join refused"}`));
    });
    ws.on("error", reject);
  });
  return { socket: ws, joined };
}

/** Opens and joins `count` sockets, `batch` at a time (a 2-core machine, not a handshake flood). */
export async function openAll(
  count: number,
  open: (i: number) => Promise<void>,
  batch = 50,
): Promise<void> {
  for (let i = 0; i < count; i += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, count - i) }, (_, k) => open(i + k)));
  }
}

/**
 * The Phoenix heartbeat realtime-js sends, on every open socket of `sockets` (which may still be
 * filling up while the sockets join); returns the timer.
 */
export function heartbeat(sockets: WebSocket[], everyMs: number): ReturnType<typeof setInterval> {
  return setInterval(() => {
    for (const ws of sockets) {
      if (ws?.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify([null, "hb", "phoenix", "heartbeat", {}]));
      }
    }
  }, everyMs);
}

/** The payload text of a binary broadcast frame (kind 4: five header bytes, then the parts). */
export function broadcastBody(data: Buffer): string {
  return data.subarray(5 + data[1]! + data[2]! + data[3]!).toString("utf8");
}
