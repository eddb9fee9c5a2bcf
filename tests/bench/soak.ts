// The soak (issue 30): the local stack under mixed load for BENCH_SOAK_MINUTES (3 by default;
// `npm run bench -- soak --full` runs the issue's 30), with everything `npm start` runs:
// - scans every 10 s on the simulated market, and alert delivery on schedule (the demo accounts'
//   alerts by e-mail, Discord and Telegram, to MailDev and the stand-ins);
// - 200 dashboard sockets on the movers stream and 100 `/api/sse` clients;
// - 5 chat messages a second across 3 groups of 20 members, every member online;
// - the ticket desk: a ticket every 10 s, and the admins' desk read every 5 s.
// After a warm-up (a fifth of the run, at least a minute), it samples the resident memory of
// the stack's process (this one) and of the Deno functions host every 15 s.
// It then prints:
// - each process's growth from the end of the warm-up;
// - the log lines that report an error;
// - whether every chat message reached every member's socket;
// - whether every alert job was handed over exactly once: the stand-ins' and MailDev's counts
//   against the outbox's sent jobs.
import { fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultOptions, ROOT } from "../../devstack/config.ts";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import { accessToken } from "./chat.ts";
import { denoHostRss } from "./sse.ts";
import { mb, percentile } from "./stats.ts";

const FULL = process.argv.includes("--full");
const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? (FULL ? 30 : 3));
const DASHBOARDS = 200;
const SSE_CLIENTS = 100;
const GROUPS = 3;
const MEMBERS = 20;
const CHAT_RATE = 5;
const WINDOW = 30;

type Stats = { type: "stats"; broadcasts: number[]; open: boolean[]; chat: number[][] };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A step of the soak's set-up or wind-down that must end within `ms`: otherwise the part fails
 * naming it, instead of waiting without a word (a sockets' process that exits between two
 * messages, a stream that never answers).
 */
