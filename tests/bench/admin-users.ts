// The admin panel's user table with 100,000 users (issue 17): latency of public.admin_list_users
// through PostgREST as an admin — the first page (newest first), a substring search by e-mail, a
// search by username, and a filtered page sorted by e-mail — p50/p95 over sequential requests.
// The stack runs in this process (PGlite, or PostgreSQL 15 with a database URL).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultOptions } from "../../devstack/config.ts";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import { percentile } from "./stats.ts";

const USERS = Number(process.env.BENCH_ADMIN_USERS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_ADMIN_REQUESTS ?? 100);

type Stack = Awaited<ReturnType<typeof startStack>>;

/** USERS accounts (profiles come from the sign-up trigger), in batches of 10,000. */
async function seedUsers(stack: Stack): Promise<void> {
  for (let from = 1; from <= USERS; from += 10_000) {
    const to = Math.min(USERS, from + 9_999);
    await stack.db.query(
      `insert into auth.users (id, email)
       select gen_random_uuid(), format('bench-user-%s@bench.test', i) from generate_series($1::int, $2::int) i`,
      [from, to],
    );
  }
  // Seeding is not an admin action: without the user triggers, 100,000 plan changes do not send
  // 200,000 Realtime notices (authorization_changed, profile_changed).
  await stack.db.query("alter table public.profiles disable trigger user");
  await stack.db.query(
    `update public.profiles set
       username = 'trader_' || substr(md5(email), 1, 10),
       plan = (array['none','basic','pro','enterprise'])[1 + abs(hashtext(email)) % 4]::public.plan,
       subscription_active = abs(hashtext(email)) % 3 <> 0,
       created_at = now() - make_interval(mins => abs(hashtext(email)) % 500000)
     where email like 'bench-user-%'`,
  );
  await stack.db.query(
    `update public.profiles set banned = true, banned_reason = 'Bench ban reason'
     where email like 'bench-user-%' and abs(hashtext(email)) % 50 = 0`,
  );
  await stack.db.query("alter table public.profiles enable trigger user");
  await stack.db.query("analyze public.profiles");
}

async function timeCalls(
  stack: Stack,
  token: string,
  body: (i: number) => Record<string, unknown>,
): Promise<{ p50: number; p95: number; rows: number; total: number }> {
  const headers = {
    apikey: stack.secrets.publishableKey,
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
  };
  let rows = 0;
  let total = 0;
  const call = async (i: number) => {
    const res = await fetch(`${stack.url}/rest/v1/rpc/admin_list_users`, {
      method: "POST",
      headers,
      body: JSON.stringify(body(i)),
    });
    const data = (await res.json()) as { total_count: number }[];
    if (res.status !== 200)
      throw new Error(`admin_list_users failed with ${res.status}: ${JSON.stringify(data)}`);
    rows = data.length;
    total = data[0]?.total_count ?? 0;
  };
  for (let i = 0; i < 5; i++) await call(i);
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    await call(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), rows, total };
}

export async function benchAdminUsers(label: string, databaseUrl?: string): Promise<string> {
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-admin-"));
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
    await seedUsers(stack);
    const login = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: stack.secrets.publishableKey, "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@demo.local", password: DEMO_PASSWORD }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const [trgm] = await stack.db.query<{ n: number }>(
      "select count(*)::int as n from pg_extension where extname = 'pg_trgm'",
    );
    const firstPage = await timeCalls(stack, token, () => ({}));
    const emailSearch = await timeCalls(stack, token, (i) => ({
      search: `user-${1000 + ((i * 7919) % 99000)}@`,
    }));
    const nameSearch = await timeCalls(stack, token, (i) => ({
      search: `trader_${(i % 16).toString(16)}${((i * 7) % 16).toString(16)}`,
    }));
    const filtered = await timeCalls(stack, token, (i) => ({
      plan_filter: "pro",
      subscription_filter: true,
      sort_by: "email",
      sort_desc: false,
      page_offset: (i % 20) * 25,
    }));
    const f = (r: { p50: number; p95: number }) =>
      `p50 ${r.p50.toFixed(1)} ms · p95 ${r.p95.toFixed(1)} ms`;
    return (
      `${label.padEnd(14)} admin_list_users with ${USERS.toLocaleString("en")} users ` +
      `(pg_trgm ${trgm?.n ? "on" : "off"}, ${REQUESTS} requests each): ` +
      `first page ${f(firstPage)} (${firstPage.rows} rows of ${firstPage.total}) · ` +
      `e-mail search ${f(emailSearch)} (${emailSearch.total} match) · ` +
      `username search ${f(nameSearch)} (~${nameSearch.total} matches) · ` +
      `plan+subscription filter sorted by e-mail ${f(filtered)} (${filtered.total} matches)`
    );
  } finally {
    await stack.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    await benchAdminUsers(
      process.env.DATABASE_URL ? "PostgreSQL 15" : "PGlite",
      process.env.DATABASE_URL,
    ),
  );
}
