// `npm run gen:schemas`: supabase/schemas/, the current definition of every table, view, type,
// function, trigger, policy and grant the migrations create, one file per area, so a reader
// finds the body of `ingest_scan` or the policies of `profiles` without replaying 30 migrations.
// Generated from a temporary PostgreSQL 15 migrated by the CLI's `db push`: pg_dump --schema-only
// of the migrated database, minus what the platform had before the first migration (Auth,
// Storage, Realtime, Vault), split by area. `--check` exits 1 when the folder is stale.
// These files are for reading; the migrations stay the source of truth (config.toml does not
// list them in [db.migrations] schema_paths).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../devstack/config.ts";
import { PG_BIN } from "../tests/support/postgres.ts";
import { withMigratedPostgres } from "./lib/migrated-postgres.ts";

export const SCHEMAS_DIR = path.join(ROOT, "supabase/schemas");

/** Areas in file order; an object belongs to the first whose pattern matches its subject. */
const AREAS: Array<[file: string, title: string, subject: RegExp]> = [
  [
    "10-profiles.sql",
    "Profiles, plans and account rules",
    /^(profiles|users|handle_new_user|username_available|check_avatar_url|profiles_check_time_zone|is_time_zone|enforce_plan_rules|has_active_plan|is_active_user|current_plan|touch_activity|end_banned_user_sessions|request_ip|promot\w*|allowed_windows|fallback_window|target_profile)$/,
  ],
  [
    "20-billing.sql",
    "Billing (Stripe customers, subscriptions, events)",
    /^(billing_\w+|plan_price_eur|sync_profile_subscription|keep_newest_subscription_state)$/,
  ],
  [
    "30-market.sql",
    "Market data: instruments, history, scan ingest, movers, signals, source health",
    /^(instruments?\w*|price_history\w*|movers\w*|ingest_\w+|broadcast_movers|refresh_movers_top|record_\w+|signal_track_record|strategy_\w+|source_health|funding_rates|order_books|exchange_selection|delete_instrument_history|truncate_instrument_history|set_instrument_venue_key|instrument_venue_key)$/,
  ],
  [
    "40-alerts.sql",
    "Alerts and the outbox (delivery, schedules)",
    /^(alert\w*|outbox\w*|claim_outbox|complete_outbox\w*|fail_outbox|enqueue_\w+|unsubscribe_alert_email|move_telegram_chat|mute_alert_symbol|invoke_\w+|schedule_\w+|vault_secret)$/,
  ],
  [
    "50-community.sql",
    "Community: groups, members, chat, blocks, reports",
    /^(groups?\w*|messages|add_group_creator|broadcast_group_message|chat_gif_group|is_group_\w+|join_group_by_invite|list_groups|public_name|public_plan|user_blocks|blocked_users|user_reports\w*)$/,
  ],
  [
    "60-support.sql",
    "Support desk: tickets, replies, notes, canned replies",
    /^(support_tickets|ticket_\w+|canned_replies|owns_ticket|prepare_ticket_message|settle_ticket_awaiting|track_ticket_awaiting|broadcast_support_desk|broadcast_ticket_\w+)$/,
  ],
  [
    "70-admin.sql",
    "Admin panel and its audit log",
    /^(admin_\w+|activity_logs|log_admin_action|require_admin|is_admin)$/,
  ],
  [
    "80-realtime.sql",
    "Realtime authorisation (realtime.messages) and broadcast triggers",
    /^(messages@realtime|broadcast_\w+|notify_authorization_changed|\w+_authorization_changed)$/,
  ],
  ["90-storage.sql", "Storage buckets' policies", /^\w+@storage$/],
];
const FOUNDATION: [string, string] = [
  "00-foundation.sql",
  "Schemas, extensions, types and shared helpers",
];

interface Entry {
  name: string;
  type: string;
  schema: string;
  text: string;
}

/** pg_dump's plain output as its entries (`-- Name: …; Type: …; Schema: …`), header dropped. */
export function parseDump(dump: string): Entry[] {
  const entries: Entry[] = [];
  const parts = dump.replace(/^\\(un)?restrict .*$/gm, "").split(/^--\n(?=-- Name: )/m);
  for (const part of parts.slice(1)) {
    const m = /^-- Name: (.+?); Type: (.+?); Schema: (.+?); Owner: .*\n--\n/.exec(part);
    if (!m) continue;
    const body = part
      .slice(m[0].length)
      .replace(/\n*--\n-- PostgreSQL database dump complete\n--\n*$/, "");
    entries.push({ name: m[1]!, type: m[2]!, schema: m[3]!, text: body.trim() });
  }
  return entries;
}

