// The stand-ins in their own process (issue 24, decision 0049): the same services and limit
// answers as in process, driven over the control routes; a taken port is named; stop ends it.
import net from "node:net";
import { describe, expect, it } from "vitest";
import { startChatStandInProcess } from "./standins-process.ts";

describe("chat stand-ins in a child process", () => {
  it("answers Discord with its limit headers and 429s, records, resets, fails on request, stops", async () => {
    const chat = await startChatStandInProcess({ host: "127.0.0.1", port: 0 });
    try {
      const post = () =>
        fetch(`${chat.url}/api/webhooks/42/tok?wait=true`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ content: "BTC +5%" }),
        });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await post()).status);
      // Five per two seconds per webhook, then the documented 429.
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const seen = await chat.requests("discord");
      expect(seen.map((r) => r.status)).toEqual(statuses);
      expect(seen[0]).toMatchObject({ target: "42", body: { content: "BTC +5%" } });
      await chat.reset();
      expect(await chat.requests()).toEqual([]);
      await chat.fail("telegram", 500, 1);
      const res = await fetch(`${chat.url}/bot1:tok/sendMessage`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ chat_id: 5, text: "x" }),
      });
      expect(res.status).toBe(500);
    } finally {
      await chat.stop();
    }
    await expect(fetch(`${chat.url}/`)).rejects.toThrow();
  });

  it("names a port that is taken", async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", () => r()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      await expect(startChatStandInProcess({ host: "127.0.0.1", port })).rejects.toThrow(
        `Port ${port} is already in use; set CHAT_STANDIN_PORT to another port.`,
      );
    } finally {
      blocker.close();
    }
  });
});
