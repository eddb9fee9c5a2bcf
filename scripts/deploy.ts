// `npm run deploy`: puts the product on a hosted Supabase project with the pinned CLI, in order:
// link the project, push the migrations, deploy every function, set the functions' secrets,
// store the schedules' URLs and bearer in Vault, and schedule the scan and the delivery worker
// (pg_cron + pg_net, as Supabase's "Scheduling Edge Functions" guide does).
//
//   npm run deploy -- --project-ref <ref> [--env-file .env.production] [--dry-run]
//
// Settings come from the environment (or --env-file): SUPABASE_ACCESS_TOKEN and
// SUPABASE_DB_PASSWORD for the CLI, and the function secrets listed in SECRETS below. Every
// missing or malformed value is reported at once, before anything runs. --dry-run prints each
// command (secret values never appear; they travel in files under supabase/.temp/deploy/).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { ROOT } from "../devstack/config.ts";

interface Secret {
  name: string;
  required: boolean;
  /** What a valid value looks like, and the message when it does not. */
  check?: [RegExp, string];
  fallback?: string;
}

/** The functions' secrets (Supabase injects SUPABASE_URL, the keys and SUPABASE_DB_URL itself). */
export const SECRETS: Secret[] = [
  { name: "SITE_URL", required: true, check: [/^https:\/\/\S+$/, "the SPA's https:// address"] },
  {
    name: "STRIPE_SECRET_KEY",
    required: true,
    check: [/^(sk|rk)_(live|test)_\w+$/, "a Stripe key (sk_live_…, sk_test_…)"],
  },
  {
    name: "STRIPE_WEBHOOK_SECRET",
    required: true,
    check: [/^whsec_\w+$/, "the webhook endpoint's signing secret (whsec_…)"],
  },
  {
    name: "STRIPE_PRICE_BASIC",
    required: true,
    check: [/^price_\w+$/, "a Stripe price id (price_…)"],
  },
  {
    name: "STRIPE_PRICE_PRO",
    required: true,
    check: [/^price_\w+$/, "a Stripe price id (price_…)"],
  },
  {
    name: "STRIPE_PRICE_ENTERPRISE",
    required: true,
    check: [/^price_\w+$/, "a Stripe price id (price_…)"],
  },
  {
    name: "SCAN_SECRET",
    required: true,
    check: [
      /^[A-Za-z0-9._~-]{32,}$/,
      "at least 32 characters of A-Z a-z 0-9 . _ ~ - (e.g. openssl rand -hex 32)",
    ],
  },
  { name: "RESEND_API_KEY", required: true, check: [/^re_\w+$/, "a Resend API key (re_…)"] },
  {
    name: "ALERT_EMAIL_FROM",
    required: true,
    check: [
      /^[^\s@]+@[^\s@]+\.[^\s@]+$|<[^\s@]+@[^\s@]+\.[^\s@]+>$/,
      "a sender address on the verified domain (alerts@example.com)",
    ],
  },
  {
    name: "MARKET_SOURCES",
    required: false,
    fallback: "binance,coinbase,dex",
    check: [
      /^(binance|coinbase|dex|simulated)(,(binance|coinbase|dex|simulated))*$/,
      "a comma-separated list of binance, coinbase, dex, simulated",
    ],
  },
  {
    name: "TELEGRAM_BOT_TOKEN",
    required: false,
    check: [/^\d+:[\w-]+$/, "a Bot API token (123456:ABC…)"],
  },
  {
    name: "STREAM_SAFETY_POLL_SECONDS",
    required: false,
    check: [/^(?:[5-9]|[1-9]\d{1,2}|[1-2]\d{3}|3[0-5]\d{2}|3600)$/, "whole seconds from 5 to 3600"],
  },
  { name: "DEX_MIN_LIQUIDITY_USD", required: false, check: [/^\d+$/, "a whole number of USD"] },
  { name: "BINANCE_API_URL", required: false, check: [/^https?:\/\/\S+$/, "an http(s) URL"] },
  { name: "COINBASE_API_URL", required: false, check: [/^https?:\/\/\S+$/, "an http(s) URL"] },
  { name: "GECKOTERMINAL_API_URL", required: false, check: [/^https?:\/\/\S+$/, "an http(s) URL"] },
  {
    name: "GECKOTERMINAL_NETWORKS",
    required: false,
    check: [
      /^(?:eth|base|solana|bsc|arbitrum)(?:\s*,\s*(?:eth|base|solana|bsc|arbitrum))*$/,
      "a comma list of eth, base, solana, bsc, arbitrum (decision 0091)",
    ],
  },
  {
    name: "GECKOTERMINAL_PAGES",
    required: false,
    check: [/^(?:[1-9]|10)$/, "whole pages from 1 to 10 (decision 0091)"],
  },
  { name: "API_ALLOWED_ORIGINS", required: false },
  { name: "API_COOKIE_PROJECT_URL", required: false, check: [/^https:\/\/\S+$/, "an https URL"] },
];