/** The name an entry is filed under: a table's own name for its indexes, policies, triggers. */
function subject(e: Entry): string {
  let name = e.name;
  if (e.type === "ACL" || e.type === "COMMENT") {
    name = name.replace(/^(TABLE|FUNCTION|VIEW|TYPE|COLUMN|SCHEMA|SEQUENCE|EXTENSION) /, "");
  }
  if (
    ["POLICY", "TRIGGER", "CONSTRAINT", "FK CONSTRAINT", "DEFAULT", "SEQUENCE OWNED BY"].includes(
      e.type,
    )
  ) {
    name = name.split(" ")[0]!;
  }
  name = name.replace(/\(.*$/s, "").split(".")[0]!.trim();
  if (e.schema === "storage" || e.schema === "realtime") return `${name}@${e.schema}`;
  return name;
}

/** The line above each definition: what it is and what it belongs to. */
function label(e: Entry): string {
  const schema = e.schema === "-" ? "" : `${e.schema}.`;
  if (e.type === "ACL") {
    const [kind, ...rest] = e.name.split(" ");
    return `-- grants on ${kind!.toLowerCase()} ${schema}${rest.join(" ")}`;
  }
  if (e.type === "COMMENT") {
    const [kind, ...rest] = e.name.split(" ");
    return `-- comment on ${kind!.toLowerCase()} ${schema}${rest.join(" ")}`;
  }
  return `-- ${e.type.toLowerCase()} ${schema}${e.name}`;
}

export function areaOf(e: Entry, tables: string[]): string {
  if (["SCHEMA", "EXTENSION", "TYPE"].includes(e.type)) return FOUNDATION[0];
  const s = subject(e);
  for (const [file, , re] of AREAS) if (re.test(s)) return file;
  // Indexes and sequences are named <table>_…: filed with the longest table name they start with.
  const [bare, at] = s.split("@");
  const table = tables
    .filter((t) => bare!.startsWith(`${t}_`) || bare!.startsWith(`${t.replace(/s$/, "")}_`))
    .sort((a, b) => b.length - a.length)[0];
  if (table) {
    const owner = at ? `${table}@${at}` : table;
    for (const [file, , re] of AREAS) if (re.test(owner)) return file;
  }
  return FOUNDATION[0];
}

function dump(url: string): string {
  return execFileSync(
    path.join(PG_BIN, "pg_dump"),
    ["--schema-only", "--no-owner", "--dbname", url],
    { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  );
}

/** The files of supabase/schemas/ (name → text) for the migrations in `migrationsDir`. */
export async function generateSchemas(migrationsDir?: string): Promise<Map<string, string>> {
  let baseline = "";
  const migrated = await withMigratedPostgres(async (pg) => dump(pg.url), {
    migrationsDir,
    beforeMigrations: async (pg) => {
      baseline = dump(pg.url);
    },
  });
  const before = new Set(
    parseDump(baseline).map((e) => `${e.type}|${e.schema}|${e.name}|${e.text}`),
  );
  const entries = parseDump(migrated).filter(
    (e) =>
      !before.has(`${e.type}|${e.schema}|${e.name}|${e.text}`) &&
      // The CLI's history tables and Vault (which `db push` touches) belong to the platform.
      !["supabase_migrations", "vault"].includes(e.schema) &&
      !(e.type === "SCHEMA" && ["supabase_migrations", "vault"].includes(e.name)),
  );
  const tables = entries.filter((e) => e.type === "TABLE").map((e) => e.name);
  const files = new Map<string, string[]>();
  for (const e of entries) {
    const file = areaOf(e, tables);
    const list = files.get(file) ?? [];
    list.push(`${label(e)}\n${e.text}`);
    files.set(file, list);
  }
  const out = new Map<string, string>();
  for (const [file, title] of [FOUNDATION, ...AREAS.map(([f, t]) => [f, t] as [string, string])]) {
    const list = files.get(file);
    if (!list?.length) continue;
    out.set(
      file,
      `-- ${title}.\n-- Generated by \`npm run gen:schemas\` from supabase/migrations (the source of truth); do not edit.\n\n${list.join("\n\n")}\n`,
    );
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const i = args.indexOf("--migrations");
  const migrationsDir = i >= 0 ? path.resolve(args[i + 1] ?? "") : undefined;
  try {
    const files = await generateSchemas(migrationsDir);
    const current = existsSync(SCHEMAS_DIR)
      ? readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith(".sql"))
      : [];
    if (check) {
      const stale = [
        ...[...files]
          .filter(
            ([f, text]) =>
              !current.includes(f) || readFileSync(path.join(SCHEMAS_DIR, f), "utf8") !== text,
          )
          .map(([f]) => f),
        ...current.filter((f) => !files.has(f)),
      ];
      if (stale.length) {
        console.error(
          `supabase/schemas is stale (${stale.join(", ")}): run \`npm run gen:schemas\` and commit it.`,
        );
        process.exit(1);
      }
      console.log("supabase/schemas matches the migrations.");
    } else {
      mkdirSync(SCHEMAS_DIR, { recursive: true });
      for (const f of current) if (!files.has(f)) rmSync(path.join(SCHEMAS_DIR, f));
      for (const [f, text] of files) writeFileSync(path.join(SCHEMAS_DIR, f), text);
      console.log(`wrote ${files.size} files to supabase/schemas`);
    }
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  }
}
