// MailDev runs in a child process of the stack (maildev.ts). A stack or bench that is killed
// without stopping it must not leave MailDev holding the mail ports for the next `npm start`.
import { spawn } from "node:child_process";
import net from "node:net";
import { describe, expect, it } from "vitest";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(5000) }).then(
    (res) => res.ok,
    () => false,
  );

/** Whether a server can listen on the port now (MailDev no longer holds it). */
const free = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

describe("MailDev's child process", () => {
  it("ends when the process that started it is killed without stopping it", async () => {
    const smtpPort = await freePort();
    let uiPort = await freePort();
    while (uiPort === smtpPort) uiPort = await freePort();
    const module = new URL("./maildev.ts", import.meta.url).href;
    // A parent that starts MailDev, says so, and then waits to be killed.
    const parent = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { startMailDev } = await import(${JSON.stringify(module)});
         await startMailDev({ host: "127.0.0.1", smtpPort: ${smtpPort}, uiPort: ${uiPort} });
         console.log("started");
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const uiUrl = `http://127.0.0.1:${uiPort}/healthz`;
    try {
      await new Promise<void>((resolve, reject) => {
        parent.stdout!.on("data", (d: Buffer) => d.toString().includes("started") && resolve());
        parent.once("exit", (code) => reject(new Error(`the parent exited (${code})`)));
      });
      expect(await answers(uiUrl)).toBe(true);
      parent.kill("SIGKILL");
      // Both ports are free again for the next stack. Polled on the ports themselves: under a
      // loaded CI an unanswered request does not mean that MailDev has let go of them.
      await expect
        .poll(async () => (await free(smtpPort)) && (await free(uiPort)), {
          timeout: 20_000,
          interval: 200,
        })
        .toBe(true);
    } finally {
      parent.kill("SIGKILL");
    }
  }, 60_000);
});