const SETUP_MS = 10 * 60_000;
async function within<T>(step: string, work: Promise<T>, ms = SETUP_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the soak timed out: ${step} took over ${ms / 1000} s`)),
      ms,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function benchSoak(label: string, databaseUrl?: string): Promise<string> {
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-soak-"));
  const logLines: string[] = [];
  const stack = await within(
    "starting the stack",
    startStack({
      ...defaultOptions({}),
      apiPort: await freePort(),
      dataDir: path.join(tmp, "data"),
      envFile: path.join(tmp, ".env.local"),
      databaseUrl,
      alerts: { smtpPort: await freePort(), mailUiPort: await freePort(), chatPort: 0 },
      log: (line) => logLines.push(line),
      realtimeLimits: { maxConnectionsPerClient: 1000, maxJoinsPerSecond: 1000 },
    }),
  );
  const children: ReturnType<typeof fork>[] = [];
  const sse: AbortController[] = [];
  const timers: NodeJS.Timeout[] = [];
  try {
    const db = stack.db;
    const key = stack.secrets.publishableKey;
    const tokenOf = async (email: string) => {
      const res = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
        method: "POST",
        headers: { apikey: key, "content-type": "application/json" },
        body: JSON.stringify({ email, password: DEMO_PASSWORD }),
      });
      if (res.status !== 200) throw new Error(`${email} could not sign in: ${res.status}`);
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const enterprise = await tokenOf("enterprise@demo.local");
    const admin = await tokenOf("admin@demo.local");

    // The chat: GROUPS groups of MEMBERS members each (auth users; profiles by the sign-up trigger).
    const members = Array.from({ length: GROUPS * MEMBERS }, () => randomUUID());
    await db.query(
      `insert into auth.users (id, email)
       select id, 'soak-' || ord || '@bench.test' from unnest($1::uuid[]) with ordinality as u(id, ord)`,
      [members],
    );
    const groups: string[] = [];
    for (let g = 0; g < GROUPS; g++) {
      const ids = members.slice(g * MEMBERS, (g + 1) * MEMBERS);
      const [row] = await db.query<{ id: string }>(
        `insert into public.groups (name, created_by) values ($1, $2) returning id`,
        [`Soak room ${g + 1}`, ids[0]],
      );
      await db.query(
        `insert into public.group_members (group_id, user_id)
         select $1, id from unnest($2::uuid[]) as u(id) on conflict do nothing`,
        [row!.id, ids],
      );
      groups.push(row!.id);
    }

    // The sockets: dashboards on the movers stream, and every member in their group.
    const wsUrl = `${stack.url.replace("http", "ws")}/realtime/v1/websocket?apikey=${key}&vsn=2.0.0`;
    const specs = [
      ...Array.from({ length: DASHBOARDS }, () => ({
        topic: `market:movers:${WINDOW}`,
        token: enterprise,
      })),
      ...members.map((id, i) => ({
        topic: `group:${groups[Math.floor(i / MEMBERS)]}`,
        token: accessToken(stack.secrets.jwtSecret, id),
      })),
    ];
    const child = fork(
      path.join(ROOT, "tests/bench/soak-clients.ts"),
      [wsUrl, JSON.stringify(specs)],
      {
        execArgv: ["--import", "tsx"],
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      },
    );
    children.push(child);
    const nextMessage = () =>
      new Promise<{ type: "ready" } | Stats>((resolve, reject) => {
        const onExit = (code: number | null) =>
          reject(new Error(`the sockets' process exited with ${code}`));
        child.once("exit", onExit);
        child.once("message", (m) => {
          child.off("exit", onExit);
          resolve(m as never);
        });
      });
    if ((await within("joining the sockets", nextMessage())).type !== "ready") {
      throw new Error("the sockets did not all join");
    }

    // The /api/sse clients: each counts the events it receives.
    const sseEvents = Array.from({ length: SSE_CLIENTS }, () => 0);
    const sseOpen = new Set<number>();
    let sseRefused = 0;
    // Refusals by status and error code (e.g. "503 realtime_unavailable"), and how long they took.
    const sseStatuses = new Map<string, number>();
    let sseSlowestRefusalMs = 0;
    const connectSse = async (i: number) => {
      const ac = new AbortController();
      sse.push(ac);
      const asked = performance.now();
      const res = await fetch(`${stack.url}/api/sse?window=${WINDOW}`, {
        headers: { authorization: `Bearer ${enterprise}`, accept: "text/event-stream" },
        signal: ac.signal,
      });
      if (res.status !== 200 || !res.body) {
        sseRefused++;
        const body = (await res.json().catch(() => null)) as { code?: string } | null;
        const key = `${res.status}${body?.code ? ` ${body.code}` : ""}`;
        sseStatuses.set(key, (sseStatuses.get(key) ?? 0) + 1);
        sseSlowestRefusalMs = Math.max(sseSlowestRefusalMs, performance.now() - asked);
        return;
      }
      sseOpen.add(i);
      void (async () => {
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            sseEvents[i]! +=
              value.split("\ndata:").length - 1 + (value.startsWith("data:") ? 1 : 0);
          }
        } catch {
          // aborted at the end
        }
      })();
    };
    // All at once, as a burst of visitors would: the function joins its shared channel once and
    // every stream waits on that join (retried while the database is busy, realtime-hub.ts).
    await within(
      "connecting the /api/sse clients",
      Promise.all(Array.from({ length: SSE_CLIENTS }, (_, i) => connectSse(i))),
    );
    // The load: chat at CHAT_RATE/s round-robin over the groups (each sender in turn, so no
    // member passes the per-user write limit), a ticket every 10 s, the desk every 5 s.
    const sent: number[][] = groups.map(() => []);
    let chatErrors = 0;
    let n = 0;
    timers.push(
      setInterval(() => {
        const i = n++;
        const g = i % GROUPS;
        const sender = members[g * MEMBERS + (Math.floor(i / GROUPS) % MEMBERS)]!;
        db.query(`insert into public.messages (group_id, sender_id, content) values ($1, $2, $3)`, [
          groups[g],
          sender,
          `soak-${i} from the soak`,
        ]).then(
          () => sent[g]!.push(i),
          () => chatErrors++,
        );
      }, 1000 / CHAT_RATE),
    );
    let tickets = 0;
    let ticketErrors = 0;
    timers.push(
      setInterval(() => {
        const owner = members[tickets++ % members.length]!;
        fetch(`${stack.url}/rest/v1/support_tickets`, {
          method: "POST",
          headers: {
            apikey: key,
            authorization: `Bearer ${accessToken(stack.secrets.jwtSecret, owner)}`,
            "content-type": "application/json",
            prefer: "return=minimal",
          },
          body: JSON.stringify({
            subject: `Soak ticket ${tickets}`,
            content: "A question from the soak.",
          }),
        }).then(
          (r) => void (r.status === 201 || ticketErrors++),
          () => ticketErrors++,
        );
      }, 10_000),
    );
    const deskMs: number[] = [];
    let deskErrors = 0;
    timers.push(
      setInterval(() => {
        const t0 = performance.now();
        fetch(
          `${stack.url}/rest/v1/support_tickets?select=id,subject,status,desk_rank,updated_at&order=desk_rank.desc,updated_at.desc&limit=200`,
          { headers: { apikey: key, authorization: `Bearer ${admin}` } },
        ).then(
          async (r) => {
            await r.text();
            if (r.status === 200) deskMs.push(performance.now() - t0);
            else deskErrors++;
          },
          () => deskErrors++,
        );
      }, 5_000),
    );

    // Warm-up, then memory every 15 s.
    const totalMs = MINUTES * 60_000;
    const warmMs = Math.max(60_000, totalMs / 5);
    await sleep(warmMs);
    const samples: { main: number; deno: number | null }[] = [];
    const errorsAtWarm = logLines.length;
    for (let t = warmMs; t < totalMs; t += 15_000) {
      samples.push({ main: process.memoryUsage().rss, deno: denoHostRss() });
      await sleep(15_000);
    }
    samples.push({ main: process.memoryUsage().rss, deno: denoHostRss() });
    for (const timer of timers.splice(0)) clearInterval(timer);

    // Let the last messages and alerts land: chat within 10 s, alerts within two delivery rounds.
    await sleep(10_000);
    child.send({ type: "stats" });
    const stats = (await within("reading the sockets' counts", nextMessage(), 120_000)) as Stats;
    await stack.alerts?.deliverNow();
    await sleep(3_000);

    // Chat: every member's socket holds every message sent to its group.
    let missing = 0;
    members.forEach((_, i) => {
      const have = new Set(stats.chat[DASHBOARDS + i]);
      for (const m of sent[Math.floor(i / MEMBERS)]!) if (!have.has(m)) missing++;
    });
    const chatSent = sent.reduce((a, s) => a + s.length, 0);
    const dash = stats.broadcasts.slice(0, DASHBOARDS);

    // Alerts: each job handed over once, on each channel.
    const jobs = await db.query<{ channel: string; status: string; n: number | string }>(
      `select channel, status, count(*) as n from private.outbox group by channel, status order by 1, 2`,
    );
    const sentJobs = (channel: string) =>
      Number(jobs.find((j) => j.channel === channel && j.status === "sent")?.n ?? 0);
    // Read over HTTP, as the e2e tests do: what the stand-ins answered 2xx to, what MailDev caught.
    const received = (await (
      await fetch(`${stack.alerts!.chat.url}/__standins/requests`)
    ).json()) as { service: string; status: number }[];
    const handed = (service: "discord" | "telegram") =>
      received.filter((r) => r.service === service && r.status >= 200 && r.status < 300).length;
    const mails = ((await (await fetch(`${stack.alerts!.mail.uiUrl}/email`)).json()) as unknown[])
      .length;
    const once =
      handed("discord") === sentJobs("discord") &&
      handed("telegram") === sentJobs("telegram") &&
      mails === sentJobs("email");

    const errorLines = logLines.filter((l) => /\b(error|unhandled|uncaught|exception)\b/i.test(l));
    const afterWarm = logLines.slice(errorsAtWarm).filter((l) => errorLines.includes(l));
    const growth = (pick: (s: { main: number; deno: number | null }) => number | null) => {
      const first = pick(samples[0]!);
      const last = pick(samples.at(-1)!);
      const peak = Math.max(...samples.map((s) => pick(s) ?? 0));
      if (first === null || last === null) return "n/a";
      const pct = ((last - first) / first) * 100;
      return `${mb(first)} → ${mb(last)} (${pct >= 0 ? "+" : ""}${pct.toFixed(1)} %, peak ${mb(peak)})${pct < 10 ? "" : " — grew by 10 % or more"}`;
    };
    deskMs.sort((a, b) => a - b);
    // What Realtime said about sockets and channels (closes, drops, refusals), by kind.
    const said = new Map<string, number>();
    for (const l of logLines.filter(
      (x) => x.startsWith("realtime:") && !x.startsWith("realtime: slow join of "),
    )) {
      const kind = l.replace(/#\d+/g, "#").replace(/\d+/g, "N").slice(0, 110);
      said.set(kind, (said.get(kind) ?? 0) + 1);
    }
    const realtimeSaid = [...said].sort((a, b) => b[1] - a[1]).slice(0, 3);
    // Where the slowest join's time went, as the stand-in measured it (realtime/server.ts).
    const slowJoins = logLines.filter((l) => l.startsWith("realtime: slow join of "));
    const answeredAfter = (l: string) => Number(/answered after (\d+) ms/.exec(l)?.[1] ?? 0);
    const slowest = slowJoins.reduce<string | null>(
      (worst, l) => (worst === null || answeredAfter(l) > answeredAfter(worst) ? l : worst),
      null,
    );
    const auth = stack.realtime.stats().authorizations;
    const lines = [
      `${label}  soak ${MINUTES} min (warm-up ${Math.round(warmMs / 1000)} s): ${DASHBOARDS} dashboard sockets, ${SSE_CLIENTS} /api/sse clients, chat ${CHAT_RATE}/s over ${GROUPS} groups × ${MEMBERS} members, a ticket every 10 s, the desk every 5 s, scans every 10 s, alerts on schedule`,
      `  memory, stack process      ${growth((s) => s.main)}`,
      `  memory, functions host     ${growth((s) => s.deno)}`,
      `  Realtime's log             ${realtimeSaid.length ? realtimeSaid.map(([k, c]) => `${c} × "${k}"`).join("; ") : "nothing"}`,
      `  join authorisations        ${auth.checks} checks run, ${auth.shared} joins shared a queued identical check, ${auth.skipped} skipped (left before their turn); ${slowJoins.length} joins answered after more than 2 s${slowest ? `, the slowest: ${slowest.slice(slowest.indexOf("answered after"))}` : ""}`,
      `  error lines in the log     ${errorLines.length} (${afterWarm.length} after the warm-up)${errorLines.length ? `; first: ${errorLines[0]!.slice(0, 160)}` : ""}`,
      `  chat                       ${chatSent} messages sent (${chatErrors} refused), ${missing === 0 ? "every member's socket received every message of its group" : `${missing} member deliveries missing`}`,
      `  sockets still open         dashboards ${stats.open.slice(0, DASHBOARDS).filter(Boolean).length} of ${DASHBOARDS}, chat members ${stats.open.slice(DASHBOARDS).filter(Boolean).length} of ${members.length}; movers broadcasts per dashboard ${Math.min(...dash)}–${Math.max(...dash)}`,
      `  /api/sse                   ${SSE_CLIENTS - sseRefused} of ${SSE_CLIENTS} connected${sseRefused ? ` (refused: ${[...sseStatuses].map(([st, k]) => `${k} × ${st}`).join(", ")}, the slowest after ${(sseSlowestRefusalMs / 1000).toFixed(1)} s)` : ""}, events per connected client ${sseOpen.size ? `${Math.min(...[...sseOpen].map((i) => sseEvents[i]!))}–${Math.max(...sseEvents)}` : "n/a"}`,
      `  tickets and desk           ${tickets} tickets (${ticketErrors} refused), desk p50 ${deskMs.length ? percentile(deskMs, 50).toFixed(1) : "n/a"} ms · p95 ${deskMs.length ? percentile(deskMs, 95).toFixed(1) : "n/a"} ms (${deskErrors} failed)`,
      `  alerts                     outbox ${jobs.map((j) => `${j.channel} ${j.status} ${j.n}`).join(", ") || "empty"}; handed over: Discord ${handed("discord")}, Telegram ${handed("telegram")}, e-mail ${mails}: ${once ? "each sent job exactly once" : "the counts differ from the sent jobs"}`,
    ];
    return lines.join("\n");
  } finally {
    for (const timer of timers) clearInterval(timer);
    for (const ac of sse) ac.abort();
    for (const c of children) {
      c.send?.({ type: "close" });
      c.kill();
    }
    await stack.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

// `npx tsx tests/bench/soak.ts [--full]`: this part alone, on PGlite.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchSoak("PGlite"));
}
