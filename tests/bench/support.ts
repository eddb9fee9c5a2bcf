// The support desk's reads on the local stack, with the SPA's own queries through supabase-js
// as admin@demo.local (row-level security applies): the desk list (the 200 tickets with the
// newest activity, owners embedded), the same filtered by status and priority, the header's
// unanswered count, one ticket's thread (senders embedded) and a user's own list, over a desk of
// BENCH_TICKETS tickets with two replies each. The stack runs in this process.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import { signInDemo } from "./demo-client.ts";
import { timeRequests } from "./stats.ts";

const TICKETS = Number(process.env.BENCH_TICKETS ?? 5000);
const RUNS = Number(process.env.BENCH_SUPPORT_RUNS ?? 200);
const COLUMNS =
  "id, ticket_number, user_id, subject, content, status, priority, awaiting_admin, created_at, updated_at";
const OWNER = "owner:profiles!support_tickets_user_id_fkey(username, email, avatar_url)";

function timed(run: () => PromiseLike<{ error: unknown }>): Promise<{ p50: number; p95: number }> {
  return timeRequests("support bench query", RUNS, 5, run);
}

export async function benchSupportDesk(label: string, databaseUrl?: string): Promise<string> {
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-support-"));
  const stack = await startStack({
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    databaseUrl,
    functions: false,
    quiet: true,
  });
  try {
    // Tickets of the four demo customers, then a user reply and an admin reply on each (the
    // triggers run: flags, updated_at, broadcasts).
    const t0 = performance.now();
    await stack.db.query(
      `insert into public.support_tickets (user_id, subject, content, priority, status)
       select u.id, 'Bench ticket ' || g, 'Bench ticket body number ' || g,
              (array['low', 'medium', 'high', 'urgent'])[1 + g % 4]::public.ticket_priority,
              (array['open', 'in_progress', 'resolved', 'closed'])[1 + (g / 4) % 4]::public.ticket_status
       from generate_series(1, $1::int) g
       join lateral (select p.id from public.profiles p
                     where p.email = (array['free@demo.local', 'basic@demo.local', 'pro@demo.local', 'enterprise@demo.local'])[1 + g % 4]) u on true`,
      [TICKETS],
    );
    await stack.db.query(
      `insert into public.ticket_messages (ticket_id, sender_id, content)
       select t.id, s.sender, 'Bench reply'
       from public.support_tickets t
       cross join lateral (values (t.user_id), ((select p.id from public.profiles p where p.email = 'admin@demo.local'))) s (sender)
       where t.subject like 'Bench ticket %' and t.status <> 'closed'`,
    );
    await stack.db.query(`analyze public.support_tickets`);
    await stack.db.query(`analyze public.ticket_messages`);
    const seedMs = performance.now() - t0;

    const signIn = (email: string) => signInDemo(stack.url, stack.secrets.publishableKey, email);
    const admin = await signIn("admin@demo.local");
    const owner = await signIn("pro@demo.local");
    const ownerId = (await owner.auth.getUser()).data.user!.id;
    const { data: one } = await admin
      .from("support_tickets")
      .select("id")
      .eq("user_id", ownerId)
      .limit(1)
      .single();

    const desk = await timed(() =>
      admin
        .from("support_tickets")
        .select(`${COLUMNS}, ${OWNER}`)
        .order("updated_at", { ascending: false })
        .order("ticket_number", { ascending: false })
        .limit(200),
    );
    const filtered = await timed(() =>
      admin
        .from("support_tickets")
        .select(`${COLUMNS}, ${OWNER}`)
        .eq("status", "open")
        .eq("priority", "high")
        .order("updated_at", { ascending: false })
        .limit(200),
    );
    const count = await timed(() =>
      admin
        .from("support_tickets")
        .select("id", { count: "exact", head: true })
        .eq("awaiting_admin", true)
        .neq("status", "closed"),
    );
    const thread = await timed(() =>
      owner
        .from("ticket_messages")
        .select(
          "id, ticket_id, sender_id, content, is_admin_reply, created_at, sender:profiles!ticket_messages_sender_id_fkey(username, email, avatar_url)",
        )
        .eq("ticket_id", one!.id)
        .order("created_at"),
    );
    const mine = await timed(() =>
      owner
        .from("support_tickets")
        .select(COLUMNS)
        .eq("user_id", ownerId)
        .order("created_at", { ascending: false }),
    );
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const line = (what: string, r: { p50: number; p95: number }) =>
      `  ${what.padEnd(44)} p50 ${ms(r.p50)}  p95 ${ms(r.p95)}`;
    return [
      `${label}  support desk: ${TICKETS.toLocaleString("en")} tickets (seeded in ${(seedMs / 1000).toFixed(1)} s), ${RUNS} reads each`,
      line("desk list (200 newest activity, owners)", desk),
      line("desk list, status open + priority high", filtered),
      line("header unanswered count", count),
      line("one ticket's thread (owner, senders)", thread),
      line(`a user's own list (${Math.round(TICKETS / 4).toLocaleString("en")} tickets)`, mine),
    ].join("\n");
  } finally {
    await stack.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

// `tsx tests/bench/support.ts` runs this bench alone, on PGlite.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchSupportDesk("PGlite"));
}