export const DEPLOY_DIR = "supabase/.temp/deploy";
const SECRETS_FILE = `${DEPLOY_DIR}/function-secrets.env`;
const VAULT_FILE = `${DEPLOY_DIR}/vault-secrets.sql`;
const SCHEDULE_FILE = `${DEPLOY_DIR}/schedules.sql`;

export class DeployError extends Error {
  constructor(readonly problems: string[]) {
    super(`npm run deploy cannot start:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

export interface DeployPlan {
  ref: string;
  dryRun: boolean;
  /** Each command as argv; the first word is the pinned `supabase` CLI. */
  commands: string[][];
  /** Files the commands read, path (relative to the repository) → content. */
  files: Record<string, string>;
  /** What the CLI needs in its environment. */
  env: Record<string, string>;
  /**
   * The stream worker's start command, to run beside the project (decision 0061), when
   * MARKET_SOURCES names a venue with a stream; printed, never run by this script.
   */
  streamWorker: string | null;
}

/** The venues the stream worker reads, of MARKET_SOURCES. */
export function streamVenues(marketSources: string): string[] {
  return marketSources.split(",").filter((s) => s === "binance" || s === "coinbase");
}

/** Every edge function: each folder of supabase/functions with an index.ts, `_shared` aside. */
export function functionNames(dir = path.join(ROOT, "supabase/functions")): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith("_") && !d.name.startsWith("."))
    .filter((d) => existsSync(path.join(dir, d.name, "index.ts")))
    .map((d) => d.name)
    .sort();
}

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Creates or updates the named Vault secrets the schedules read (migration 20261125700000). */
export function vaultSql(values: Record<string, string>): string {
  const rows = Object.entries(values)
    .map(([name, value]) => `(${sqlString(name)}, ${sqlString(value)})`)
    .join(",\n    ");
  return `-- Written by npm run deploy: the URLs and bearer the scheduled jobs read from Vault.
do $$
declare
  s record;
  existing uuid;
begin
  for s in select * from (values
    ${rows}
  ) as t (name, value) loop
    select v.id into existing from vault.secrets v where v.name = s.name;
    if existing is null then
      perform vault.create_secret(s.value, s.name);
    else
      perform vault.update_secret(existing, s.value);
    end if;
  end loop;
end;
$$;
`;
}

export const SCHEDULE_SQL = `-- Written by npm run deploy: pg_cron calls the scan every 10 seconds and the delivery worker
-- every 15 (private.schedule_scan and private.schedule_delivery, decisions 0010 and 0020).
create extension if not exists pg_cron with schema pg_catalog;
create extension if not exists pg_net with schema extensions;
select private.schedule_scan();
select private.schedule_delivery();
`;

function readArgs(argv: string[]): {
  ref?: string;
  envFile?: string;
  dryRun: boolean;
  unknown: string[];
} {
  const out: { ref?: string; envFile?: string; dryRun: boolean; unknown: string[] } = {
    dryRun: false,
    unknown: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.includes("=")
      ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
      : [a, undefined];
    if (flag === "--dry-run") out.dryRun = true;
    else if (flag === "--project-ref") out.ref = inline ?? argv[++i];
    else if (flag === "--env-file") out.envFile = inline ?? argv[++i];
    else out.unknown.push(a);
  }
  return out;
}

/** Checks every setting and returns the commands; throws DeployError listing all problems. */
export function planDeploy(argv: string[], env: NodeJS.ProcessEnv): DeployPlan {
  const args = readArgs(argv);
  const problems: string[] = args.unknown.map(
    (a) => `unknown argument ${a} (use --project-ref, --env-file, --dry-run)`,
  );
  let settings: NodeJS.ProcessEnv = env;
  if (args.envFile) {
    const file = path.resolve(args.envFile);
    if (!existsSync(file)) problems.push(`--env-file ${args.envFile} does not exist`);
    else settings = { ...parseEnv(readFileSync(file, "utf8")), ...env };
  }
  const ref = args.ref ?? settings.SUPABASE_PROJECT_REF ?? "";
  if (!ref)
    problems.push(
      "the project ref is missing: --project-ref <ref> or SUPABASE_PROJECT_REF (Dashboard, Project Settings, General)",
    );
  else if (!/^[a-z]{20}$/.test(ref))
    problems.push(
      `the project ref ${JSON.stringify(ref)} is not a project ref (20 lowercase letters)`,
    );
  const token = settings.SUPABASE_ACCESS_TOKEN ?? "";
  if (!token)
    problems.push(
      "SUPABASE_ACCESS_TOKEN is missing: create a personal access token (Dashboard, Account, Access Tokens)",
    );
  else if (!/^sbp_\w+$/.test(token))
    problems.push("SUPABASE_ACCESS_TOKEN is not a personal access token (sbp_…)");
  const password = settings.SUPABASE_DB_PASSWORD ?? "";
  if (!password)
    problems.push(
      "SUPABASE_DB_PASSWORD is missing: the database password chosen when the project was created",
    );

  const secrets: Record<string, string> = {};
  for (const s of SECRETS) {
    const value = settings[s.name]?.trim() || s.fallback || "";
    if (!value) {
      if (s.required) problems.push(`${s.name} is missing: ${s.check?.[1] ?? "required"}`);
      continue;
    }
    if (s.check && !s.check[0].test(value)) {
      problems.push(`${s.name} is not ${s.check[1]}`);
      continue;
    }
    secrets[s.name] = value;
  }
  if (problems.length) throw new DeployError(problems);

  const functionsUrl = `https://${ref}.supabase.co/functions/v1`;
  const files = {
    [SECRETS_FILE]: Object.entries(secrets)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join("\n")
      .concat("\n"),
    [VAULT_FILE]: vaultSql({
      scan_url: `${functionsUrl}/scan`,
      delivery_url: `${functionsUrl}/deliver-alerts`,
      scan_secret: secrets.SCAN_SECRET!,
    }),
    [SCHEDULE_FILE]: SCHEDULE_SQL,
  };
  const commands = [
    ["supabase", "link", "--project-ref", ref],
    ["supabase", "db", "push", "--remote", "--yes"],
    ["supabase", "functions", "deploy", ...functionNames(), "--use-api", "--yes"],
    ["supabase", "secrets", "set", "--env-file", SECRETS_FILE],
    ["supabase", "db", "query", "--remote", "--yes", "--file", VAULT_FILE],
    ["supabase", "db", "query", "--remote", "--yes", "--file", SCHEDULE_FILE],
  ];
  const streams = streamVenues(secrets.MARKET_SOURCES ?? "");
  return {
    ref,
    dryRun: args.dryRun,
    commands,
    files,
    env: { SUPABASE_ACCESS_TOKEN: token, SUPABASE_DB_PASSWORD: password },
    streamWorker:
      streams.length > 0
        ? `SUPABASE_URL=https://${ref}.supabase.co SUPABASE_SERVICE_ROLE_KEY=<the project's service-role key> npm run worker:streams -- --venues ${streams.join(",")}`
        : null,
  };
}

/** The dry run's output: each file by the names it holds, then each command. */
export function describePlan(plan: DeployPlan): string {
  const lines = [`Deploying to project ${plan.ref} (https://${plan.ref}.supabase.co):`];
  const names = (text: string) =>
    text
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split("=")[0])
      .join(", ");
  lines.push(`write ${SECRETS_FILE} (${names(plan.files[SECRETS_FILE]!)})`);
  lines.push(`write ${VAULT_FILE} (Vault secrets scan_url, delivery_url, scan_secret)`);
  lines.push(`write ${SCHEDULE_FILE} (pg_cron jobs market-scan and deliver-alerts)`);
  for (const c of plan.commands) lines.push(`$ ${c.join(" ")}`);
  if (plan.streamWorker) {
    lines.push(
      "then, on a host beside the project (a long-running process this script does not start; README, Deployment, The stream worker):",
      `  ${plan.streamWorker}`,
    );
  }
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  let plan: DeployPlan;
  try {
    plan = planDeploy(process.argv.slice(2), process.env);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  }
  console.log(describePlan(plan));
  if (plan.dryRun) {
    console.log("(dry run: nothing was run)");
    process.exit(0);
  }
  const cli = path.join(ROOT, "node_modules/.bin/supabase");
  mkdirSync(path.join(ROOT, DEPLOY_DIR), { recursive: true });
  let code = 0;
  try {
    for (const [file, text] of Object.entries(plan.files))
      writeFileSync(path.join(ROOT, file), text, { mode: 0o600 });
    for (const [, ...args] of plan.commands) {
      console.log(`\n$ supabase ${args.join(" ")}`);
      const res = spawnSync(cli, args, {
        cwd: ROOT,
        stdio: "inherit",
        env: { ...process.env, ...plan.env },
      });
      if (res.status !== 0) {
        console.error(
          `\nnpm run deploy stopped: \`supabase ${args.join(" ")}\` failed (exit ${res.status}). Fix it and run npm run deploy again; every step can be repeated.`,
        );
        code = 1;
        break;
      }
    }
  } finally {
    rmSync(path.join(ROOT, DEPLOY_DIR), { recursive: true, force: true });
  }
  if (code === 0) {
    console.log(
      `\nDeployed. Build the SPA with VITE_SUPABASE_URL=https://${plan.ref}.supabase.co and the project's publishable key (npm run build).`,
    );
    if (plan.streamWorker)
      console.log(
        `Then start the stream worker on a host beside the project (README, Deployment, The stream worker):\n  ${plan.streamWorker}`,
      );
  }
  process.exit(code);
}
