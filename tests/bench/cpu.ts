// CPU time per process while a bench case runs (BENCH_DELIVERY_CPU=1): where the machine's two
// cores go — the bench's own process (gateway, stand-ins), the functions host, PostgreSQL's
// backends. Linux only (/proc); elsewhere it reports nothing.
import { readdirSync, readFileSync } from "node:fs";

interface Proc {
  ppid: number;
  /** When the process started (clock ticks after boot): a pid reused meanwhile is another process. */
  start: number;
  ticks: number;
  name: string;
}

function readProcs(): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return procs;
  }
  for (const p of pids) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmd = readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").filter(Boolean);
      procs.set(Number(p), {
        ppid: Number(fields[1]),
        start: Number(fields[19]),
        ticks: Number(fields[11]) + Number(fields[12]),
        name: processName(cmd),
      });
    } catch {
      // Gone meanwhile.
    }
  }
  return procs;
}

function processName(cmd: string[]): string {
  const first = cmd[0] ?? "?";
  if (first.startsWith("postgres:")) {
    // A client backend's title ends in its state (idle, active, …), which changes from one read
    // to the next: all backends go under one name. Auxiliary processes keep theirs.
    return /\(\d+\)|\[local\]/.test(first) ? "postgres backends" : first.trim();
  }
  if (/postgres$/.test(first)) return "postgres (postmaster)";
  const base = first.split("/").at(-1) ?? first;
  const script = cmd.slice(1).find((a) => /\.(ts|js|mjs)$/.test(a));
  return script ? `${base} ${script.split("/").slice(-2).join("/")}` : base;
}

/** The processes under `roots` (themselves included). */
function tree(procs: Map<number, Proc>, roots: number[]): Set<number> {
  const kids = new Map<number, number[]>();
  for (const [pid, p] of procs) kids.set(p.ppid, [...(kids.get(p.ppid) ?? []), pid]);
  const seen = new Set<number>();
  const todo = [...roots];
  while (todo.length > 0) {
    const pid = todo.pop()!;
    if (seen.has(pid) || !procs.has(pid)) continue;
    seen.add(pid);
    todo.push(...(kids.get(pid) ?? []));
  }
  return seen;
}

/** Starts counting; the answer's `stop()` gives CPU seconds per process name, largest first. */
export function cpuMeter(roots: number[]): { stop(): string } {
  const before = readProcs();
  const t0 = Date.now();
  return {
    stop() {
      const after = readProcs();
      const wall = (Date.now() - t0) / 1000;
      const by = new Map<string, number>();
      for (const pid of tree(after, roots)) {
        const p = after.get(pid)!;
        const was = before.get(pid);
        const ticks = p.ticks - (was && was.start === p.start ? was.ticks : 0);
        by.set(p.name, (by.get(p.name) ?? 0) + ticks / 100);
      }
      const total = [...by.values()].reduce((a, b) => a + b, 0);
      return (
        `cpu ${total.toFixed(1)} s in ${wall.toFixed(1)} s: ` +
        [...by.entries()]
          .filter(([, s]) => s >= 0.05)
          .sort((a, b) => b[1] - a[1])
          .map(([n, s]) => `${n} ${s.toFixed(1)}`)
          .join(" · ")
      );
    },
  };
}
