// Issue 12, item 1 (the part of the functions host): when the stack's process dies, however it
// dies, the Deno functions host dies with it instead of lingering as an orphan.
import { execFileSync, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../devstack/config.ts";

/** Pids of the live Deno processes whose parent is `ppid`. */
function denoChildren(ppid: number): number[] {
  try {
    return execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(ppid)], { encoding: "utf8" })
      .split("\n")
      .map((l) => l.trim().split(/\s+/))
      .filter(([, comm]) => comm === "deno")
      .map(([pid]) => Number(pid));
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the functions host and its parent", () => {
  it("exits when the stack's process is killed with SIGKILL", async () => {
    const child = spawn(
      path.join(ROOT, "node_modules/.bin/tsx"),
      ["tests/support/functions-host-child.ts"],
      { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
    );
    const ready = await new Promise<{ pid: number; port: number }>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`host child exited with ${code}`)));
      createInterface({ input: child.stdout! }).on("line", (line) => {
        const m = /^HOST_CHILD_READY (\d+) (\d+)/.exec(line);
        if (m) resolve({ pid: Number(m[1]), port: Number(m[2]) });
      });
    });
    const deno = denoChildren(ready.pid);
    expect(deno.length).toBe(1);
    expect((await fetch(`http://127.0.0.1:${ready.port}/api/health`)).status).toBe(200);

    process.kill(ready.pid, "SIGKILL");
    const deadline = Date.now() + 10_000;
    while (alive(deno[0]!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(alive(deno[0]!), "the Deno host outlived its parent").toBe(false);
  });
});
